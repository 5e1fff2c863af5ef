// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
import Foundation

/// Prefetches the images of a scrolling list and binds its cells' image views: the one type an app with a list or
/// a grid uses. UIKit's `ListPrefetchingAdapter` (`LookaheadUI`) calls ``visibleRowsChanged(in:)`` on every scroll
/// step; SwiftUI rows report ``rowAppeared(_:)`` and ``rowDisappeared(_:)``; cells call ``bind(_:row:options:)``
/// and ``unbind(row:)``. The work is ``ListImageSlots``'s; for URLs with no list on screen, use ``ImagePrefetcher``.
@MainActor
public final class ListPrefetcher {
    /// The list's slots, prefetch window and prefetcher.
    public let slots: ListImageSlots
    /// Receives what each change of the visible rows changed (rows to prefetch, downloads cancelled), for a log.
    public var onUpdate: ((ListPrefetchUpdate) -> Void)?
    /// The rows on screen, as the rows' appear and disappear events left them.
    public private(set) var tracker = ListAppearanceTracker()
    private let request: (Int) -> ImageRequest?

    /// Creates a prefetcher for a list of `itemCount` rows; `request` gives a row's image request.
    public init(
        itemCount: Int,
        pipeline: ImagePipeline = .shared,
        configuration: ListImageSlots.Configuration = ListImageSlots.Configuration(),
        request: @escaping (Int) -> ImageRequest?
    ) {
        self.slots = ListImageSlots(pipeline: pipeline, itemCount: itemCount, configuration: configuration)
        self.request = request
    }

    /// The list scrolled (UIKit's `scrollViewDidScroll`, or its prefetch data source's calls): reads its viewport.
    public func visibleRowsChanged(in list: some ListViewGeometry) {
        if let update = slots.visibleRowsChanged(in: list, requests: request) { onUpdate?(update) }
    }

    /// A row appeared (SwiftUI's `onAppear`).
    public func rowAppeared(_ row: Int) {
        if let rows = tracker.rowAppeared(row) { onUpdate?(slots.visibleRowsChanged(rows, requests: request)) }
    }

    /// A row disappeared (SwiftUI's `onDisappear`).
    public func rowDisappeared(_ row: Int) {
        if let rows = tracker.rowDisappeared(row) { onUpdate?(slots.visibleRowsChanged(rows, requests: request)) }
    }

    /// The list's row count changed (a page arrived, a refresh).
    public func itemCountChanged(_ count: Int) {
        onUpdate?(slots.itemCountChanged(count, requests: request))
    }

    /// A cell shows `row` (`cellForRowAt`): its image view shows the row's image, joining a prefetch running for
    /// it. The options' pipeline is the prefetcher's.
    public func bind(_ view: some ImageDisplaying, row: Int, options: ImageLoadingOptions? = nil) {
        var options = options ?? ImageLoadingOptions(pipeline: slots.pipeline)
        options.pipeline = slots.pipeline
        ImageViewBinding.binding(for: view, options: options)
            .bind(row: row, request: request(row), in: slots, options: options)
    }

    /// A cell stopped showing `row` (`didEndDisplaying`): the row's load becomes a prefetch while the row is near.
    public func unbind(row: Int) {
        slots.unbind(row: row)
    }
}
