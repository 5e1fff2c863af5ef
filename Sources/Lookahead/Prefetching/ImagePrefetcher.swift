// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Loads images ahead of time, so they are ready when their rows appear.
///
/// ```swift
/// let prefetcher = ImagePrefetcher()
/// func prefetchRows(_ rows: [Int]) { prefetcher.startPrefetching(with: rows.map { urls[$0] }) }
/// func cancelPrefetchingRows(_ rows: [Int]) { prefetcher.stopPrefetching(with: rows.map { urls[$0] }) }
/// ```
///
/// - Requests run at most ``maxConcurrentRequestCount`` at a time (2 by default), at ``priority`` (`.low`),
///   in the order given. What is already in the memory cache, or already being fetched, is skipped, and so is
///   a URL that failed recently and still waits (``ImagePipeline/isInFailureBackoff(_:)``): a wish list
///   re-ranked every frame asks the server again only when the pipeline's backoff allows.
/// - Starting is deferred to the prefetcher's next turn: a start followed by a stop in the same call sequence
///   starts nothing, even when a prefetch finishing meanwhile makes the prefetcher start others in between, or
///   when the stop lands while the prefetcher's queue is starting that very request on another thread. On a
///   thread running a run loop (an app's main thread) the turn begins on the loop's next pass, so this holds
///   however long the caller is preempted between its calls; elsewhere it begins 2 ms later.
/// - When the UI asks the pipeline for an image being prefetched, it joins the download and raises its
///   priority: the download is promoted, never restarted. Prefetches take at most part of the pipeline's
///   download slots (``ImagePipeline/Configuration/maximumBackgroundDataLoads``), so a fling of prefetches
///   never makes an on-screen image wait.
/// - `.diskCache` destination: only the data is loaded and stored on disk; nothing is decoded or kept in
///   memory.
/// - Releasing the prefetcher stops everything it started.
///
/// - Important: Thread safe; every method returns at once.
public final class ImagePrefetcher: Sendable {
    /// Where prefetched images end up.
    public enum Destination: Sendable {
        /// Decoded, in the memory cache (and the data in the disk cache).
        case memoryCache
        /// Only the original data, in the disk cache.
        case diskCache
    }

    /// A running prefetch: the task doing it, and the image task when there is one (for priority changes).
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
    /// How a caller's turn begins when the caller runs no run loop: `schedule`, a moment later.
    private let scheduleLater: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let observer: (@Sendable (Activity) -> Void)?

    /// What a prefetch did, for an observer that measures (``ListImageSlots`` learns load latency from it).
    @_spi(Simulation)
    public enum Activity: Sendable {
        /// A prefetch started loading (it was not in memory and not waiting after a failure).
        case started(ImageRequest)
        /// A started prefetch ended.
        case finished(ImageRequest, succeeded: Bool, cancelled: Bool = false)
        /// A prefetch (or an adopted load) ended with an image of this cost: the bytes of its pixels, what the
        /// memory cache counts. Reported just before its `finished`.
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
            // Woken at once, the queue's thread can take the caller's core before the caller's next call (the
            // kernel favours a thread just woken): a short wait leaves a start followed by a stop to the caller.
            laterScheduler: { work in queue.asyncAfter(deadline: .now() + Self.turnDelay, execute: work) },
            observer: nil
        )
    }

    /// How long a caller's turn waits when the caller runs no run loop: far below any download's latency.
    static let turnDelay = DispatchTimeInterval.milliseconds(2)

    /// Creates a prefetcher whose deferred work runs through `scheduler` (tests pass one they drive), reporting
    /// what it starts and finishes to `observer`.
    @_spi(Simulation)
    public convenience init(
        pipeline: ImagePipeline,
        destination: Destination,
        maxConcurrentRequestCount: Int,
        scheduler: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        observer: (@Sendable (Activity) -> Void)? = nil
    ) {
        self.init(
            pipeline: pipeline,
            destination: destination,
            maxConcurrentRequestCount: maxConcurrentRequestCount,
            scheduler: scheduler,
            laterScheduler: scheduler,
            observer: observer
        )
    }

    private init(
        pipeline: ImagePipeline,
        destination: Destination,
        maxConcurrentRequestCount: Int,
        scheduler: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        laterScheduler: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        observer: (@Sendable (Activity) -> Void)?
    ) {
        self.observer = observer
        self.pipeline = pipeline
        self.destination = destination
        self.maxConcurrentRequestCount = max(1, maxConcurrentRequestCount)
        self.state = Locked(State(queue: PrefetchQueue(limit: max(1, maxConcurrentRequestCount))))
        self.schedule = scheduler
        self.scheduleLater = laterScheduler
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
        let turn = state.withLock { $0.queue.enqueue(items) }
        scheduleTurn(turn)
    }

    /// Prefetches exactly these requests, in this order: what is running and still listed goes on, what is
    /// running and no longer listed is cancelled, the rest waits in this order. The declarative counterpart
    /// of start/stop, for a list's prefetch window, whose wish list is re-ranked every frame.
    ///
    /// - Parameters:
    ///   - requests: What to prefetch, most wanted first.
    ///   - keeping: Requests that are not worth starting but not worth stopping either (rows a little beyond the
    ///     window): those already running go on; none of them start.
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
        let cancelled = state.withLock { $0.queue.remove(keys) }
        for running in cancelled { cancel(running) }
    }

    /// Stops all prefetching.
    public func stopPrefetching() {
        let cancelled = state.withLock { $0.queue.removeAll() }
        for running in cancelled { cancel(running) }
    }

    /// Takes over a running image task — a reused cell's load whose row is still in the prefetch window — at
    /// prefetch priority. It then counts as this prefetcher's: `stopPrefetching(with:)` for its request cancels it.
    public func adopt(_ task: ImageTask) {
        let key = key(for: task.request)
        let work = OperationToken()
        let (adopted, priority) = state.withLock { state in
            (
                state.queue.adopt(key, handle: Running(work: work, imageTask: task, request: task.request)),
                state.priority
            )
        }
        guard adopted else {
            task.cancel()  // this prefetcher already loads it; that load keeps the download alive
            return
        }
        task.priority = priority
        task.onFinish { [weak self] result in
            self?.finish(
                key,
                work: work,
                request: task.request,
                result: result,
                cost: (try? result.get())?.decodedCost
            )
        }
    }

    /// While paused, running prefetches finish but no new ones start.
    public var isPaused: Bool {
        get { state.withLock { $0.queue.isPaused } }
        set {
            let shouldSchedule = state.withLock { state -> Bool in
                state.queue.isPaused = newValue
                return newValue ? false : scheduleDrain(&state)
            }
            if shouldSchedule { schedule { [weak self] in self?.drain() } }
        }
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
        destination == .memoryCache ? request.imageKey : ImageCacheKey(imageID: request.identity)
    }

    private func scheduleDrain(_ state: inout State) -> Bool {
        guard !state.isDrainScheduled, !state.queue.isPaused, !state.queue.pending.isEmpty else { return false }
        state.isDrainScheduled = true
        return true
    }

    /// Schedules the beginning of a caller's turn. Called inside a run loop's pass (the main thread of a UIKit,
    /// AppKit or SwiftUI app; any thread running its own loop), the turn waits for the loop's next pass, so no
    /// other thread can start what the caller stops before it returns to its loop — however long it is
    /// preempted. Elsewhere (a Swift task, a thread with no running loop) it goes to the prefetcher's queue after
    /// ``turnDelay``, which a stop made in the same call sequence all but always precedes.
    private func scheduleTurn(_ turn: Int) {
        let begin: @Sendable () -> Void = { [weak self] in self?.begin(turn) }
        let runLoop = RunLoop.current
        guard runLoop.currentMode != nil else { return scheduleLater(begin) }
        let schedule = schedule
        if Thread.isMainThread {
            // The main queue runs when the main loop serves it, never inside the caller's callout, and a block
            // sent there wakes the loop: a call from its last observer before it sleeps (a layout pass) waits for
            // no other event.
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

    /// Starts what the queue allows. Runs on the prefetcher's turn, never inside a caller's call. Requests with
    /// nothing to do (already in memory, or their URL waits after a failure) free their slot at once, and the
    /// next ones are taken in the same turn. Requests whose turn has not begun are left for it.
    package func drain(isScheduledDrain: Bool = true) {
        var isFirstTurn = isScheduledDrain
        while true {
            let (starts, priority) = state.withLock { state in
                if isFirstTurn { state.isDrainScheduled = false }
                return (state.queue.next(), state.priority)
            }
            isFirstTurn = false
            guard !starts.isEmpty, start(starts, priority: priority) else { return }
        }
    }

    /// Starts requests taken from the queue; returns whether some were skipped (and freed their slot).
    private func start(_ starts: [(key: ImageCacheKey, request: ImageRequest)], priority: ImageRequest.Priority)
        -> Bool
    {
        var skipped = false
        for (key, original) in starts {
            var prioritised = original
            prioritised.priority = priority
            let request = prioritised
            if destination == .memoryCache, pipeline.cachedImage(for: request) != nil {
                skip(key)  // already in memory: nothing to do
                skipped = true
                continue
            }
            if pipeline.isInFailureBackoff(request) {
                skip(key)  // failed recently: the pipeline would fail it at once
                skipped = true
                continue
            }
            let work = OperationToken()
            // Recorded before it starts: a stop from now on cancels it, and a task cancelled before it starts
            // loads nothing.
            let imageTask = destination == .memoryCache ? pipeline.unstartedImageTask(with: request) : nil
            let running = Running(work: work, imageTask: imageTask, request: request)
            guard state.withLock({ $0.queue.attach(running, to: key) }) else { continue }  // stopped meanwhile
            observer?(.started(request))
            if let imageTask {
                // No Swift task per prefetch: the image task calls back when it finishes.
                imageTask.onFinish { [weak self] result in
                    let cost = (try? result.get())?.decodedCost
                    self?.finish(key, work: work, request: request, result: result.map { _ in () }, cost: cost)
                }
                pipeline.start(imageTask)
            } else {
                let pipeline = pipeline
                work.attach(
                    Task { [weak self] in
                        let result: Result<Void, ImagePipeline.Error>
                        do throws(ImagePipeline.Error) {
                            _ = try await pipeline.data(for: request)
                            result = .success(())
                        } catch {
                            result = .failure(error)
                        }
                        self?.finish(key, work: work, request: request, result: result)
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

    /// Frees the slot of a request skipped before it had any work; the drain in progress takes the next ones.
    private func skip(_ key: ImageCacheKey) {
        state.withLock { $0.queue.finished(key) { $0 == nil } }
    }

    /// Frees the slot of `work` and schedules the next turn.
    private func finish<Success>(
        _ key: ImageCacheKey,
        work: OperationToken,
        request: ImageRequest,
        result: Result<Success, ImagePipeline.Error>,
        cost: Int? = nil
    ) {
        let shouldSchedule = state.withLock { state -> Bool in
            state.queue.finished(key) { entry in entry?.work === work }
            return scheduleDrain(&state)
        }
        if let cost { observer?(.decoded(request, cost: cost)) }
        switch result {
        case .success: observer?(.finished(request, succeeded: true))
        case .failure(let error): observer?(.finished(request, succeeded: false, cancelled: error.isCancellation))
        }
        if shouldSchedule { schedule { [weak self] in self?.drain() } }
    }
}
