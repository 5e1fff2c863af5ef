// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// What a change of a list changed: items to prefetch and prefetched items to cancel, nearest first.
@_spi(Simulation)
public struct ListPrefetchUpdate<ItemID: Hashable & Sendable>: Equatable, Sendable {
    /// Items to start prefetching.
    public var prefetch: [ItemID] = []
    /// Items whose prefetch should stop.
    public var cancel: [ItemID] = []

    /// Whether there is nothing to do.
    public var isEmpty: Bool { prefetch.isEmpty && cancel.isEmpty }
}

extension ListPrefetchUpdate where ItemID == Int {
    /// The console lines of the classic prefetching demo (rows numbered from 1).
    public var logMessages: [String] {
        var lines: [String] = []
        if !prefetch.isEmpty { lines.append("🚀 Prefetching images for rows: \(Self.format(prefetch))") }
        if !cancel.isEmpty { lines.append("🚫 Cancelling prefetch for rows: \(Self.format(cancel))") }
        return lines
    }

    private static func format(_ rows: [Int]) -> String {
        "[" + rows.map { String($0 + 1) }.joined(separator: ", ") + "]"
    }
}
