// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Loads images ahead of time, so they are ready when their rows appear.
///
/// - At most ``maxConcurrentRequestCount`` run at once, at ``priority``, in order, in part of the download slots
///   (``ImagePipeline/Configuration/maximumBackgroundDataLoads``). What is in the memory cache, being fetched, or in
///   its failure backoff is skipped. A UI request for an image being prefetched joins its download.
/// - Starting waits for the caller's turn to end, so a start followed by a stop in the same call sequence starts
///   nothing. Releasing the prefetcher stops everything it started.
/// - Thread safe; every method returns at once. `.diskCache` destination: only the data is loaded and stored on disk.
public final class ImagePrefetcher: Sendable {
    /// Where prefetched images end up.
    public enum Destination: Sendable {
        /// Decoded, in the memory cache (and the data in the disk cache).
        case memoryCache
        /// Only the original data, in the disk cache.
        case diskCache
    }

    /// A running prefetch: its work, and the image task when there is one (for priority changes).
    struct Running: Sendable {
        let work: OperationToken
        let imageTask: ImageTask?
        let request: ImageRequest
    }

    private struct State {
        var queue: PrefetchQueue<ImageCacheKey, Running>
        var priority = ImageRequest.Priority.low
        var isDrainScheduled = false
    }

    /// The pipeline that loads the images.
    public let pipeline: ImagePipeline
    /// Where prefetched images end up.
    public let destination: Destination
    /// The most prefetches that run at once.
    public let maxConcurrentRequestCount: Int
    private let state: Locked<State>
    private let schedule: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// How a turn begins when the caller runs no run loop.
    private let scheduleLater: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let observer: (@Sendable (Activity) -> Void)?

    /// What a prefetch did, for an observer that measures (a ``ListPrefetcher`` learns load latency from it).
    @_spi(Simulation)
    public enum Activity: Sendable {
        /// A prefetch started loading.
        case started(ImageRequest)
        /// A started prefetch ended.
        case finished(ImageRequest, succeeded: Bool)
        /// A prefetch (or an adopted load) ended with an image of this decoded cost, just before its `finished`.
        case decoded(ImageRequest, cost: Int)
    }

    /// Creates a prefetcher.
    public convenience init(
        pipeline: ImagePipeline = .shared,
        destination: Destination = .memoryCache,
        maxConcurrentRequestCount: Int = 2
    ) {
        let queue = DispatchQueue(label: "Lookahead.ImagePrefetcher")
        self.init(
            pipeline: pipeline,
            destination: destination,
            maxConcurrentRequestCount: maxConcurrentRequestCount,
            scheduler: { work in queue.async(execute: work) },
            // A thread woken at once could start a request before the caller's next call stops it.
            laterScheduler: { work in queue.asyncAfter(deadline: .now() + .milliseconds(2), execute: work) }
        )
    }

    /// A prefetcher whose deferred work runs through `scheduler`, reporting to `observer`; `laterScheduler` (by
    /// default `scheduler`) begins the turns of a caller with no run loop.
    @_spi(Simulation)
    public init(
        pipeline: ImagePipeline,
        destination: Destination,
        maxConcurrentRequestCount: Int,
        scheduler: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        laterScheduler: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil,
        observer: (@Sendable (Activity) -> Void)? = nil
    ) {
        self.observer = observer
        self.pipeline = pipeline
        self.destination = destination
        self.maxConcurrentRequestCount = max(1, maxConcurrentRequestCount)
        self.state = Locked(State(queue: PrefetchQueue(limit: max(1, maxConcurrentRequestCount))))
        self.schedule = scheduler
        self.scheduleLater = laterScheduler ?? scheduler
    }

    deinit {
        stopPrefetching()
    }

    // MARK: - Starting and stopping

    /// Starts prefetching images for URLs, in order.
    public func startPrefetching(with urls: [URL]) {
        startPrefetching(with: urls.map { ImageRequest(url: $0) })
    }

    /// Starts prefetching images for requests, in order. Their priority is replaced by ``priority``.
    public func startPrefetching(with requests: [ImageRequest]) {
        let items = requests.map { (key: key(for: $0), request: $0) }
        scheduleTurn(state.withLock { $0.queue.enqueue(items) })
    }

    /// Prefetches exactly these requests, in this order (a wish list re-ranked every frame): running requests still
    /// listed go on, the others are cancelled.
    ///
    /// - Parameters:
    ///   - requests: What to prefetch, most wanted first.
    ///   - keeping: Requests that go on if already running but do not start (rows a little beyond the window).
    /// - Returns: The running prefetches this cancelled.
    @discardableResult
    public func prefetch(_ requests: [ImageRequest], keeping: [ImageRequest] = []) -> [ImageRequest] {
        let items = requests.map { (key: key(for: $0), request: $0) }
        let kept = Set(keeping.map(key(for:)))
        let (cancelled, turn) = state.withLock { state in
            (state.queue.replace(with: items, keeping: kept), state.queue.lastTurn)
        }
        for running in cancelled { cancel(running) }
        scheduleTurn(turn)
        return cancelled.map(\.request)
    }

    /// Stops prefetching images for URLs: queued ones are dropped, running ones cancelled.
    public func stopPrefetching(with urls: [URL]) {
        stopPrefetching(with: urls.map { ImageRequest(url: $0) })
    }

    /// Stops prefetching images for requests: queued ones are dropped, running ones cancelled.
    public func stopPrefetching(with requests: [ImageRequest]) {
        let keys = requests.map(key(for:))
        for running in state.withLock({ $0.queue.remove(keys) }) { cancel(running) }
    }

    /// Stops all prefetching.
    public func stopPrefetching() {
        for running in state.withLock({ $0.queue.removeAll() }) { cancel(running) }
    }

    /// Takes over a running image task (a reused cell's load whose row is still near) at prefetch priority.
    public func adopt(_ task: ImageTask) {
        let key = key(for: task.request)
        let running = Running(work: OperationToken(), imageTask: task, request: task.request)
        let (adopted, priority) = state.withLock { ($0.queue.adopt(key, handle: running), $0.priority) }
        guard adopted else {
            task.cancel()  // this prefetcher already loads it; that load keeps the download alive
            return
        }
        task.priority = priority
        task.onFinish { [weak self] result in
            self?.finish(key, running, result: result.map(\.decodedCost))
        }
    }

    /// While paused, running prefetches finish but no new ones start.
    public var isPaused: Bool {
        get { state.withLock { $0.queue.isPaused } }
        set { if update({ $0.queue.isPaused = newValue }) { schedule { [weak self] in self?.drain() } } }
    }

    /// The priority of prefetches, `.low` by default. A change reaches the ones already running.
    public var priority: ImageRequest.Priority {
        get { state.withLock { $0.priority } }
        set {
            let running = state.withLock { state -> [Running] in
                state.priority = newValue
                return state.queue.runningHandles
            }
            for item in running { item.imageTask?.priority = newValue }
        }
    }

    /// Requests waiting to start and running, for tests and diagnostics.
    package var counts: (pending: Int, running: Int) {
        state.withLock { ($0.queue.pending.count, $0.queue.running.count) }
    }

    /// The requests running, in the order they started, for tests and diagnostics.
    package var runningRequests: [ImageRequest] {
        state.withLock { $0.queue.runningHandles.map(\.request) }
    }

    // MARK: - Work

    private func key(for request: ImageRequest) -> ImageCacheKey {
        destination == .memoryCache ? request.imageKey : request.dataKey
    }

    /// Changes the state; returns whether to schedule a drain (something to start, and none scheduled yet).
    private func update(_ body: (inout State) -> Void) -> Bool {
        state.withLock { state in
            body(&state)
            guard !state.isDrainScheduled, !state.queue.isPaused, !state.queue.pending.isEmpty else { return false }
            state.isDrainScheduled = true
            return true
        }
    }

    /// Begins the caller's turn on its run loop's next pass, so nothing starts what the caller stops before it
    /// returns to its loop; without a run loop, a moment later.
    private func scheduleTurn(_ turn: Int) {
        let begin: @Sendable () -> Void = { [weak self] in self?.begin(turn) }
        let runLoop = RunLoop.current
        guard runLoop.currentMode != nil else { return scheduleLater(begin) }
        let schedule = schedule
        if Thread.isMainThread {
            // The main queue never runs inside the caller's callout, and it wakes a loop about to sleep.
            DispatchQueue.main.async { schedule(begin) }
        } else {
            runLoop.perform(inModes: [.common]) { schedule(begin) }
        }
    }

    /// The turn of a start or a wish list begins: what it added may start now.
    private func begin(_ turn: Int) {
        state.withLock { $0.queue.beginTurn(turn) }
        drain(isScheduledDrain: false)
    }

    /// Starts what the queue allows; requests with nothing to do free their slot for the next ones at once.
    private func drain(isScheduledDrain: Bool = true) {
        var clearsSchedule = isScheduledDrain
        while true {
            let (starts, priority) = state.withLock { state in
                if clearsSchedule { state.isDrainScheduled = false }
                return (state.queue.next(), state.priority)
            }
            clearsSchedule = false
            guard !starts.isEmpty, start(starts, priority: priority) else { return }
        }
    }

    /// Starts requests taken from the queue; returns whether some were skipped (and freed their slot).
    private func start(_ starts: [(key: ImageCacheKey, request: ImageRequest)], priority: ImageRequest.Priority)
        -> Bool
    {
        var skipped = false
        for (key, var request) in starts {
            request.priority = priority
            if destination == .memoryCache && pipeline.cachedImage(for: request) != nil
                || pipeline.isInFailureBackoff(request)
            {
                state.withLock { $0.queue.finished(key) { $0 == nil } }  // nothing to do: free the slot
                skipped = true
                continue
            }
            // Recorded before it starts: a stop from now on cancels it, and a task cancelled unstarted loads nothing.
            let imageTask = destination == .memoryCache ? pipeline.unstartedImageTask(with: request) : nil
            let running = Running(work: OperationToken(), imageTask: imageTask, request: request)
            guard state.withLock({ $0.queue.attach(running, to: key) }) else { continue }  // stopped meanwhile
            observer?(.started(request))
            if let imageTask {
                imageTask.onFinish { [weak self] result in
                    self?.finish(key, running, result: result.map(\.decodedCost))
                }
                pipeline.start(imageTask)
            } else {
                running.work.attach(
                    Task { [weak self, pipeline, request] in
                        do throws(ImagePipeline.Error) {
                            _ = try await pipeline.data(for: request)
                            self?.finish(key, running, result: .success(nil))
                        } catch {
                            self?.finish(key, running, result: .failure(error))
                        }
                    }
                )
            }
        }
        return skipped
    }

    private func cancel(_ running: Running) {
        running.work.cancel()
        running.imageTask?.cancel()
    }

    /// Frees the slot of `running` and schedules the next turn; a success carries the image's decoded cost, if any.
    private func finish(_ key: ImageCacheKey, _ running: Running, result: Result<Int?, ImagePipeline.Error>) {
        let shouldDrain = update { $0.queue.finished(key) { entry in entry?.work === running.work } }
        let request = running.request
        switch result {
        case .success(let cost):
            if let cost { observer?(.decoded(request, cost: cost)) }
            observer?(.finished(request, succeeded: true))
        case .failure:
            observer?(.finished(request, succeeded: false))
        }
        if shouldDrain { schedule { [weak self] in self?.drain() } }
    }
}
