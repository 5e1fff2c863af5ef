// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// The rows on screen of a list that only says when each row appears and disappears (SwiftUI's `onAppear` and
/// `onDisappear` in a `List` or `LazyVGrid`).
public struct ListAppearanceTracker: Sendable, Equatable {
    /// The rows on screen.
    public private(set) var visibleRows: Set<Int> = []

    /// An empty tracker.
    public init() {}

    /// The rows on screen, from the lowest to the highest; `nil` when none is.
    public var range: Range<Int>? {
        guard let low = visibleRows.min(), let high = visibleRows.max() else { return nil }
        return low..<(high + 1)
    }

    /// `row` appeared: returns the new visible range when it changed.
    public mutating func rowAppeared(_ row: Int) -> Range<Int>? {
        let before = range
        visibleRows.insert(row)
        return range == before ? nil : range
    }

    /// `row` disappeared: returns the new visible range when it changed and some row is still on screen.
    public mutating func rowDisappeared(_ row: Int) -> Range<Int>? {
        let before = range
        visibleRows.remove(row)
        return range == before ? nil : range
    }
}
