// LookaheadUI — UIKit adapters: a prefetch data source and an image-view binding. Thin forwarding over the
// platform-neutral ListPrefetchController, ImagePrefetcher and ImageSlot, where every decision lives.
// Apple platforms only: this file is empty on Linux and cannot be built or tested there.

#if canImport(UIKit)
import Foundation
public import Lookahead
public import UIKit

/// Feeds a table or collection view's visible rows to a ``ListPrefetchController`` and its wish list to an
/// ``ImagePrefetcher``. Set it as `prefetchDataSource` and call ``scrollViewDidScroll(_:)`` from the delegate.
@MainActor
public final class ListPrefetchingAdapter: NSObject, UITableViewDataSourcePrefetching,
    UICollectionViewDataSourcePrefetching
{
    public private(set) var controller: ListPrefetchController
    public let prefetcher: ImagePrefetcher
    private let request: (IndexPath) -> ImageRequest?
    private let start = ContinuousClock.now

    /// - Parameter request: The image request for a row (section 0).
    public init(
        itemCount: Int,
        prefetcher: ImagePrefetcher = ImagePrefetcher(),
        request: @escaping (IndexPath) -> ImageRequest?
    ) {
        self.controller = ListPrefetchController(itemCount: itemCount)
        self.prefetcher = prefetcher
        self.request = request
    }

    /// Call from `scrollViewDidScroll(_:)`.
    public func scrollViewDidScroll(_ scrollView: UIScrollView) {
        let rows: [Int]
        switch scrollView {
        case let table as UITableView: rows = (table.indexPathsForVisibleRows ?? []).map(\.row)
        case let collection as UICollectionView: rows = collection.indexPathsForVisibleItems.map(\.item)
        default: return
        }
        visibleRowsChanged(rows)
    }

    /// Whether cells should start loads now (not during a fling).
    public var shouldLoadVisibleImages: Bool { !controller.isFlinging }

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

    private func visibleRowsChanged(_ rows: [Int]) {
        guard let low = rows.min(), let high = rows.max() else { return }
        _ = controller.visibleRangeChanged(low..<(high + 1), at: start.duration(to: .now))
        prefetcher.prefetch(controller.desiredRows.compactMap { request(IndexPath(item: $0, section: 0)) })
    }
}

/// Binds an image view to an ``ImageSlot``: configure it in `cellForRowAt`, reuse it in `prepareForReuse`.
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
