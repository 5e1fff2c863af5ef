// Lookahead — PrefetchCoordinator: a ListImageLoader driven by rows that only say when they appear and disappear.

/// Drives a ``ListImageLoader`` from a declarative list (SwiftUI's `List` or `LazyVGrid`): the rows on screen are
/// those that appeared and have not disappeared (``ListAppearanceTracker``). `LookaheadUI` makes it an
/// `ObservableObject`, to keep in a `@StateObject`, and adds the `.prefetching(row:in:)` modifier.
///
/// ```swift
/// @StateObject var coordinator = PrefetchCoordinator(itemCount: photos.count) { ImageRequest(url: photos[$0].url) }
/// ForEach(photos.indices, id: \.self) { row in
///     LazyImage(url: photos[row].url) { … }.prefetching(row: row, in: coordinator)
/// }
/// ```
@MainActor
public final class PrefetchCoordinator {
    /// The loader: its window and prefetcher.
    public let loader: ListImageLoader
    /// Receives what each change of the visible rows changed (rows to prefetch, downloads cancelled), for a log.
    public var onUpdate: ((ListImageLoader.Update) -> Void)?
    /// The rows on screen.
    public private(set) var tracker = ListAppearanceTracker()
    private let request: (Int) -> ImageRequest?

    /// - Parameter request: The image request for a row.
    public init(
        itemCount: Int,
        pipeline: ImagePipeline = .shared,
        configuration: ListImageLoader.Configuration = ListImageLoader.Configuration(),
        request: @escaping (Int) -> ImageRequest?
    ) {
        self.loader = ListImageLoader(pipeline: pipeline, itemCount: itemCount, configuration: configuration)
        self.request = request
    }

    /// A row appeared (`onAppear`).
    public func rowAppeared(_ row: Int) {
        if let rows = tracker.rowAppeared(row) { onUpdate?(loader.visibleRowsChanged(rows, requests: request)) }
    }

    /// A row disappeared (`onDisappear`).
    public func rowDisappeared(_ row: Int) {
        if let rows = tracker.rowDisappeared(row) { onUpdate?(loader.visibleRowsChanged(rows, requests: request)) }
    }

    /// The list's row count changed (a page arrived, a refresh).
    public func itemCountChanged(_ count: Int) {
        onUpdate?(loader.itemCountChanged(count, requests: request))
    }
}
