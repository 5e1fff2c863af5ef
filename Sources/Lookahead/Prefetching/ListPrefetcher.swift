// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// Prefetches the images of a scrolling list (a ``ListSnapshot``) and binds its cells' image views:
///
/// ```swift
/// let prefetcher = ListPrefetcher(ListSnapshot(photos.map(\.id))) { id in
///     photos.first { $0.id == id }.map { ImageRequest(url: $0.url) }
/// }
/// ```
///
/// UIKit's `ListPrefetchingAdapter` calls ``visibleItemsChanged(in:itemIdentifier:)`` as the list scrolls; SwiftUI
/// items report ``itemAppeared(_:)`` and ``itemDisappeared(_:)``. When the items change, ``apply(_:)`` the snapshot.
@MainActor
public final class ListPrefetcher<ItemID: Hashable & Sendable> {
    /// Tuning; the defaults suit a phone-sized list of images.
    public struct Configuration: Sendable {
        /// How the prefetch window follows the scroll.
        @_spi(Simulation) public var window = ListPrefetchWindow()
        /// Items beyond the prefetch window (on either side) whose running downloads go on; none start there.
        /// `nil`: half a viewport, at least two items.
        public var keepMargin: Int?
        /// How long a download no longer wanted goes on before it is cancelled, so a scroll that turns back finds
        /// it running. Items a fling passed, a jump left, or gone from the list are cancelled at once.
        public var cancellationDelay = Duration.milliseconds(400)
        /// The most prefetches that run at once (demoted cell loads come on top).
        public var maximumConcurrentPrefetches = 6
        /// The share of the memory cache's cost limit the visible items and the window may take together, so
        /// prefetches evict neither the images on screen nor each other; `nil`: no bound.
        public var memoryBudgetFraction: Double? = 0.75

        /// The default configuration.
        public init() {}
    }

    /// Receives the items whose prefetch started and those whose download stopped, nearest first, for a log.
    public var onUpdate: ((_ prefetching: [ItemID], _ cancelled: [ItemID]) -> Void)?
    /// The items of the list, as last applied.
    public private(set) var snapshot: ListSnapshot<ItemID>
    let slots: ListImageSlots<ItemID>
    private var appeared: Set<ItemID> = []
    private let request: (ItemID) -> ImageRequest?

    /// Creates a prefetcher for a list showing `snapshot`; `request` gives an item's image request.
    public convenience init(
        _ snapshot: ListSnapshot<ItemID> = ListSnapshot(),
        pipeline: ImagePipeline = .shared,
        configuration: Configuration = Configuration(),
        request: @escaping (ItemID) -> ImageRequest?
    ) {
        self.init(
            slots: ListImageSlots(pipeline: pipeline, snapshot: snapshot, configuration: configuration),
            request: request
        )
    }

    /// A prefetcher over `slots` (on a test's clock).
    init(slots: ListImageSlots<ItemID>, request: @escaping (ItemID) -> ImageRequest?) {
        self.snapshot = slots.snapshot
        self.slots = slots
        self.request = request
    }

    /// The list now shows `snapshot` (apply it with the data source's): loads of items still near the screen go on,
    /// those of items gone or now far away stop. Re-bind the cells of reloaded items.
    public func apply(_ snapshot: ListSnapshot<ItemID>) {
        self.snapshot = snapshot
        appeared = appeared.filter { snapshot.positions[$0] != nil }
        report(slots.apply(snapshot, requests: request))
    }

    /// The list scrolled (`scrollViewDidScroll`): reads its viewport. `itemIdentifier` gives the item at an index
    /// path (a diffable data source's `itemIdentifier(for:)`); by default, the snapshot's item there.
    public func visibleItemsChanged(
        in list: some ListViewGeometry,
        itemIdentifier: ((IndexPath) -> ItemID?)? = nil
    ) {
        let snapshot = self.snapshot
        let viewport = ListViewport(list) { path in
            guard let itemIdentifier else { return snapshot.position(of: path) }
            return itemIdentifier(path).flatMap { snapshot.positions[$0] }
        }
        guard let viewport else { return }
        report(
            slots.visibleRowsChanged(
                viewport.rows,
                position: viewport.position,
                isDecelerating: viewport.isDecelerating,
                requests: request
            )
        )
    }

    /// An item appeared (SwiftUI's `onAppear`).
    public func itemAppeared(_ item: ItemID) {
        appearanceChanged { $0.insert(item) }
    }

    /// An item disappeared (SwiftUI's `onDisappear`).
    public func itemDisappeared(_ item: ItemID) {
        appearanceChanged { $0.remove(item) }
    }

    /// The window follows the span of the items on screen, when it changed and some item is on screen.
    private func appearanceChanged(_ change: (inout Set<ItemID>) -> Void) {
        let before = snapshot.span(of: appeared)
        change(&appeared)
        guard let rows = snapshot.span(of: appeared), rows != before else { return }
        report(slots.visibleRowsChanged(rows, requests: request))
    }

    /// A cell shows `item` (`cellForRowAt`): its image view shows the item's image, joining a prefetch running for
    /// it. The options' pipeline is the prefetcher's.
    public func bind(_ view: some ImageDisplaying, item: ItemID, options: ImageLoadingOptions? = nil) {
        var options = options ?? ImageLoadingOptions(pipeline: slots.pipeline)
        options.pipeline = slots.pipeline
        ImageViewBinding.binding(for: view, options: options)
            .bind(item, request: request(item), in: slots, options: options)
    }

    /// A cell stopped showing its item (`didEndDisplaying`): the item's load becomes a prefetch while it is near.
    public func unbind(_ view: some ImageDisplaying) {
        if let binding = view.lookaheadBinding { slots.unbind(binding.slot) }
    }

    private func report(_ update: ListPrefetchUpdate<ItemID>) {
        onUpdate?(update.prefetch, update.cancel)
    }
}
