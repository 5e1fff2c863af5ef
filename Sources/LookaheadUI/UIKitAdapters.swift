// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// UIKit lists as ListViewGeometry, and the prefetch data source for a ListPrefetcher; the logic is tested on Linux.

#if canImport(UIKit) && !os(watchOS)
import Foundation
public import Lookahead
public import UIKit

extension UITableView: Lookahead.ListViewGeometry {
    /// The visible rows of every section.
    public var lookaheadVisibleIndexPaths: [IndexPath] { indexPathsForVisibleRows ?? [] }

    /// The row's frame, vertically.
    public func lookaheadItemExtent(at indexPath: IndexPath) -> (minY: Double, height: Double)? {
        let frame = rectForRow(at: indexPath)
        return (Double(frame.minY), Double(frame.height))
    }

    /// `contentOffset.y` below the adjusted top inset.
    public var lookaheadViewportTop: Double { Double(contentOffset.y + adjustedContentInset.top) }

    /// `isDecelerating`: the table coasts after a fling.
    public var lookaheadIsDecelerating: Bool? { isDecelerating }
}

extension UICollectionView: Lookahead.ListViewGeometry {
    /// The visible items of every section.
    public var lookaheadVisibleIndexPaths: [IndexPath] { indexPathsForVisibleItems }

    /// `nil`: items may be laid out in a grid, not one per line.
    public func lookaheadItemExtent(at indexPath: IndexPath) -> (minY: Double, height: Double)? { nil }

    /// `contentOffset.y` below the adjusted top inset.
    public var lookaheadViewportTop: Double { Double(contentOffset.y + adjustedContentInset.top) }

    /// `isDecelerating`: the collection view coasts after a fling.
    public var lookaheadIsDecelerating: Bool? { isDecelerating }
}

/// A table or collection view's prefetch data source, over every section: forwards its calls and the delegate's
/// ``scrollViewDidScroll(_:)`` to a ``ListPrefetcher``, which binds the cells. An index path's item is the
/// prefetcher's snapshot's there, or what `itemIdentifier` says (a diffable data source's `itemIdentifier(for:)`).
///
/// ```swift
/// adapter = ListPrefetchingAdapter(prefetcher) { dataSource.itemIdentifier(for: $0) }  // kept: the source is weak
/// tableView.prefetchDataSource = adapter
/// ```
@MainActor
public final class ListPrefetchingAdapter<ItemID: Hashable & Sendable>: NSObject, UITableViewDataSourcePrefetching,
    UICollectionViewDataSourcePrefetching
{
    /// The list's prefetcher: its snapshot, its log, its cells.
    public let prefetcher: ListPrefetcher<ItemID>
    private let itemIdentifier: ((IndexPath) -> ItemID?)?

    /// An adapter forwarding to `prefetcher`; `itemIdentifier` gives the item at an index path, when the
    /// prefetcher's snapshot does not.
    public init(_ prefetcher: ListPrefetcher<ItemID>, itemIdentifier: ((IndexPath) -> ItemID?)? = nil) {
        self.prefetcher = prefetcher
        self.itemIdentifier = itemIdentifier
    }

    /// Call from `scrollViewDidScroll(_:)`.
    public func scrollViewDidScroll(_ scrollView: UIScrollView) {
        if let list = scrollView as? any ListViewGeometry { visibleItemsChanged(in: list) }
    }

    /// `UITableViewDataSourcePrefetching`: the window follows the table.
    public func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
        visibleItemsChanged(in: tableView)
    }

    /// `UITableViewDataSourcePrefetching`: the window follows the table.
    public func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
        visibleItemsChanged(in: tableView)
    }

    /// `UICollectionViewDataSourcePrefetching`: the window follows the collection view.
    public func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
        visibleItemsChanged(in: collectionView)
    }

    /// `UICollectionViewDataSourcePrefetching`: the window follows the collection view.
    public func collectionView(_ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath])
    {
        visibleItemsChanged(in: collectionView)
    }

    private func visibleItemsChanged(in list: some ListViewGeometry) {
        prefetcher.visibleItemsChanged(in: list, itemIdentifier: itemIdentifier)
    }
}

extension ListSnapshot {
    /// The items of a diffable data source's snapshot, section by section.
    public init<SectionID>(_ snapshot: NSDiffableDataSourceSnapshot<SectionID, ItemID>) {
        self.init(sections: snapshot.sectionIdentifiers.map { snapshot.itemIdentifiers(inSection: $0) })
    }
}
#endif
