// Lookahead — ImagePipeline: the public face: memory cache first, then the coalescing task graph.

public import Foundation
import Synchronization

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
/// - Important: Thread safe. All bookkeeping is one state machine under one lock; no call blocks on I/O.
public final class ImagePipeline: Sendable {
    /// The shared pipeline with the default configuration.
    public static let shared = ImagePipeline()

    /// The configuration the pipeline was created with.
    public let configuration: Configuration

    struct State {
        var graph: TaskGraph
        var tasks: [Int: any TaskReceiver] = [:]
        var isInvalidated = false
        var idleWaiters: [CheckedContinuation<Void, Never>] = []

        /// Tasks, stages and operations still alive.
        var liveCount: Int { graph.liveCount + tasks.count }
    }

    private let state: Mutex<State>
    private let nextTaskID = Atomic<Int>(0)
    /// The URLs that failed recently; `nil` when ``Configuration/failureBackoff`` is off.
    let failureRecords: FailureRecords?
    private let executor: any ImagePipelineExecutor
    /// Disk-cache reads; bounded by the data-loading concurrency, since they run inside data stages.
    let ioQueue = DispatchQueue(label: "Lookahead.ImagePipeline.io", qos: .userInitiated, attributes: .concurrent)

    /// Creates a pipeline.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.failureRecords = configuration.failureBackoff.map(FailureRecords.init(policy:))
        self.executor = configuration.executor ?? DefaultPipelineExecutor()
        self.state = Mutex(
            State(
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
        return try await imageTask(with: request).response
    }

    /// Loads an image from a URL.
    public func image(for url: URL) async throws(Error) -> ImageResponse {
        try await image(for: ImageRequest(url: url))
    }

    /// Starts loading an image and returns the task, which can be re-prioritised, observed and cancelled.
    public func imageTask(with request: ImageRequest) -> ImageTask {
        let task = ImageTask(
            id: nextTaskID.wrappingAdd(1, ordering: .relaxed).newValue,
            request: request,
            pipeline: self
        )
        start(task)
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
        let task = DataTask(id: nextTaskID.wrappingAdd(1, ordering: .relaxed).newValue, request: request)
        if request.url == nil { throw .invalidURL(nil) }
        if let error = failureBackoffError(for: request) { throw error }
        let effects = state.withLock { state -> Effects? in
            guard !state.isInvalidated else { return nil }
            state.tasks[task.id] = task
            return Self.resolve(state.graph.submit(task: task.id, request: request, dataOnly: true), in: &state)
        }
        guard let effects else { throw .pipelineInvalidated }
        perform(effects)
        let result = await withTaskCancellationHandler {
            await task.wait()
        } onCancel: {
            task.resolve(.failure(.cancelled))
            self.perform(
                self.state.withLock { Self.resolve($0.graph.cancel(task: task.id), in: &$0, removing: task.id) }
            )
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

    /// Stores an image in the memory cache under a request's key.
    public func storeCachedImage(_ image: PlatformImage, for request: ImageRequest) {
        configuration.memoryCache?.store(image, for: request.imageKey)
    }

    /// Removes the image for a request from the memory cache.
    public func removeCachedImage(for request: ImageRequest) {
        configuration.memoryCache?.removeImage(for: request.imageKey)
    }

    // MARK: - Invalidation

    /// Cancels every request with ``Error/pipelineInvalidated``; later requests fail the same way.
    public func invalidate() {
        let effects = state.withLock { state in
            state.isInvalidated = true
            return Self.resolve(state.graph.failAll(with: .pipelineInvalidated), in: &state)
        }
        perform(effects)
    }

    // MARK: - Testing

    /// Tasks, stages and operations still alive (including cancelled work that has not stopped yet).
    package var liveTaskCount: Int { state.withLock { $0.liveCount } }

    /// Suspends until nothing is alive: every task finished and every operation stopped.
    package func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.liveCount == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Reads the graph under the lock.
    package func inspectGraph<R>(_ body: (TaskGraph) -> R) -> R {
        state.withLock { body($0.graph) }
    }

    // MARK: - Starting

    private func cachedResponse(for request: ImageRequest) -> ImageResponse? {
        guard let image = cachedImage(for: request) else { return nil }
        configuration.eventHandler?(.memoryCacheHit(request))
        return ImageResponse(image: image, request: request, cacheType: .memory)
    }

    private func start(_ task: ImageTask) {
        let request = task.request
        task.didStart()
        if request.url == nil {
            task.finish(.failure(.invalidURL(nil)))
            return
        }
        if let response = cachedResponse(for: request) {
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
        let effects = state.withLock { state -> Effects? in
            guard !state.isInvalidated else { return nil }
            state.tasks[task.id] = task
            return Self.resolve(state.graph.submit(task: task.id, request: request), in: &state)
        }
        guard let effects else {
            task.finish(.failure(.pipelineInvalidated))
            return
        }
        perform(effects)
    }

    // MARK: - From tasks

    func taskCancelled(_ task: any TaskReceiver) {
        perform(state.withLock { Self.resolve($0.graph.cancel(task: task.id), in: &$0, removing: task.id) })
    }

    /// Reads the task's priority under the pipeline's lock, so concurrent changes reach the graph in the order
    /// the task saw them: the last one wins in both places.
    func taskPriorityChanged(_ task: ImageTask) {
        perform(state.withLock { Self.resolve($0.graph.setPriority(task.priority, ofTask: task.id), in: &$0) })
    }

    // MARK: - Operations

    func operationProgressed(_ operation: Int, completed: Int64, total: Int64?) {
        perform(
            state.withLock {
                Self.resolve($0.graph.operationProgressed(operation, completed: completed, total: total), in: &$0)
            }
        )
    }

    /// The bytes a running operation has reported so far.
    func operationProgress(_ operation: Int) -> Int64 {
        state.withLock { $0.graph.progress(ofOperation: operation) }
    }

    /// A download has made no progress for a while: it gives its slot to the next queued one.
    func operationStalled(_ operation: Int) {
        perform(state.withLock { Self.resolve($0.graph.operationStalled(operation), in: &$0) })
    }

    private func operationFinished(_ operation: Int, with result: Result<TaskGraph.StageResult, Error>) {
        perform(state.withLock { Self.resolve($0.graph.operationFinished(operation, with: result), in: &$0) })
    }

    func start(operation: Int, token: OperationToken, work: TaskGraph.Work, priority: ImageRequest.Priority) {
        switch work {
        case .load(let request):
            let task = executor.runLoad(priority: Self.taskPriority(priority)) {
                let result = await self.load(request, operation: operation)
                self.operationFinished(operation, with: result.map { .data($0) })
            }
            token.attach(task)
        case .decode(let data, let request):
            executor.runDecode {
                let result: Result<TaskGraph.Output, Error> =
                    token.isCancelled ? .failure(.cancelled) : self.decode(data, for: request)
                self.operationFinished(operation, with: result.map { .image($0) })
            }
        case .process(let input, let request):
            executor.runDecode {
                let result: Result<TaskGraph.Output, Error> =
                    token.isCancelled ? .failure(.cancelled) : self.process(input, for: request)
                self.operationFinished(operation, with: result.map { .image($0) })
            }
        }
    }

    private static func taskPriority(_ priority: ImageRequest.Priority) -> TaskPriority {
        switch priority {
        case .veryLow, .low: .low
        case .normal: .medium
        case .high, .veryHigh: .high
        }
    }
}
