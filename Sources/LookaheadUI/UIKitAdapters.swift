// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// UIKit lists as ListViewGeometry, and the prefetch data source for a ListPrefetcher; the logic is tested on Linux.

#if canImport(UIKit) && !os(watchOS)
import Foundation
public import Lookahead
public import UIKit

extension UITableView: Lookahead.ListViewGeometry {
    /// The visible rows of section 0.
    public var lookaheadVisibleRows: [Int] {
        (indexPathsForVisibleRows ?? []).filter { $0.section == 0 }.map(\.row)
    }

    /// The row's frame, vertically.
    public func lookaheadRowExtent(_ row: Int) -> (minY: Double, height: Double)? {
        let frame = rectForRow(at: IndexPath(row: row, section: 0))
        return (Double(frame.minY), Double(frame.height))
    }

    /// `contentOffset.y` below the adjusted top inset.
    public var lookaheadViewportTop: Double { Double(contentOffset.y + adjustedContentInset.top) }

    /// `isDecelerating`: the table coasts after a fling.
    public var lookaheadIsDecelerating: Bool? { isDecelerating }
}

extension UICollectionView: Lookahead.ListViewGeometry {
    /// The visible items of section 0.
    public var lookaheadVisibleRows: [Int] {
        indexPathsForVisibleItems.filter { $0.section == 0 }.map(\.item)
    }

    /// `nil`: items are laid out in a grid, not one per line.
    public func lookaheadRowExtent(_ row: Int) -> (minY: Double, height: Double)? { nil }

    /// `contentOffset.y` below the adjusted top inset.
    public var lookaheadViewportTop: Double { Double(contentOffset.y + adjustedContentInset.top) }

    /// `isDecelerating`: the collection view coasts after a fling.
    public var lookaheadIsDecelerating: Bool? { isDecelerating }
}

/// A table or collection view's prefetch data source (section 0): forwards its calls and the delegate's
/// ``scrollViewDidScroll(_:)`` to a ``ListPrefetcher``, which binds the cells.
///
/// ```swift
/// let prefetcher = ListPrefetcher(itemCount: photos.count) { ImageRequest(url: photos[$0].url) }
/// adapter = ListPrefetchingAdapter(prefetcher)   // a stored property: `prefetchDataSource` is weak
/// tableView.prefetchDataSource = adapter
/// ```
@MainActor
public final class ListPrefetchingAdapter: NSObject, UITableViewDataSourcePrefetching,
    UICollectionViewDataSourcePrefetching
{
    /// The list's prefetcher: its slots, its log, its cells.
    public let prefetcher: ListPrefetcher

    /// An adapter forwarding to `prefetcher`.
    public init(_ prefetcher: ListPrefetcher) {
        self.prefetcher = prefetcher
    }

    /// Call from `scrollViewDidScroll(_:)`.
    public func scrollViewDidScroll(_ scrollView: UIScrollView) {
        if let list = scrollView as? any ListViewGeometry { prefetcher.visibleRowsChanged(in: list) }
    }

    /// `UITableViewDataSourcePrefetching`: the window follows the table.
    public func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
        prefetcher.visibleRowsChanged(in: tableView)
    }

    /// `UITableViewDataSourcePrefetching`: the window follows the table.
    public func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
        prefetcher.visibleRowsChanged(in: tableView)
    }

    /// `UICollectionViewDataSourcePrefetching`: the window follows the collection view.
    public func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
        prefetcher.visibleRowsChanged(in: collectionView)
    }

    /// `UICollectionViewDataSourcePrefetching`: the window follows the collection view.
    public func collectionView(_ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath])
    {
        prefetcher.visibleRowsChanged(in: collectionView)
    }
}
#endif
