// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// Loads, decodes, processes and caches images, sharing identical work between requests.
///
/// Every request first consults the memory cache, synchronously. A miss shares work with the requests for the same
/// image: one download per URL, one decode per thumbnail, one processing pass per processor chain, each run at the
/// highest priority of the requests waiting on it and cancelled when the last of them leaves. Decoding runs on
/// dedicated threads, never on the caller's thread or the cooperative pool. A URL that failed waits before it is
/// loaded again (``Configuration/failureBackoff``).
///
/// - Important: Thread safe; no call blocks on I/O.
public final class ImagePipeline: Sendable {
    /// The shared pipeline with the default configuration.
    public static let shared = ImagePipeline()

    /// The configuration the pipeline was created with.
    public let configuration: Configuration

    package let memoryCache: MemoryCache?
    private let hasImageIDFilter: Bool
    /// The task graph and its workers: where a request goes once it misses the memory cache.
    let runner: PipelineRunner
    /// The URLs that failed recently; `nil` when ``Configuration/failureBackoff`` is off.
    let failureRecords: FailureRecords?
    /// Who is told that a host answers again after failing to (``recoveredHosts``).
    package let hostRecoveries: HostRecoveries
    /// The version of the app's credentials, and the refresh that downloads answered `401` share.
    let credentials: CredentialRefresh
    /// The last task id handed out: ids are unique in the process, across pipelines.
    static let lastTaskID = AtomicInt(0)

    /// Creates a pipeline.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        memoryCache = configuration.memoryCache
        hasImageIDFilter = configuration.imageIDFilter != nil
        hostRecoveries = HostRecoveries()
        failureRecords = configuration.failureBackoff.map { [hostRecoveries] in
            FailureRecords(policy: $0, recoveries: hostRecoveries)
        }
        credentials = CredentialRefresh(refresh: configuration.refreshCredentials)
        runner = PipelineRunner(
            configuration: configuration,
            failureRecords: failureRecords,
            credentials: credentials
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
        let request = identified(request)
        if let response = cachedResponse(for: request) { return response }
        // The memory cache was just read: the task starts at the next step.
        let task = unstartedImageTask(with: request)
        start(task, readingMemoryCache: false)
        return try await task.response
    }

    /// Loads an image from a URL.
    public func image(for url: URL) async throws(Error) -> ImageResponse {
        try await image(for: ImageRequest(url: url))
    }

    /// Starts loading an image and returns the task, which can be re-prioritised, observed and cancelled.
    public func imageTask(with request: ImageRequest) -> ImageTask {
        let task = unstartedImageTask(with: request)
        start(task)
        return task
    }

    /// A task its owner records before it calls ``start(_:readingMemoryCache:)``: cancelled in between, it starts none.
    func unstartedImageTask(with request: ImageRequest) -> ImageTask {
        ImageTask(
            id: Self.lastTaskID.add(1),
            request: identified(request),
            runner: runner,
            metricsHandler: configuration.taskMetricsHandler
        )
    }

    // MARK: - Memory cache

    /// The image in the memory cache for a request, if any: a synchronous lookup, cheap enough for every frame.
    public func cachedImage(for request: ImageRequest) -> PlatformImage? {
        memoryEntry(of: request, key: memoryCacheKey(for: request))?.image
    }

    /// The image in the memory cache for a request and, for a request that asked for one, its animation.
    package func cachedImageAndAnimation(for request: ImageRequest) -> (PlatformImage, AnimatedImage?)? {
        memoryEntry(of: request, key: memoryCacheKey(for: request)).map { ($0.image, $0.animation) }
    }

    /// The memory cache's entry under `key`, if the request may read it and sends the fields its response varies on.
    private func memoryEntry(of request: ImageRequest, key: ImageCacheKey) -> MemoryCache.Entry? {
        guard readsMemoryCache(request), let entry = memoryCache?.entry(for: key) else { return nil }
        guard let http = entry.http, !http.vary.isEmpty else { return entry }
        return http.matches(runner.loadData.requestHeaders(for: request)) ? entry : nil
    }

    /// Stores an image in the memory cache under a request's key.
    public func storeCachedImage(_ image: PlatformImage, for request: ImageRequest) {
        memoryCache?.store(image, for: memoryCacheKey(for: request))
    }

    /// Cancels every request with ``ImagePipeline/Error/pipelineInvalidated``; later requests fail the same way.
    public func invalidate() {
        runner.run { $0.invalidate() }
    }

    // MARK: - Testing

    /// Tasks, stages and operations still alive (cancelled work that has not stopped yet included).
    package var liveTaskCount: Int { runner.inspect { $0.liveCount } }

    /// Suspends until nothing is alive: every task finished and every operation stopped.
    package func waitUntilIdle() async {
        await runner.waitUntilIdle()
    }

    /// The decodes (and processors) running now, cancelled ones not yet stopped included, for benchmarks.
    @_spi(Benchmarks) public var decodesRunning: Int { runner.inspect { $0.decodeQueue.runningCount } }

    /// Reads the graph under the lock.
    package func inspectGraph<R>(_ body: (TaskGraph) -> R) -> R {
        runner.inspect(body)
    }

    // MARK: - Starting

    /// The key the memory cache keeps a request's image under (``Configuration/imageIDFilter`` applied).
    package func memoryCacheKey(for request: ImageRequest) -> ImageCacheKey {
        identified(request).imageKey
    }

    /// The request with the identity ``Configuration/imageIDFilter`` gives its URL, when it has none of its own.
    func identified(_ request: consuming ImageRequest) -> ImageRequest {
        guard hasImageIDFilter, request.imageID == nil, let url = request.url, let filter = configuration.imageIDFilter
        else { return request }
        request.imageID = filter(url)
        return request
    }

    /// Whether a request may read the memory cache.
    private func readsMemoryCache(_ request: ImageRequest) -> Bool {
        !request.options.contains(.disableMemoryCacheReads) && !request.options.contains(.reloadIgnoringCachedData)
    }

    private func cachedResponse(for request: ImageRequest) -> ImageResponse? {
        guard let entry = memoryEntry(of: request, key: request.imageKey) else { return nil }
        configuration.eventHandler?(.memoryCacheHit(request))
        return ImageResponse(
            image: entry.image,
            request: request,
            cacheType: .memory,
            httpResponse: entry.http?.response(url: request.url, now: configuration.diskCachePolicy.now()),
            animation: entry.animation
        )
    }

    /// For a request with processors that missed the memory cache: the cached image of the longest prefix of its
    /// processors (down to none), so only the processors after it run, with no download and no decode.
    private func processingSeed(for request: ImageRequest) -> TaskGraph.Seed? {
        let identifiers = request.imageKey.processors
        guard !identifiers.isEmpty, readsMemoryCache(request), memoryCache != nil else { return nil }
        for count in (0..<identifiers.count).reversed() {
            let key = ImageCacheKey(
                imageID: request.identity,
                thumbnail: request.thumbnail,
                processors: Array(identifiers.prefix(count)),
                isAnimated: request.isAnimated
            )
            guard let entry = memoryEntry(of: request, key: key) else { continue }
            let image = PreparedImage(image: entry.image, response: nil, cacheType: .memory, animation: entry.animation)
            return TaskGraph.Seed(processorCount: count, output: image)
        }
        return nil
    }

    /// Answers from the memory cache when allowed, fails at once what cannot load, and submits the rest to the
    /// task graph. A task already cancelled starts nothing.
    func start(_ task: ImageTask, readingMemoryCache: Bool = true) {
        let request = task.request
        if request.url == nil {
            task.finish(.failure(.invalidURL(nil)))
        } else if readingMemoryCache, let response = cachedResponse(for: request) {
            task.finish(.success(response))
        } else if !request.dataPolicy.loadsFromNetwork,
            configuration.diskCache == nil || !request.dataPolicy.readsDiskCache
        {
            task.finish(.failure(.dataMissingInCache))
        } else if let error = failureRecords?.check(request) {
            // A URL that failed over the network (after missing the disk cache) and still waits fails at once.
            task.finish(.failure(error))
        } else if !runner.submit(task, seed: processingSeed(for: request)) {
            task.finish(.failure(.pipelineInvalidated))
        }
    }
}
