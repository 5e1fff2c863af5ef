// LookaheadUI — UIKit: table and collection views as ListViewGeometry, and the adapter that forwards their
// callbacks to a ListImageLoader. Apple platforms only: this file is empty on Linux and cannot be built or tested
// there. The arithmetic (visible range, fractional position) is ListViewport's and the cell's image is
// ImageViewLoader's, both tested on Linux with fakes.

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
}

/// Drives a ``ListImageLoader`` from a table or collection view (section 0). Set it as `prefetchDataSource`, call
/// ``scrollViewDidScroll(_:)`` from the delegate, ``bind(_:row:options:)`` from `cellForRowAt` and
/// ``unbind(row:)`` from `didEndDisplaying`.
///
/// ```swift
/// let adapter = ListPrefetchingAdapter(itemCount: photos.count) { ImageRequest(url: photos[$0].url) }
/// adapter.onUpdate = { $0.logMessages.forEach { print($0) } }   // 🚀 Prefetching… / 🚫 Cancelling…
/// tableView.prefetchDataSource = adapter
/// ```
@MainActor
public final class ListPrefetchingAdapter: NSObject, UITableViewDataSourcePrefetching,
    UICollectionViewDataSourcePrefetching
{
    /// The loader: its window, prefetcher and the cells' slots.
    public let loader: ListImageLoader
    /// Receives what each scroll step changed (rows to prefetch, downloads cancelled), for a log.
    public var onUpdate: ((ListImageLoader.Update) -> Void)?
    private let request: (Int) -> ImageRequest?

    /// - Parameter request: The image request for a row (section 0).
    public init(
        itemCount: Int,
        pipeline: ImagePipeline = .shared,
        configuration: ListImageLoader.Configuration = ListImageLoader.Configuration(),
        request: @escaping (Int) -> ImageRequest?
    ) {
        self.loader = ListImageLoader(pipeline: pipeline, itemCount: itemCount, configuration: configuration)
        self.request = request
    }

    /// Call from `scrollViewDidScroll(_:)`.
    public func scrollViewDidScroll(_ scrollView: UIScrollView) {
        guard let list = scrollView as? any ListViewGeometry,
            let update = loader.visibleRowsChanged(in: list, requests: request)
        else { return }
        onUpdate?(update)
    }

    /// The list's row count changed.
    public func itemCountChanged(_ count: Int) {
        onUpdate?(loader.itemCountChanged(count, requests: request))
    }

    /// Call from `cellForRowAt`: the image view shows the row's image (a memory hit at once), joining a prefetch
    /// already running for it.
    public func bind(_ imageView: some ImageDisplaying, row: Int, options: ImageLoadingOptions = ImageLoadingOptions())
    {
        var options = options
        options.pipeline = loader.pipeline
        ImageViewLoader.loader(for: imageView, options: options)
            .bind(row: row, request: request(row), in: loader, options: options)
    }

    /// Call from `didEndDisplaying`: the row's load becomes a prefetch while the row is near the screen.
    public func unbind(row: Int) {
        loader.unbind(row: row)
    }

    public func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
        scrollViewDidScroll(tableView)
    }

    public func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
        scrollViewDidScroll(tableView)
    }

    public func collectionView(_ collectionView: UICollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
        scrollViewDidScroll(collectionView)
    }

    public func collectionView(_ collectionView: UICollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath])
    {
        scrollViewDidScroll(collectionView)
    }
}
#endif
