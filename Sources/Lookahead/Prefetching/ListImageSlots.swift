// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The images of a scrolling list: the cells' ``ImageSlot``s by item, and the prefetch window around them. What a
/// ``ListPrefetcher`` drives, and what a program that draws its own cells (from any thread) uses directly.
///
/// A miss loads at visible priority unless the list flings; unbinding does not cancel, the load becomes a prefetch.
/// Thread safe, but meant to be driven from the list's thread; every call returns at once.
@_spi(Simulation)
public final class ListImageSlots<ItemID: Hashable & Sendable>: Sendable {
    /// Tuning; the defaults suit a phone-sized list of images.
    public typealias Configuration = ListPrefetcher<ItemID>.Configuration

    private struct State {
        var controller: ListPrefetchController
        var snapshot: ListSnapshot<ItemID>
        /// The slot bound to each item on screen with the image key it shows, and the item each bound slot shows.
        var slots: [ItemID: (slot: ImageSlot, key: ImageCacheKey?)] = [:]
        var items: [ObjectIdentifier: ItemID] = [:]
        /// Items whose downloads may be running, and when each was last wished for or near the window.
        var tracked: [ItemID: Duration] = [:]
        /// When each running prefetch started, for the latency feedback.
        var started: [ImageCacheKey: Duration] = [:]
        var budget: PrefetchMemoryBudget
    }

    /// The pipeline that loads the images.
    public let pipeline: ImagePipeline
    /// The tuning.
    public let configuration: Configuration
    /// The prefetcher that loads the items ahead.
    public let prefetcher: ImagePrefetcher
    private let shared: Shared
    private let now: @Sendable () -> Duration

    /// Creates the slots of a list showing `snapshot`.
    public convenience init(
        pipeline: ImagePipeline = .shared,
        snapshot: ListSnapshot<ItemID>,
        configuration: Configuration = Configuration()
    ) {
        let clock = ContinuousClock()
        let start = clock.now
        let queue = DispatchQueue(label: "Lookahead.ListImageSlots.prefetch")
        self.init(
            pipeline: pipeline,
            snapshot: snapshot,
            configuration: configuration,
            now: { start.duration(to: clock.now) },
            prefetchScheduler: { work in queue.async(execute: work) }
        )
    }

    /// The slots of a list on the caller's clock (`now`: the time since any fixed start), whose prefetcher runs its
    /// turns through `prefetchScheduler`.
    public init(
        pipeline: ImagePipeline,
        snapshot: ListSnapshot<ItemID>,
        configuration: Configuration,
        now: @escaping @Sendable () -> Duration,
        prefetchScheduler: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) {
        self.pipeline = pipeline
        self.configuration = configuration
        self.now = now
        var window = configuration.window
        window.concurrentLoads = configuration.maximumConcurrentPrefetches
        let shared = Shared(
            State(
                controller: ListPrefetchController(itemCount: snapshot.items.count, configuration: window),
                snapshot: snapshot,
                budget: PrefetchMemoryBudget(fraction: configuration.memoryBudgetFraction)
            )
        )
        self.shared = shared
        self.prefetcher = ImagePrefetcher(
            pipeline: pipeline,
            destination: .memoryCache,
            maxConcurrentRequestCount: configuration.maximumConcurrentPrefetches,
            scheduler: prefetchScheduler,
            observer: { activity in
                switch activity {
                case .started(let request):
                    shared.state.withLock { $0.started[request.imageKey] = now() }
                case .decoded(_, let cost):
                    shared.state.withLock { $0.budget.record(cost: cost) }
                case .finished(let request, let succeeded):
                    let waiting = shared.state.withLock { state -> [ImageSlot] in
                        guard let start = state.started.removeValue(forKey: request.imageKey), succeeded else {
                            return []
                        }
                        state.controller.recordLoadLatency(now() - start)
                        // A cell bound during a fling, which did not load, shows the image now.
                        return state.slots.values.compactMap { $0.key == request.imageKey ? $0.slot : nil }
                    }
                    for slot in waiting { slot.startLoading() }
                }
            }
        )
    }

    deinit {
        prefetcher.stopPrefetching()
    }

    // MARK: - The list

    /// The controller's view of the scroll: velocity, window, whether it flings.
    public var controller: ListPrefetchController { shared.state.withLock { $0.controller } }

    /// The items of the list.
    public var snapshot: ListSnapshot<ItemID> { shared.state.withLock { $0.snapshot } }

    /// The bound items showing an image that the memory cache no longer holds, and those images' cost.
    @_spi(Benchmarks) public var shownButEvicted: (count: Int, cost: Int) {
        let slots = shared.state.withLock { $0.slots.values.map(\.slot) }
        let cached = Set(pipeline.memoryCache?.keysByRecency ?? [])
        let evicted = slots.compactMap { slot -> PlatformImage? in
            guard case .loaded(let image, let request, _) = slot.state else { return nil }
            return cached.contains(pipeline.memoryCacheKey(for: request)) ? nil : image
        }
        return (evicted.count, evicted.reduce(0) { $0 + $1.decodedCost })
    }

    /// The most items the window may hold now, from `memoryBudgetFraction`; `nil` while nothing bounds it.
    public var prefetchLimit: Int? {
        let costLimit = pipeline.configuration.memoryCache?.costLimit
        return shared.state.withLock { state in
            state.budget.prefetchLimit(visibleCount: state.controller.visible.count, costLimit: costLimit)
        }
    }

    /// Whether the list flings: too fast for visible items to load before they leave.
    public var isFlinging: Bool { shared.state.withLock { $0.controller.isFlinging } }

    /// The list now shows `snapshot`. The window moves with the topmost item on screen still in the list, so an insert
    /// above it is no scroll; loads of items gone from the list stop at once, those now far from the window later.
    @discardableResult
    public func apply(_ snapshot: ListSnapshot<ItemID>, requests: (ItemID) -> ImageRequest?)
        -> ListPrefetchUpdate<ItemID>
    {
        update(requests: requests) { state in
            let old = state.snapshot.items
            let visible = state.controller.visible
            let move = visible.lazy.compactMap { row in snapshot.positions[old[row]].map { $0 - row } }.first ?? 0
            state.snapshot = snapshot
            _ = state.controller.itemsChanged(
                count: snapshot.items.count,
                visible: (visible.lowerBound + move)..<(visible.upperBound + move)
            )
        }
    }

    /// The visible items changed: moves the prefetch window, and starts the loads of cells bound during a fling.
    ///
    /// - Parameters:
    ///   - rows: The positions on screen, in the snapshot's items (section after section).
    ///   - position: Where the top of the viewport is, in positions (`contentOffset.y / rowHeight`), when known.
    ///   - isDecelerating: Whether the list coasts after the finger lifted (`UIScrollView.isDecelerating`), if known.
    ///   - requests: The image request of an item, asked during this call.
    @discardableResult
    public func visibleRowsChanged(
        _ rows: Range<Int>,
        position: Double? = nil,
        isDecelerating: Bool? = nil,
        requests: (ItemID) -> ImageRequest?
    ) -> ListPrefetchUpdate<ItemID> {
        let time = now()
        return update(requests: requests) {
            _ = $0.controller.visibleRangeChanged(rows, at: time, position: position, isDecelerating: isDecelerating)
        }
    }

    /// A cell shows `item`: its slot shows a memory hit at once, else loads (once a fling slows down), joining a
    /// prefetch already running for the item.
    public func bind(_ item: ItemID, request: ImageRequest?, to slot: ImageSlot) {
        let (replaced, startsLoading) = shared.state.withLock { state in
            if let other = state.items.updateValue(item, forKey: ObjectIdentifier(slot)), other != item {
                state.slots[other] = nil
            }
            if let request, state.budget.estimatedCost == nil { state.budget.record(request: request) }
            let previous = state.slots.updateValue((slot, request?.imageKey), forKey: item)?.slot
            let replaced = previous === slot ? nil : previous
            if let replaced { state.items[ObjectIdentifier(replaced)] = nil }
            let isWorthLoading = state.snapshot.positions[item].map(state.controller.isWorthLoading) ?? true
            return (replaced, isWorthLoading)
        }
        if let replaced { release(replaced) }
        slot.configure(with: request, startsLoading: startsLoading)
    }

    /// The cell that showed `item` no longer does. Its load becomes a prefetch, which the window keeps while the item
    /// is near the screen.
    public func unbind(_ item: ItemID) {
        unbind { _ in item }
    }

    /// The cell of `slot` no longer shows the item it was bound to, whichever that is now.
    public func unbind(_ slot: ImageSlot) {
        unbind { $0.items[ObjectIdentifier(slot)] }
    }

    private func unbind(_ find: (State) -> ItemID?) {
        let time = now()
        let (slot, isAbandoned) = shared.state.withLock { state -> (ImageSlot?, Bool) in
            guard let item = find(state), let slot = state.slots.removeValue(forKey: item)?.slot else {
                return (nil, false)
            }
            state.items[ObjectIdentifier(slot)] = nil
            // An item gone from the list, or left by a jump to an end, is not coming back soon: its load stops now.
            let controller = state.controller
            guard let row = state.snapshot.positions[item] else { return (slot, true) }
            if controller.jumpedToAnEnd, !controller.isOnFirstScreen(row),
                !controller.keptRows(margin: keepMargin(for: controller)).contains(row)
            {
                state.tracked[item] = nil
                return (slot, true)
            }
            if state.tracked[item] == nil { state.tracked[item] = time }
            return (slot, false)
        }
        guard let slot else { return }
        if isAbandoned { slot.prepareForReuse() } else { release(slot) }
    }

    /// Positions beyond the prefetch window, on either side, whose running downloads go on.
    private func keepMargin(for controller: ListPrefetchController) -> Int {
        configuration.keepMargin ?? max(2, controller.visible.count / 2)
    }

    /// Stops everything: every prefetch and every bound cell's load.
    public func stop() {
        let slots = shared.state.withLock { state -> [ImageSlot] in
            let slots = state.slots.values.map(\.slot)
            state.slots.removeAll()
            state.items.removeAll()
            state.tracked.removeAll()
            return slots
        }
        prefetcher.stopPrefetching()
        for slot in slots { slot.prepareForReuse() }
    }

    // MARK: - The window

    private func release(_ slot: ImageSlot) {
        if let task = slot.detachLoad() { prefetcher.adopt(task) }
    }

    /// Applies a change to the state, then feeds the prefetcher: the wish list to start, the items to keep.
    private func update(
        requests: (ItemID) -> ImageRequest?,
        _ change: (inout State) -> Void
    ) -> ListPrefetchUpdate<ItemID> {
        let time = now()
        let costLimit = pipeline.configuration.memoryCache?.costLimit
        let plan = shared.state.withLock { state in
            change(&state)
            return self.plan(&state, at: time, costLimit: costLimit)
        }
        let wished = plan.wish.compactMap(requests)
        let kept = plan.keep.compactMap(requests)
        // During a fling no visible cell loads: the prefetches, for items about to show, go first.
        let priority: ImageRequest.Priority = plan.isFlinging ? .normal : .low
        if prefetcher.priority != priority { prefetcher.priority = priority }
        let cancelled = Set(prefetcher.prefetch(wished, keeping: kept).map(\.imageKey))
        for slot in plan.slotsToStart { slot.startLoading() }
        // The log names the items whose downloads stopped, not every item that left the window.
        var update = plan.update
        update.cancel = update.cancel.filter { item in
            requests(item).map { cancelled.contains($0.imageKey) } ?? false
        }
        return update
    }

    /// The state under its lock, shared with the prefetcher's observer (made before `self`).
    private final class Shared: Sendable {
        let state: Locked<State>
        init(_ state: State) { self.state = Locked(state) }
    }

    private struct Plan {
        var wish: [ItemID] = []
        var keep: [ItemID] = []
        var slotsToStart: [ImageSlot] = []
        var isFlinging = false
        var update = ListPrefetchUpdate<ItemID>()
    }

    /// Under the lock: the items to prefetch (as many as the memory budget allows), to keep, and to give up.
    private func plan(_ state: inout State, at time: Duration, costLimit: Int?) -> Plan {
        let controller = state.controller
        let snapshot = state.snapshot
        var plan = Plan()
        plan.isFlinging = controller.isFlinging
        let visible = controller.visible
        let limit = state.budget.prefetchLimit(visibleCount: visible.count, costLimit: costLimit)
        let wish = PrefetchMemoryBudget.bound(controller.desiredRows, to: limit, isFlinging: plan.isFlinging)
        plan.wish = wish.map { snapshot.items[$0] }
        let window = controller.keptRows(margin: keepMargin(for: controller), desired: wish)
        // Items a fling passed stop at once, freeing connections for where it rests, unless loads are quicker than
        // the cancellation delay.
        let stopsPassedRows = controller.isFlinging && controller.latency >= configuration.cancellationDelay
        func passed(_ row: Int) -> Bool {
            stopsPassedRows && (controller.velocity > 0 ? row < visible.lowerBound : row >= visible.upperBound)
        }
        var tracked: [ItemID: Duration] = [:]
        for item in plan.wish { tracked[item] = time }
        for (item, since) in state.tracked where tracked[item] == nil {
            guard let row = snapshot.positions[item] else {
                plan.update.cancel.append(item)  // gone from the list
                continue
            }
            if window.contains(row) {
                tracked[item] = time
            } else if controller.isOnFirstScreen(row)
                || time - since < configuration.cancellationDelay && !passed(row) && !controller.jumpedToAnEnd
            {
                tracked[item] = since
            } else {
                plan.update.cancel.append(item)
            }
        }
        func position(_ item: ItemID) -> Int { snapshot.positions[item] ?? .max }
        let wished = Set(plan.wish)
        plan.keep = tracked.keys.filter { !wished.contains($0) }.sorted { position($0) < position($1) }
        plan.update.prefetch = plan.wish.filter { state.tracked[$0] == nil }
        plan.update.cancel.sort { position($0) < position($1) }
        state.tracked = tracked
        plan.slotsToStart = visible.filter(controller.isWorthLoading)
            .compactMap { state.slots[snapshot.items[$0]]?.slot }
        return plan
    }
}
