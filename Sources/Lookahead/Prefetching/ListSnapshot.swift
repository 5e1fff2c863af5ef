// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// The items of a list, by identifier, in sections, as an `NSDiffableDataSourceSnapshot` or a SwiftUI `ForEach` has
/// them: `ListSnapshot(sections: [["pinned"], photos.map(\.id)])`. A repeated identifier counts where it first appears.
public struct ListSnapshot<ItemID: Hashable & Sendable>: Sendable, Equatable {
    /// The items of each section, in order.
    public let sections: [[ItemID]]
    /// Every item, section after section: the positions the prefetch window works on.
    let items: [ItemID]
    /// Each item's position in ``items``.
    let positions: [ItemID: Int]
    /// The position of each section's first item.
    private let sectionStarts: [Int]

    /// A list of these sections.
    public init(sections: [[ItemID]]) {
        self.sections = sections
        var starts: [Int] = []
        var items: [ItemID] = []
        for section in sections {
            starts.append(items.count)
            items += section
        }
        self.items = items
        self.sectionStarts = starts
        self.positions = Dictionary(zip(items, items.indices)) { first, _ in first }
    }

    /// A list of one section.
    public init(_ items: some Sequence<ItemID>) {
        self.init(sections: [Array(items)])
    }

    /// An empty list.
    public init() {
        self.init(sections: [])
    }

    /// The item at `indexPath` (section, then item or row), or `nil` when there is none.
    public subscript(indexPath: IndexPath) -> ItemID? {
        position(of: indexPath).map { items[$0] }
    }

    /// The position of the item at `indexPath` among all items.
    func position(of indexPath: IndexPath) -> Int? {
        guard indexPath.count == 2, sections.indices.contains(indexPath[0]) else { return nil }
        let section = indexPath[0]
        return sections[section].indices.contains(indexPath[1]) ? sectionStarts[section] + indexPath[1] : nil
    }

    /// The positions of `ids` that are in the list, as a range from the lowest to the highest; `nil` when none is.
    func span(of ids: some Sequence<ItemID>) -> Range<Int>? {
        let found = ids.compactMap { positions[$0] }
        guard let low = found.min(), let high = found.max() else { return nil }
        return low..<(high + 1)
    }

    /// Whether two snapshots list the same sections of items.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.sections == rhs.sections }
}
