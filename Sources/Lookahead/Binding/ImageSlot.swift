// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// What a cell's image view shows, and the load behind it, kept correct while the cell is reused. A failure to reach
/// the host loads again by itself when the host answers another download (``ImagePipeline/recoveredHosts``).
public final class ImageSlot: Sendable {
    /// What the cell shows.
    public enum State: CustomStringConvertible {
        /// Nothing configured.
        case empty
        /// Waiting for the image: show the placeholder (and a spinner).
        case loading(ImageRequest)
        /// Still loading, with a preview to show instead of the placeholder: a progressive JPEG's scans so far
        /// (``ImagePipeline/Configuration/isProgressiveDecodingEnabled``).
        case preview(PlatformImage, ImageRequest)
        /// The image, and where it came from.
        case loaded(PlatformImage, ImageRequest, ImageResponse.CacheType?)
        /// The load failed; `retry()` tries again.
        case failed(ImagePipeline.Error, ImageRequest)

        /// The request the state belongs to.
        public var request: ImageRequest? {
            switch self {
            case .empty: nil
            case .loading(let request), .preview(_, let request), .loaded(_, let request, _), .failed(_, let request):
                request
            }
        }

        /// The request of a load still running (`.loading` or `.preview`).
        var loadingRequest: ImageRequest? {
            switch self {
            case .loading(let request), .preview(_, let request): request
            case .empty, .loaded, .failed: nil
            }
        }

        /// The image, when loaded.
        public var image: PlatformImage? {
            if case .loaded(let image, _, _) = self { return image }
            return nil
        }

        public var description: String {
            switch self {
            case .empty: "empty"
            case .loading(let request): "loading \(request.identity)"
            case .preview(let image, let request): "preview \(image) for \(request.identity)"
            case .loaded(let image, let request, let cache):
                "loaded \(image) from \(cache.map { "\($0)" } ?? "network") for \(request.identity)"
            case .failed(let error, let request): "failed \(request.identity): \(error)"
            }
        }
    }

    private struct Inner {
        var state = State.empty
        /// The animation of the image shown, for an animated request.
        var animation: AnimatedImage?
        var generation = 0
        var task: ImageTask?
        /// Set at the first failure to reach a host: the slot then watches host recoveries.
        var isWatchingRecoveries = false
        var recoveryObserver: Int?
        /// The running load is a catch-up, whose failure does not catch up again.
        var isCatchUp = false
        /// The memory-cache key of the image shown, pinned while it is.
        var pinned: ImageCacheKey?

        /// A new configuration: the results of earlier loads no longer apply.
        @discardableResult
        mutating func advance(to state: State, animation: AnimatedImage? = nil, isCatchUp: Bool = false) -> Int {
            generation += 1
            self.isCatchUp = isCatchUp
            self.state = state
            self.animation = animation
            return generation
        }
    }

    /// The pipeline that loads the images.
    public let pipeline: ImagePipeline
    /// The priority of loads for a visible cell.
    public let visiblePriority: ImageRequest.Priority
    private let inner = Locked(Inner())
    private let onChange: @Sendable (State) -> Void
    private let onProgress: (@Sendable (ImageRequest, Int64, Int64?) -> Void)?

    /// A slot whose loads run at `visiblePriority`; `onProgress` receives the current load's download progress on the
    /// loader's thread, `onChange` every new state.
    public init(
        pipeline: ImagePipeline = .shared,
        visiblePriority: ImageRequest.Priority = .high,
        onProgress: (@Sendable (_ request: ImageRequest, _ completed: Int64, _ total: Int64?) -> Void)? = nil,
        onChange: @escaping @Sendable (State) -> Void
    ) {
        self.pipeline = pipeline
        self.visiblePriority = visiblePriority
        self.onProgress = onProgress
        self.onChange = onChange
    }

    deinit {
        let (observer, pinned) = inner.withLock { ($0.recoveryObserver, $0.pinned) }
        if let observer { pipeline.hostRecoveries.removeObserver(observer) }
        if let pinned { pipeline.memoryCache?.unpin(pinned) }
    }

    /// What the cell shows now.
    public var state: State { inner.withLock { $0.state } }

    /// The state and, when it shows an animated request's image, the animation (whose first frame the image is).
    package var stateAndAnimation: (State, AnimatedImage?) { inner.withLock { ($0.state, $0.animation) } }

    /// Shows the image for a request (`nil` clears the slot): at once from memory (or its failure backoff's error),
    /// else `.loading`; the same request again keeps its load. `startsLoading: false` defers it to ``startLoading()``.
    public func configure(with request: ImageRequest?, startsLoading: Bool = true) {
        guard var request else {
            prepareForReuse()
            return
        }
        request.priority = visiblePriority
        let current = state
        if current.request?.imageKey == request.imageKey, current.loadingRequest != nil || current.image != nil {
            if startsLoading { startLoading() }  // a deferred load starts now; a running one goes on
            return
        }
        let cached = pipeline.cachedImageAndAnimation(for: request)
        // A URL in its failure backoff shows its failure at once, like a memory hit.
        let waiting = cached == nil ? pipeline.failureBackoffError(for: request) : nil
        let (previous, generation, state) = inner.withLock { inner -> (ImageTask?, Int, State) in
            let previous = inner.task.take()
            let next = cached.map { State.loaded($0.0, request, .memory) } ?? waiting.map { State.failed($0, request) }
            let generation = inner.advance(to: next ?? .loading(request), animation: cached?.1)
            updatePin(&inner)
            return (previous, generation, inner.state)
        }
        previous?.cancel()
        onChange(state)
        if let waiting { watchForRecovery(after: waiting) }
        guard cached == nil, waiting == nil, startsLoading else { return }
        start(request, generation: generation, readingMemoryCache: false)
    }

    /// Starts the load of a slot configured with `startsLoading: false`; does nothing otherwise.
    public func startLoading() {
        let pending = inner.withLock { inner -> (ImageRequest, Int)? in
            guard inner.task == nil, case .loading(let request) = inner.state else { return nil }
            return (request, inner.generation)
        }
        guard let (request, generation) = pending else { return }
        if let (image, animation) = pipeline.cachedImageAndAnimation(for: request) {
            update(generation: generation) { inner in
                inner.state = .loaded(image, request, .memory)
                inner.animation = animation
                return true
            }
            return
        }
        start(request, generation: generation, readingMemoryCache: false)
    }

    /// The cell is about to show another row (or none): the load for this one stops.
    public func prepareForReuse() {
        detachLoad()?.cancel()
    }

    /// Empties the slot like ``prepareForReuse()``, but hands its running load over to the caller, who must cancel it.
    @discardableResult
    public func detachLoad() -> ImageTask? {
        let task = inner.withLock { inner -> ImageTask? in
            inner.advance(to: .empty)
            updatePin(&inner)
            return inner.task.take()
        }
        onChange(.empty)
        guard let task, task.state == .running else { return nil }
        return task
    }

    /// Loads the failed request again now, without waiting for the URL's failure backoff (configuring it does wait).
    public func retry() {
        guard case .failed(_, var request) = state else { return }
        request.options.insert(.skipFailureBackoff)
        let generation = inner.withLock { $0.advance(to: .loading(request)) }
        onChange(.loading(request))
        start(request, generation: generation)
    }

    // MARK: - Loading

    /// Starts the load of `generation`; `readingMemoryCache: false` when the slot has just read it and missed.
    private func start(_ request: ImageRequest, generation: Int, readingMemoryCache: Bool = true) {
        let task = pipeline.unstartedImageTask(with: request)
        let isCurrent = inner.withLock { inner -> Bool in
            guard inner.generation == generation else { return false }
            inner.task = task
            return true
        }
        guard isCurrent else {
            task.cancel()
            return
        }
        if let onProgress {
            task.onProgress { [weak self] completed, total in
                guard let self, self.inner.withLock({ $0.generation == generation }) else { return }
                onProgress(request, completed, total)
            }
        }
        task.onPreview { [weak self] response in self?.showPreview(response.image, generation: generation) }
        task.onFinish { [weak self] result in self?.complete(result, generation: generation) }
        pipeline.start(task, readingMemoryCache: readingMemoryCache)
    }

    /// Shows a preview while the current configuration still loads.
    private func showPreview(_ image: PlatformImage, generation: Int) {
        let shown = update(generation: generation) { inner in
            guard let request = inner.state.loadingRequest else { return false }
            inner.state = .preview(image, request)
            return true
        }
        guard shown != nil else { return }
        // The final image may have landed meanwhile: the last state reported must never be a stale preview.
        let now = inner.withLock { inner -> State? in
            guard inner.generation == generation else { return nil }
            if case .preview = inner.state { return nil }
            return inner.state
        }
        if let now { onChange(now) }
    }

    /// Pins the image shown in the memory cache and unpins the previous one, under the lock so pins keep state order.
    private func updatePin(_ inner: inout Inner) {
        guard let cache = pipeline.memoryCache else { return }
        let key: ImageCacheKey? =
            if case .loaded(_, let request, _) = inner.state { pipeline.memoryCacheKey(for: request) } else { nil }
        guard key != inner.pinned else { return }
        if let key { cache.pin(key) }
        if let pinned = inner.pinned { cache.unpin(pinned) }
        inner.pinned = key
    }

    /// Applies a result only if it belongs to the current configuration.
    private func complete(_ result: Result<ImageResponse, ImagePipeline.Error>, generation: Int) {
        let state = update(generation: generation) { inner in
            guard let request = inner.state.loadingRequest else { return false }
            inner.task = nil
            switch result {
            case .success(let response):
                inner.state = .loaded(response.image, request, response.cacheType)
                inner.animation = response.animation
            case .failure(.cancelled):
                return false
            case .failure(let error):
                inner.state = .failed(error, request)
            }
            return true
        }
        guard case .failed(let error, let request)? = state, FailureBackoffStateMachine.isUnreachable(error) else {
            return
        }
        watchForRecovery(after: error)
        // The host answered another download while this load was failing: reload once.
        if let host = request.url?.host, let records = pipeline.failureRecords, !records.isUnreachable(host) {
            hostRecovered(host, isCatchUp: true)
        }
    }

    /// Changes the state if `generation` is still the current configuration and `change` says so, then pins the
    /// image shown and reports the new state.
    @discardableResult
    private func update(generation: Int, _ change: (inout Inner) -> Bool) -> State? {
        let state = inner.withLock { inner -> State? in
            guard inner.generation == generation, change(&inner) else { return nil }
            updatePin(&inner)
            return inner.state
        }
        if let state { onChange(state) }
        return state
    }

    // MARK: - Recovery

    /// After a failure to reach a host, observes the pipeline's host recoveries: once, for the slot's lifetime.
    private func watchForRecovery(after error: ImagePipeline.Error) {
        guard FailureBackoffStateMachine.isUnreachable(error) else { return }
        let isWatching = inner.withLock { inner -> Bool in
            defer { inner.isWatchingRecoveries = true }
            return inner.isWatchingRecoveries
        }
        guard !isWatching else { return }
        let id = pipeline.hostRecoveries.addObserver { [weak self] host in self?.hostRecovered(host) }
        inner.withLock { $0.recoveryObserver = id }
    }

    /// A host answers again: a failure to reach it that the slot shows loads again.
    private func hostRecovered(_ host: String, isCatchUp: Bool = false) {
        let reload = inner.withLock { inner -> (ImageRequest, Int)? in
            guard case .failed(let error, let request) = inner.state, request.url?.host == host,
                FailureBackoffStateMachine.isUnreachable(error), !(isCatchUp && inner.isCatchUp)
            else { return nil }
            return (request, inner.advance(to: .loading(request), isCatchUp: isCatchUp))
        }
        guard let (request, generation) = reload else { return }
        onChange(.loading(request))
        start(request, generation: generation)
    }
}

#if LOOKAHEAD_NONSENDABLE_IMAGE
// SAFETY: as for `ImageResponse`: the image is one the pipeline made and never mutates.
extension ImageSlot.State: @unchecked Sendable {}
#else
extension ImageSlot.State: Sendable {}
#endif
