// LookaheadUI — UIKit adapters: a table or collection view driving a ListImageLoader, and an image-view binding.
// Thin forwarding over the platform-neutral ListImageLoader and ImageSlot, where every decision lives.
// Apple platforms only: this file is empty on Linux and cannot be built or tested there.

#if canImport(UIKit)
import Foundation
public import Lookahead
public import UIKit

/// Drives a ``ListImageLoader`` from a table or collection view (section 0). Set it as `prefetchDataSource`, call
/// ``scrollViewDidScroll(_:)`` from the delegate, ``bind(_:row:)`` from `cellForRowAt` and ``unbind(row:)`` from
/// `didEndDisplaying`.
@MainActor
public final class ListPrefetchingAdapter: NSObject, UITableViewDataSourcePrefetching,
    UICollectionViewDataSourcePrefetching
{
    /// The loader: its window, prefetcher and the cells' slots.
    public let loader: ListImageLoader
    private let request: (IndexPath) -> ImageRequest?

    /// - Parameter request: The image request for a row (section 0).
    public init(
        itemCount: Int,
        pipeline: ImagePipeline = .shared,
        configuration: ListImageLoader.Configuration = ListImageLoader.Configuration(),
        request: @escaping (IndexPath) -> ImageRequest?
    ) {
        self.loader = ListImageLoader(pipeline: pipeline, itemCount: itemCount, configuration: configuration)
        self.request = request
    }

    /// Call from `scrollViewDidScroll(_:)`.
    public func scrollViewDidScroll(_ scrollView: UIScrollView) {
        let rows: [Int]
        var position: Double?
        switch scrollView {
        case let table as UITableView:
            rows = (table.indexPathsForVisibleRows ?? []).map(\.row)
            // The fractional row at the top edge, so the loader's speed estimate follows the scroll smoothly.
            if let first = rows.min() {
                let frame = table.rectForRow(at: IndexPath(row: first, section: 0))
                let top = table.contentOffset.y + table.adjustedContentInset.top
                if frame.height > 0 { position = Double(first) + Double((top - frame.minY) / frame.height) }
            }
        case let collection as UICollectionView:
            rows = collection.indexPathsForVisibleItems.map(\.item)
        default:
            return
        }
        guard let low = rows.min(), let high = rows.max() else { return }
        loader.visibleRowsChanged(low..<(high + 1), position: position) { request(IndexPath(item: $0, section: 0)) }
    }

    /// The list's row count changed.
    public func itemCountChanged(_ count: Int) {
        loader.itemCountChanged(count) { request(IndexPath(item: $0, section: 0)) }
    }

    /// Call from `cellForRowAt`: the cell's image view shows the row's image (a memory hit at once).
    public func bind(_ binding: ImageViewBinding, row: Int) {
        loader.bind(row: row, request: request(IndexPath(item: row, section: 0)), to: binding.slot)
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

/// Binds an image view to an ``ImageSlot``: bind it through ``ListPrefetchingAdapter/bind(_:row:)`` (or configure
/// its slot) in `cellForRowAt`.
@MainActor
public final class ImageViewBinding {
    public let slot: ImageSlot
    private weak var imageView: UIImageView?

    public init(imageView: UIImageView, pipeline: ImagePipeline = .shared, placeholder: UIImage? = nil) {
        self.imageView = imageView
        weak var weakView = imageView
        self.slot = ImageSlot(pipeline: pipeline) { state in
            let image = state.image?.cgImage.map { UIImage(cgImage: $0) }
            let update = { weakView?.image = image ?? placeholder }
            if Thread.isMainThread {
                MainActor.assumeIsolated(update)
            } else {
                DispatchQueue.main.async(execute: update)
            }
        }
    }
}
#endif
