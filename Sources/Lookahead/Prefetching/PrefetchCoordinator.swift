// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — PrefetchCoordinator: a list's ListImageLoader, driven from UIKit's scroll or SwiftUI's row events.

/// Drives a ``ListImageLoader`` from a list on the main thread, and binds its cells' image views to it.
///
/// - UIKit: `LookaheadUI`'s `ListPrefetchingAdapter` calls ``visibleRowsChanged(in:)`` with the table or collection
///   view (a ``ListViewGeometry``) on every scroll step.
/// - SwiftUI (`List`, `LazyVGrid`): the rows say when they appear and disappear (`.prefetching(row:in:)`); the rows
///   on screen are those that appeared and have not disappeared (``ListAppearanceTracker``). `LookaheadUI` makes
///   the coordinator an `ObservableObject`, to keep in a `@StateObject`.
/// - Cells: ``bind(_:row:options:)`` when a cell shows a row, ``unbind(row:)`` when it stops.
///
/// ```swift
/// let coordinator = PrefetchCoordinator(itemCount: photos.count) { ImageRequest(url: photos[$0].url) }
/// coordinator.onUpdate = { $0.logMessages.forEach { print($0) } }   // 🚀 Prefetching… / 🚫 Cancelling…
/// coordinator.bind(cell.photoView, row: indexPath.row)                // cellForRowAt
/// ```
@MainActor
public final class PrefetchCoordinator {
    /// The loader: its window and prefetcher.
    public let loader: ListImageLoader
    /// Receives what each change of the visible rows changed (rows to prefetch, downloads cancelled), for a log.
    public var onUpdate: ((ListImageLoader.Update) -> Void)?
    /// The rows on screen, as the rows' appear and disappear events left them.
    public private(set) var tracker = ListAppearanceTracker()
    private let request: (Int) -> ImageRequest?

    /// Creates a coordinator for a list of `itemCount` rows.
    ///
    /// - Parameters:
    ///   - itemCount: The number of rows.
    ///   - pipeline: The pipeline that loads the images.
    ///   - configuration: The loader's window, budget and timing.
    ///   - request: The image request for a row.
    public init(
        itemCount: Int,
        pipeline: ImagePipeline = .shared,
        configuration: ListImageLoader.Configuration = ListImageLoader.Configuration(),
        request: @escaping (Int) -> ImageRequest?
    ) {
        self.loader = ListImageLoader(pipeline: pipeline, itemCount: itemCount, configuration: configuration)
        self.request = request
    }

    /// The list scrolled (UIKit's `scrollViewDidScroll`, or its prefetch data source's calls): reads its viewport.
    public func visibleRowsChanged(in list: some ListViewGeometry) {
        if let update = loader.visibleRowsChanged(in: list, requests: request) { onUpdate?(update) }
    }

    /// A row appeared (SwiftUI's `onAppear`).
    public func rowAppeared(_ row: Int) {
        if let rows = tracker.rowAppeared(row) { onUpdate?(loader.visibleRowsChanged(rows, requests: request)) }
    }

    /// A row disappeared (SwiftUI's `onDisappear`).
    public func rowDisappeared(_ row: Int) {
        if let rows = tracker.rowDisappeared(row) { onUpdate?(loader.visibleRowsChanged(rows, requests: request)) }
    }

    /// The list's row count changed (a page arrived, a refresh).
    public func itemCountChanged(_ count: Int) {
        onUpdate?(loader.itemCountChanged(count, requests: request))
    }

    /// A cell shows `row` (`cellForRowAt`): its image view shows the row's image — a memory hit at once — joining a
    /// prefetch already running for it. The options' pipeline is the loader's.
    public func bind(_ view: some ImageDisplaying, row: Int, options: ImageLoadingOptions? = nil) {
        var options = options ?? ImageLoadingOptions(pipeline: loader.pipeline)
        options.pipeline = loader.pipeline
        ImageViewLoader.loader(for: view, options: options)
            .bind(row: row, request: request(row), in: loader, options: options)
    }

    /// A cell stopped showing `row` (`didEndDisplaying`): the row's load becomes a prefetch while the row is near.
    public func unbind(row: Int) {
        loader.unbind(row: row)
    }
}
