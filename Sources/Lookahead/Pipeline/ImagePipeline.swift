// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — ImagePipeline: the public face: memory cache first, then the state machine through the runner.

public import Foundation

/// Loads, decodes, processes and caches images, sharing identical work between requests.
///
/// ```swift
/// let pipeline = ImagePipeline.shared
/// if let image = pipeline.cachedImage(for: request) {
///     show(image)                                   // synchronous, no hop, cheap on every frame
/// } else {
///     let response = try await pipeline.image(for: request)
///     show(response.image)
/// }
/// ```
///
/// Every request first consults the memory cache, synchronously. A miss enters the task graph: one
/// download per URL, one decode per URL and thumbnail, one processing pass per processor chain, each run at
/// the highest priority of the requests waiting on it and cancelled when the last of them leaves. Downloads
/// run at most ``Configuration/dataLoadingConcurrency`` at a time; decoding runs on dedicated threads, at
/// most ``Configuration/decodingConcurrency`` at a time, never on the caller's thread or the cooperative pool.
/// Failed images are never cached; a URL that failed waits before it is loaded again, and requests for it
/// meanwhile fail at once (``Configuration/failureBackoff``).
///
/// - Important: Thread safe. All bookkeeping is one state machine (`ImagePipelineStateMachine`) under one lock,
///   taken once per event; no call blocks on I/O.
public final class ImagePipeline: Sendable {
    /// The shared pipeline with the default configuration.
    public static let shared = ImagePipeline()

    /// The configuration the pipeline was created with.
    public let configuration: Configuration

    /// Every request's bookkeeping; only the runner (`ImagePipeline+Runner.swift`) changes it.
    let state: Locked<ImagePipelineStateMachine>
    /// Task ids are unique in the process, across pipelines.
    private static let nextTaskID = AtomicInt(0)
    /// The URLs that failed recently; `nil` when ``Configuration/failureBackoff`` is off.
    let failureRecords: FailureRecords?
    let executor: any ImagePipelineExecutor
    /// Disk-cache reads; bounded by the data-loading concurrency, since they run inside data stages.
    let ioQueue = DispatchQueue(label: "Lookahead.ImagePipeline.io", qos: .userInitiated, attributes: .concurrent)
    /// Encodes final images for the disk cache, one at a time (see ``DiskCacheContent``); ``flush()`` drains it.
    let encodeQueue = DispatchQueue(label: "Lookahead.ImagePipeline.encode", qos: .utility)

    /// Creates a pipeline.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.failureRecords = configuration.failureBackoff.map(FailureRecords.init(policy:))
        self.executor = configuration.executor ?? DefaultPipelineExecutor()
        self.state = Locked(
            ImagePipelineStateMachine(
                graph: TaskGraph(
                    dataLoadLimit: configuration.dataLoadingConcurrency,
                    decodeLimit: configuration.decodingConcurrency,
                    backgroundDataLoadLimit: configuration.maximumBackgroundDataLoads
                        ?? max(1, configuration.dataLoadingConcurrency - 2),
                    isCoalescingEnabled: configuration.isCoalescingEnabled
                )
            )
        )
    }

    /// Creates a pipeline, adjusting the default configuration in a closure.
    public convenience init(_ configure: (inout Configuration) -> Void) {
        var configuration = Configuration()
        configure(&configuration)
        self.init(configuration: configuration)
    }

    // MARK: - Loading

    /// Loads an image. Cancelling the calling Swift task cancels the request.
    public func image(for request: ImageRequest) async throws(Error) -> ImageResponse {
        if Task.isCancelled { throw .cancelled }
        if let response = cachedResponse(for: request) { return response }
        // The memory cache was just read: the task starts at the next step.
        let task = makeTask(with: request)
        start(task, readingMemoryCache: false)
        return try await task.response
    }

    /// Loads an image from a URL.
    public func image(for url: URL) async throws(Error) -> ImageResponse {
        try await image(for: ImageRequest(url: url))
    }

    /// Starts loading an image and returns the task, which can be re-prioritised, observed and cancelled.
    public func imageTask(with request: ImageRequest) -> ImageTask {
        let task = makeTask(with: request)
        start(task, readingMemoryCache: true)
        return task
    }

    /// Loads a request's original data — disk cache first, then the data loader, stored in the disk cache —
    /// without decoding it or touching the memory cache. What an ``ImagePrefetcher`` with the `.diskCache`
    /// destination uses. Cancelling the calling Swift task cancels it.
    ///
    /// Loaded data must pass ``ImageDecoders/validateStructure(_:decoders:)`` (a decoder recognises it and it is
    /// complete) before it is stored or returned; otherwise the request fails with that error and nothing is stored.
    public func data(for request: ImageRequest) async throws(Error) -> DataResponse {
        if Task.isCancelled { throw .cancelled }
        let task = DataTask(id: Self.nextTaskID.add(1), request: request)
        if request.url == nil { throw .invalidURL(nil) }
        if let error = failureBackoffError(for: request) { throw error }
        guard let actions = state.withLock({ $0.submit(task, dataOnly: true) }) else { throw .pipelineInvalidated }
        perform(actions)
        let result = await withTaskCancellationHandler {
            await task.wait()
        } onCancel: {
            task.resolve(.failure(.cancelled))
            self.taskCancelled(task)
        }
        if case .success(let response) = result, response.cacheType == nil { loadedNetworkData(of: request) }
        return try result.get()
    }

    // MARK: - Memory cache

    /// The image in the memory cache for a request, if any: a synchronous lookup with no hop, cheap enough to
    /// call for every cell on every frame. Respects ``ImageRequest/Options/disableMemoryCacheReads``.
    public func cachedImage(for request: ImageRequest) -> PlatformImage? {
        guard !request.options.contains(.disableMemoryCacheReads),
            !request.options.contains(.reloadIgnoringCachedData)
        else { return nil }
        return configuration.memoryCache?[request.imageKey]
    }

    /// What a view shows for a request from the memory cache: an animation as the platform plays it (see
    /// ``ImageResponse/displayImage``), else the image. Respects the same options as ``cachedImage(for:)``.
    package func cachedDisplayImage(for request: ImageRequest) -> PlatformImage? {
        guard !request.options.contains(.disableMemoryCacheReads),
            !request.options.contains(.reloadIgnoringCachedData),
            let entry = configuration.memoryCache?.entry(for: request.imageKey)
        else { return nil }
        return entry.animation?.platformAnimation ?? entry.image
    }

    /// Stores an image in the memory cache under a request's key.
    public func storeCachedImage(_ image: PlatformImage, for request: ImageRequest) {
        configuration.memoryCache?.store(image, for: request.imageKey)
    }

    /// Removes the image for a request from the memory cache.
    public func removeCachedImage(for request: ImageRequest) {
        configuration.memoryCache?.removeImage(for: request.imageKey)
    }

    // MARK: - Invalidation

    /// Cancels every request with ``ImagePipelineError/pipelineInvalidated``; later requests fail the same way.
    public func invalidate() {
        run { $0.invalidate() }
    }

    // MARK: - Testing

    /// Tasks, stages and operations still alive (including cancelled work that has not stopped yet).
    package var liveTaskCount: Int { state.withLock { $0.liveCount } }

    /// Suspends until nothing is alive: every task finished and every operation stopped.
    package func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !state.withLock({ $0.waitUntilIdle(continuation) }) { continuation.resume() }
        }
    }

    /// Reads the graph under the lock.
    package func inspectGraph<R>(_ body: (TaskGraph) -> R) -> R {
        state.withLock { body($0.graph) }
    }

    // MARK: - Starting

    private func cachedResponse(for request: ImageRequest) -> ImageResponse? {
        guard !request.options.contains(.disableMemoryCacheReads),
            !request.options.contains(.reloadIgnoringCachedData),
            let entry = configuration.memoryCache?.entry(for: request.imageKey)
        else { return nil }
        configuration.eventHandler?(.memoryCacheHit(request))
        return ImageResponse(image: entry.image, request: request, cacheType: .memory, animation: entry.animation)
    }

    /// For a request with processors that missed the memory cache: the image in the memory cache for the longest
    /// prefix of its processors (down to none: the decoded image), so only the processors after it run — with no
    /// download and no decode. As in Nuke, a request for `[p1, p2, p3]` after one for `[p1, p2]` runs only `p3`.
    private func processingSeed(for request: ImageRequest) -> TaskGraph.Seed? {
        guard !request.processors.isEmpty, let memoryCache = configuration.memoryCache,
            !request.options.contains(.disableMemoryCacheReads),
            !request.options.contains(.reloadIgnoringCachedData)
        else { return nil }
        let identifiers = request.imageKey.processors
        for count in stride(from: identifiers.count - 1, through: 0, by: -1) {
            let key = ImageCacheKey(
                url: request.urlString,
                thumbnail: request.thumbnail,
                processors: Array(identifiers.prefix(count)),
                isAnimated: request.isAnimated
            )
            if let entry = memoryCache.entry(for: key) {
                return TaskGraph.Seed(
                    processorCount: count,
                    output: TaskGraph.Output(
                        image: entry.image,
                        response: nil,
                        cacheType: .memory,
                        animation: entry.animation
                    )
                )
            }
        }
        return nil
    }

    private func makeTask(with request: ImageRequest) -> ImageTask {
        ImageTask(id: Self.nextTaskID.add(1), request: request, pipeline: self)
    }

    /// Answers from the memory cache when allowed, fails at once what cannot load, and submits the rest to the
    /// state machine: one lock, taken once.
    private func start(_ task: ImageTask, readingMemoryCache: Bool) {
        let request = task.request
        if request.url == nil {
            task.finish(.failure(.invalidURL(nil)))
            return
        }
        if readingMemoryCache, let response = cachedResponse(for: request) {
            task.finish(.success(response))
            return
        }
        if !request.dataPolicy.loadsFromNetwork, configuration.diskCache == nil || !request.dataPolicy.readsDiskCache {
            task.finish(.failure(.dataMissingInCache))
            return
        }
        // A URL that failed over the network (after missing the disk cache) and still waits fails at once.
        if let error = failureBackoffError(for: request) {
            task.finish(.failure(error))
            return
        }
        let seed = processingSeed(for: request)
        let processedImage = processedImageUse(for: request)
        guard let actions = state.withLock({ $0.submit(task, seed: seed, processedImage: processedImage) }) else {
            task.finish(.failure(.pipelineInvalidated))
            return
        }
        perform(actions)
    }
}
