// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The images of a scrolling list: the cells' ``ImageSlot``s by row, and the prefetch window around them. What a
/// ``ListPrefetcher`` drives, and what a program that draws its own cells (from any thread) uses directly.
///
/// - A memory hit shows in the `bind` call; a miss loads at visible priority, unless the list is flinging
///   (``isFlinging``): the cell then shows its placeholder and loads once the scroll slows.
/// - Unbinding does not cancel: the load becomes a prefetch, and the window decides its fate.
/// - Rows a little beyond the window (``Configuration/keepMargin``) keep their downloads, and a download no longer
///   wanted goes on for ``Configuration/cancellationDelay``; the first screen's downloads are always kept.
/// - The window grows with the measured load latency, within what the memory cache can keep beside the visible rows
///   (``Configuration/memoryBudgetFraction``).
///
/// - Important: Thread safe, but meant to be driven from the list's thread; every call returns at once.
public final class ListImageSlots: Sendable {
    /// Tuning; the defaults suit a phone-sized list of images.
    public struct Configuration: Sendable {
        /// How the prefetch window follows the scroll.
        public var window = ListPrefetchWindow()
        /// Rows beyond the prefetch window (on either side) whose running downloads go on; none start there.
        /// `nil`: half a viewport, at least two rows.
        public var keepMargin: Int?
        /// How long a download no longer wanted goes on before it is cancelled, so a scroll that turns back finds
        /// it running. Rows a fling has passed (when loads take longer than this) and rows a jump to the top or the
        /// end left are cancelled at once.
        public var cancellationDelay = Duration.milliseconds(400)
        /// The most prefetches that run at once (demoted cell loads come on top).
        public var maximumConcurrentPrefetches = 6
        /// The share of the memory cache's cost limit the visible rows and the window may take together, so
        /// prefetches evict neither the images on screen nor each other; `nil`: no bound.
        public var memoryBudgetFraction: Double? = 0.75

        /// The default configuration.
        public init() {}
    }

    private struct State {
        var controller: ListPrefetchController
        /// The slot bound to each row on screen, and the image key it shows.
        var slots: [Int: ImageSlot] = [:]
        var keys: [Int: ImageCacheKey] = [:]
        /// Rows whose downloads may be running, and when each was last wished for or near the window.
        var tracked: [Int: Duration] = [:]
        /// When each running prefetch started, for the latency feedback.
        var started: [ImageCacheKey: Duration] = [:]
        var budget: PrefetchMemoryBudget
    }

    /// The pipeline that loads the images.
    public let pipeline: ImagePipeline
    /// The tuning.
    public let configuration: Configuration
    /// The prefetcher that loads the rows ahead.
    public let prefetcher: ImagePrefetcher
    private let shared: Shared
    private let now: @Sendable () -> Duration

    /// Creates the slots of a list of `itemCount` rows.
    public convenience init(
        pipeline: ImagePipeline = .shared,
        itemCount: Int,
        configuration: Configuration = Configuration()
    ) {
        let clock = ContinuousClock()
        let start = clock.now
        let queue = DispatchQueue(label: "Lookahead.ListImageSlots.prefetch")
        self.init(
            pipeline: pipeline,
            itemCount: itemCount,
            configuration: configuration,
            now: { start.duration(to: clock.now) },
            prefetchScheduler: { work in queue.async(execute: work) }
        )
    }

    /// Creates the slots of a list on the caller's clock (`now`: the time since any fixed start), whose prefetcher
    /// runs its turns through `prefetchScheduler`: for tests and the scroll simulation.
    @_spi(Simulation)
    public init(
        pipeline: ImagePipeline,
        itemCount: Int,
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
                controller: ListPrefetchController(itemCount: itemCount, configuration: window),
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
                case .finished(let request, let succeeded, _):
                    let waiting = shared.state.withLock { state -> [ImageSlot] in
                        guard let start = state.started.removeValue(forKey: request.imageKey), succeeded else {
                            return []
                        }
                        state.controller.recordLoadLatency(now() - start)
                        // A cell bound during a fling, which did not load, shows the image now.
                        return state.keys.compactMap { row, key in key == request.imageKey ? state.slots[row] : nil }
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
    @_spi(Simulation) public var controller: ListPrefetchController { shared.state.withLock { $0.controller } }

    /// The bound rows showing an image that the memory cache no longer holds, and those images' cost.
    @_spi(Benchmarks) public var shownButEvicted: (count: Int, cost: Int) {
        let slots = shared.state.withLock { Array($0.slots.values) }
        let cached = Set(pipeline.memoryCache?.keysByRecency ?? [])
        let evicted = slots.compactMap { slot -> PlatformImage? in
            guard case .loaded(let image, let request, _) = slot.state else { return nil }
            return cached.contains(pipeline.memoryCacheKey(for: request)) ? nil : image
        }
        return (evicted.count, evicted.reduce(0) { $0 + $1.decodedCost })
    }

    /// The most rows the window may hold now, from the memory budget (``Configuration/memoryBudgetFraction``);
    /// `nil` while nothing bounds it.
    public var prefetchLimit: Int? {
        let costLimit = pipeline.configuration.memoryCache?.costLimit
        return shared.state.withLock { state in
            state.budget.prefetchLimit(visibleCount: state.controller.visible.count, costLimit: costLimit)
        }
    }

    /// Whether the list flings: too fast for visible rows to load before they leave.
    public var isFlinging: Bool { shared.state.withLock { $0.controller.isFlinging } }

    /// The list now has `count` rows.
    @discardableResult
    public func itemCountChanged(_ count: Int, requests: (Int) -> ImageRequest?) -> ListPrefetchUpdate {
        update(requests: requests) { $0.itemCountChanged(count) }
    }

    /// The visible rows changed: moves the prefetch window, updates the prefetcher, and, once the scroll is slow
    /// enough, starts the loads of visible cells bound during a fling.
    ///
    /// - Parameters:
    ///   - rows: The rows on screen.
    ///   - position: Where the top of the viewport is, in rows (`contentOffset.y / rowHeight`), when known.
    ///   - isDecelerating: Whether the list coasts after the finger lifted (`UIScrollView.isDecelerating`), when
    ///     known: a fling is then predicted from its first frame, and a drag is never taken for one.
    ///   - requests: The image request of a row; asked for the rows of the window, during this call.
    @discardableResult
    public func visibleRowsChanged(
        _ rows: Range<Int>,
        position: Double? = nil,
        isDecelerating: Bool? = nil,
        requests: (Int) -> ImageRequest?
    ) -> ListPrefetchUpdate {
        let time = now()
        return update(requests: requests) {
            $0.visibleRangeChanged(rows, at: time, position: position, isDecelerating: isDecelerating)
        }
    }

    /// A cell shows `row`: its slot shows a memory hit at once, else loads (when a fling slows down), joining a
    /// prefetch already running for the row.
    public func bind(row: Int, request: ImageRequest?, to slot: ImageSlot) {
        let (previous, startsLoading) = shared.state.withLock { state in
            state.keys[row] = request?.imageKey
            if let request, state.budget.estimatedCost == nil { state.budget.record(request: request) }
            return (state.slots.updateValue(slot, forKey: row), state.controller.isWorthLoading(row))
        }
        if let previous, previous !== slot { release(previous) }
        slot.configure(with: request, startsLoading: startsLoading)
    }

    /// The cell that showed `row` no longer does. Its load is not cancelled: it becomes a prefetch, which the
    /// window keeps while the row is near the screen and cancels once the row is left behind.
    public func unbind(row: Int) {
        let time = now()
        let (slot, isAbandoned) = shared.state.withLock { state -> (ImageSlot?, Bool) in
            state.keys[row] = nil
            guard let slot = state.slots.removeValue(forKey: row) else { return (nil, false) }
            // A row a jump to the top or the end left is not coming back soon: its load stops now.
            let controller = state.controller
            if controller.jumpedToAnEnd, !controller.isOnFirstScreen(row),
                !controller.keptRows(margin: keepMargin(for: controller)).contains(row)
            {
                state.tracked[row] = nil
                return (slot, true)
            }
            if state.tracked[row] == nil { state.tracked[row] = time }
            return (slot, false)
        }
        guard let slot else { return }
        if isAbandoned { slot.prepareForReuse() } else { release(slot) }
    }

    /// Rows beyond the prefetch window, on either side, whose running downloads go on.
    private func keepMargin(for controller: ListPrefetchController) -> Int {
        configuration.keepMargin ?? max(2, controller.visible.count / 2)
    }

    /// Stops everything: every prefetch and every bound cell's load.
    public func stop() {
        let slots = shared.state.withLock { state -> [ImageSlot] in
            defer {
                state.slots.removeAll()
                state.keys.removeAll()
                state.tracked.removeAll()
            }
            return Array(state.slots.values)
        }
        prefetcher.stopPrefetching()
        for slot in slots { slot.prepareForReuse() }
    }

    // MARK: - The window

    private func release(_ slot: ImageSlot) {
        if let task = slot.detachLoad() { prefetcher.adopt(task) }
    }

    /// Applies a change to the controller, then feeds the prefetcher: the wish list to start, the rows to keep.
    private func update(
        requests: (Int) -> ImageRequest?,
        _ change: (inout ListPrefetchController) -> ListPrefetchUpdate
    ) -> ListPrefetchUpdate {
        let time = now()
        let costLimit = pipeline.configuration.memoryCache?.costLimit
        let plan = shared.state.withLock { state in
            _ = change(&state.controller)
            return self.plan(&state, at: time, costLimit: costLimit)
        }
        let wished = plan.wish.compactMap(requests)
        let kept = plan.keep.compactMap(requests)
        // During a fling no visible cell loads: the prefetches, for rows about to show, go first.
        let priority: ImageRequest.Priority = plan.isFlinging ? .normal : .low
        if prefetcher.priority != priority { prefetcher.priority = priority }
        let cancelled = Set(prefetcher.prefetch(wished, keeping: kept).map(\.imageKey))
        for slot in plan.slotsToStart { slot.startLoading() }
        // The log names the rows whose downloads stopped, not every row that left the window.
        var update = plan.update
        update.cancel = update.cancel.filter { row in requests(row).map { cancelled.contains($0.imageKey) } ?? false }
        return update
    }

    /// The state under its lock, shared with the prefetcher's observer (made before `self`).
    private final class Shared: Sendable {
        let state: Locked<State>
        init(_ state: State) { self.state = Locked(state) }
    }

    private struct Plan {
        var wish: [Int] = []
        var keep: [Int] = []
        var slotsToStart: [ImageSlot] = []
        var isFlinging = false
        var update = ListPrefetchUpdate()
    }

    /// Under the lock: the rows to prefetch (as many as the memory budget allows), to keep, and to give up.
    private func plan(_ state: inout State, at time: Duration, costLimit: Int?) -> Plan {
        let controller = state.controller
        var plan = Plan()
        plan.isFlinging = controller.isFlinging
        let visible = controller.visible
        let limit = state.budget.prefetchLimit(visibleCount: visible.count, costLimit: costLimit)
        plan.wish = PrefetchMemoryBudget.bound(controller.desiredRows, to: limit, isFlinging: plan.isFlinging)
        let window = controller.keptRows(margin: keepMargin(for: controller), desired: plan.wish)
        // Rows a fling has passed stop at once, freeing connections for where it rests, unless loads are quicker
        // than the cancellation delay (one let go would likely finish first).
        let stopsPassedRows = controller.isFlinging && controller.latency >= configuration.cancellationDelay
        func passed(_ row: Int) -> Bool {
            stopsPassedRows && (controller.velocity > 0 ? row < visible.lowerBound : row >= visible.upperBound)
        }
        var tracked: [Int: Duration] = [:]
        for row in plan.wish { tracked[row] = time }
        for (row, since) in state.tracked where tracked[row] == nil {
            if window.contains(row) {
                tracked[row] = time
            } else if controller.isOnFirstScreen(row)
                || time - since < configuration.cancellationDelay && !passed(row) && !controller.jumpedToAnEnd
            {
                tracked[row] = since
            } else {
                plan.update.cancel.append(row)
            }
        }
        let wish = Set(plan.wish)
        plan.keep = tracked.keys.filter { !wish.contains($0) }.sorted()
        plan.update.prefetch = plan.wish.filter { state.tracked[$0] == nil }
        plan.update.cancel.sort()
        state.tracked = tracked
        plan.slotsToStart = visible.filter(controller.isWorthLoading).compactMap { state.slots[$0] }
        return plan
    }
}
