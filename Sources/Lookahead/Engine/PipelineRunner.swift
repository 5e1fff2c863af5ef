// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Runs the task graph: each event (`run { $0.cancel(task: id) }`) takes the lock once and lets the graph decide; the
/// runner performs the actions outside the lock and hands each started operation's work to its worker.
final class PipelineRunner: Sendable {
    private let graph: Locked<TaskGraph>
    /// Also reached by the pipeline: for the header fields a memory hit's Vary is matched against, and `flush()`.
    let loadData: DataLoadWorker
    /// Also checks the data of `data(for:)` requests.
    let decodeWorker: DecodeWorker
    private let process = ProcessWorker()
    let finalImages: FinalImageDiskStore
    private let executor: any ImagePipelineExecutor
    private let memoryCache: MemoryCache?
    /// The clock of HTTP freshness when the memory cache follows it (`memoryCacheFollowsHTTPFreshness`).
    private let memoryFreshnessClock: (@Sendable () -> Date)?
    /// The disk cache whose writes wait while this pipeline decodes.
    private let diskCache: (any DataCaching)?
    private let events: PipelineEventSink

    init(configuration: ImagePipeline.Configuration, failureRecords: FailureRecords?, credentials: CredentialRefresh) {
        let executor = configuration.executor ?? DefaultPipelineExecutor()
        let events = configuration.eventHandler
        // Disk-cache reads; bounded by the data-loading concurrency, since they run inside data loads.
        let ioQueue = DispatchQueue(label: "Lookahead.ImagePipeline.io", qos: .userInitiated, attributes: .concurrent)
        graph = Locked(
            TaskGraph(
                dataLoadLimit: configuration.dataLoadingConcurrency,
                decodeLimit: configuration.decodingConcurrency,
                backgroundDataLoadLimit: configuration.backgroundDataLoadLimit,
                isCoalescingEnabled: configuration.isCoalescingEnabled,
                recordsEvents: events != nil
            )
        )
        loadData = DataLoadWorker(
            configuration: configuration,
            credentials: credentials,
            accept: configuration.advertisesDecodableFormats
                ? ImageDecoders.acceptHeader(for: configuration.decoders) : nil,
            failureRecords: failureRecords,
            ioQueue: ioQueue,
            executor: executor
        )
        decodeWorker = DecodeWorker(
            decoders: configuration.decoders,
            limits: ImageDecodingContext(
                maximumPixelCount: configuration.maximumPixelCount,
                maximumFrameCount: configuration.maximumAnimationFrameCount,
                maximumAnimationPixelCount: configuration.maximumAnimationPixelCount
            ),
            events: events,
            failureRecords: failureRecords
        )
        finalImages = FinalImageDiskStore(
            diskCache: configuration.storesFinalImages ? configuration.diskCache : nil,
            keepsOriginalData: configuration.diskCacheContent == .all,
            decoders: configuration.decoders,
            maximumPixelCount: configuration.maximumPixelCount,
            events: events,
            ioQueue: ioQueue,
            encodeQueue: DispatchQueue(label: "Lookahead.ImagePipeline.encode", qos: .utility),
            executor: executor
        )
        self.executor = executor
        self.memoryCache = configuration.memoryCache
        let policy = configuration.diskCachePolicy
        memoryFreshnessClock =
            policy.kind == .httpSemantics && configuration.memoryCacheFollowsHTTPFreshness ? policy.now : nil
        self.diskCache = configuration.diskCache
        self.events = events
    }

    // MARK: - Events

    /// Runs one event. Downloads it starts are left to the launcher, so the caller (an app's main thread) wakes no
    /// other thread, unless `launchingLoads`: a running operation's thread starts the waiting downloads itself.
    func run(launchingLoads: Bool = false, _ event: (inout TaskGraph) -> TaskGraph.Actions) {
        perform(graph.withLock { event(&$0) }, launchesLoads: launchingLoads)
    }

    /// Submits a task to the graph, with the memory cache's `seed` for a prefix of its processors; `false` when the
    /// pipeline was invalidated (the task is not registered).
    func submit(_ task: any TaskReceiver, dataOnly: Bool = false, seed: TaskGraph.Seed? = nil) -> Bool {
        let processedImage = dataOnly ? nil : finalImages.use(for: task.request)
        let actions = graph.withLock { graph -> TaskGraph.Actions? in
            guard !graph.isInvalidated else { return nil }
            // Checked under the graph's lock: a cancel that ended the task before this point finds nothing to
            // cancel in the graph, so the task must not enter it.
            if task.hasEnded { return TaskGraph.Actions() }
            return graph.submit(
                task: TaskGraph.TaskID(task.id),
                request: task.request,
                dataOnly: dataOnly,
                seed: seed,
                processedImage: processedImage,
                receiver: task
            )
        }
        guard let actions else { return false }
        perform(actions)
        return true
    }

    func inspect<R>(_ body: (TaskGraph) -> R) -> R {
        graph.withLock { body($0) }
    }

    /// Suspends until nothing is alive: every task finished and every operation stopped.
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !graph.withLock({ $0.waitUntilIdle(continuation) }) { continuation.resume() }
        }
    }

    // MARK: - Performing

    /// Performs actions outside the lock: cancels first, then events, deliveries, new work, idle waiters.
    private func perform(_ actions: TaskGraph.Actions, launchesLoads: Bool = false) {
        for token in actions.cancels { token.cancel() }
        for event in actions.events { events?(event) }
        // Queued before the tasks hear of their image, so a `flush()` after a load waits for its entry.
        for store in actions.processedImageStores { finalImages.store(store.image, for: store.request) }
        var stored: [ImageCacheKey] = []
        for (record, delivery) in actions.deliveries {
            guard let task = record.receiver else { continue }
            // A preview is not the image: never stored in the memory cache.
            if case .success(.image(let image)) = delivery { storeOnce(image, for: task.request, in: &stored) }
            task.receive(delivery)
        }
        for start in actions.starts { self.start(start) }
        if launchesLoads, actions.queuesLoads {
            let loads = graph.withLock { $0.takeLoadsWithoutLauncher(unschedulingLauncher: actions.schedulesLauncher) }
            for load in loads { start(load) }
        } else if actions.schedulesLauncher {
            _ = executor.runLoad(priority: .high) { await self.launchPendingLoads() }
        }
        for waiter in actions.idleWaiters { waiter.resume() }
    }

    /// Stores a decoded image in the memory cache once, for the first coalesced task whose request allows it.
    private func storeOnce(_ image: PreparedImage, for request: ImageRequest, in stored: inout [ImageCacheKey]) {
        guard let memoryCache, !request.options.contains(.disableMemoryCacheWrites), !stored.contains(request.imageKey)
        else { return }
        var lifetime: Duration?
        var http: HTTPCacheMetadata?
        if let now = memoryFreshnessClock, let response = image.response {
            // The disk cache's rules, the response judged as if it had just arrived (a disk hit carries its age).
            let date = now()
            let metadata = HTTPCacheMetadata(
                response: response,
                requestHeaders: loadData.requestHeaders(for: request),
                requestTime: date,
                responseTime: date
            )
            guard metadata.isFresh(now: date), let freshUntil = metadata.freshUntil, !metadata.vary.contains("*"),
                !HTTPCacheHeaders(headers: response.headers).forbidsStoring(status: response.statusCode)
            else { return }
            lifetime = .seconds(freshUntil.timeIntervalSince(date))
            http = metadata
        }
        memoryCache.store(
            image.image,
            animation: image.animation,
            for: request.imageKey,
            lifetime: lifetime,
            http: http
        )
        stored.append(request.imageKey)
    }

    /// The launcher: starts the downloads waiting in the graph until none are left, waiting the executor's
    /// ``ImagePipelineExecutor/launchBatchInterval`` after each batch for more.
    private func launchPendingLoads() async {
        while true {
            let loads = graph.withLock { $0.takePendingLoads() }
            if loads.isEmpty { return }
            for load in loads { start(load) }
            if let interval = executor.launchBatchInterval { try? await Task.sleep(for: interval) }
        }
    }

    // MARK: - Work

    /// Hands an operation's work to its worker, on the executor; the operation reports back with `operationFinished`.
    private func start(_ start: TaskGraph.Actions.Start) {
        let operation = start.operation
        switch start.work {
        case .load(var request):
            request.priority = start.priority  // the highest of the requests sharing the download
            let reporter = OperationReporter(operation: operation, sink: self)
            runLoad(start) { [request] in
                let began = ContinuousClock.now
                let result = await self.loadData.run(request, reporter: reporter)
                self.finish(operation, with: result.map { .data($0.measured(since: began)) })
            }
        case .decode(let data, let request):
            runImageWork(start) {
                let result = self.decodeWorker.run(data, for: request)
                if case .failure(let error) = result, DecodeWorker.reloads(after: error, of: data, for: request) {
                    return self.run(launchingLoads: true) { $0.operationFoundInvalidDiskData(operation) }
                }
                self.finish(operation, with: result.map { .image($0) })
            }
        case .process(let input, let request):
            runImageWork(start) {
                self.finish(operation, with: self.process.run(input, for: request).map { .image($0) })
            }
        case .loadProcessedImage(let request):
            runLoad(start) {
                let began = ContinuousClock.now
                switch await self.finalImages.run(request) {
                case .success(var image?):
                    image.metrics.dataLoad = .since(began)
                    self.finish(operation, with: .success(.image(image)))
                case .success(nil): self.run(launchingLoads: true) { $0.operationMissedProcessedImage(operation) }
                case .failure(let error): self.finish(operation, with: .failure(error))
                }
            }
        }
    }

    /// Runs a load as a Swift task at the stage's priority, which the operation's token cancels.
    private func runLoad(_ start: TaskGraph.Actions.Start, _ work: @escaping @Sendable () async -> Void) {
        let priority: TaskPriority =
            switch start.priority {
            case .veryLow, .low: .low
            case .normal: .medium
            case .high, .veryHigh: .high
            }
        start.token.attach(executor.runLoad(priority: priority, work))
    }

    /// Runs a decode or processing on the executor, unless cancelled by then. The disk cache's writes wait while it
    /// runs (and while the next queued one, started before the hold is released): images first, then bytes.
    private func runImageWork(_ start: TaskGraph.Actions.Start, _ work: @escaping @Sendable () -> Void) {
        let (operation, token) = (start.operation, start.token)
        let diskCache = self.diskCache
        diskCache?.holdWrites()
        executor.runDecode {
            if token.isCancelled { self.finish(operation, with: .failure(.cancelled)) } else { work() }
            diskCache?.releaseWrites()
        }
    }

    private func finish(
        _ operation: TaskGraph.OperationID,
        with result: Result<TaskGraph.StageResult, ImagePipeline.Error>
    ) {
        run(launchingLoads: true) { $0.operationFinished(operation, with: result) }
    }
}

// MARK: - Reports of running operations

extension PipelineRunner: OperationReporting {
    func operation(_ operation: TaskGraph.OperationID, reported event: TaskGraph.OperationEvent) {
        // A stall may free a download slot: that download starts from this, the pipeline's own thread.
        let isStall = if case .stalled = event { true } else { false }
        run(launchingLoads: isStall) { $0.operation(operation, reported: event) }
    }

    func operationMayAnswerFromDisk(_ operation: TaskGraph.OperationID) -> Bool {
        graph.withLock { $0.operationMayAnswerFromDisk(operation) }
    }

    func progress(ofOperation operation: TaskGraph.OperationID) -> Int64 {
        inspect { $0.operations[operation]?.completedBytes ?? 0 }
    }
}

/// Where an ``ImagePipeline`` runs the work of its stages: by default downloads as Swift tasks and decoding on
/// dedicated threads; a simulation runs both in virtual time (`lookahead-bench scroll`). Not API for apps.
@_spi(Simulation)
public protocol ImagePipelineExecutor: Sendable {
    /// Runs a download stage; the pipeline cancels the returned task when no request wants the download any more.
    func runLoad(priority: TaskPriority, _ work: @escaping @Sendable () async -> Void) -> Task<Void, Never>

    /// Runs a decoding or processing stage: CPU-bound and synchronous. Never on the caller's thread.
    func runDecode(_ work: @escaping @Sendable () -> Void)

    /// How long the task that starts downloads waits for more before it stops, so a burst shares one wake-up.
    var launchBatchInterval: Duration? { get }
}

extension ImagePipelineExecutor {
    public var launchBatchInterval: Duration? { nil }
}

/// Downloads as Swift tasks at the request's priority; decoding on a concurrent dispatch queue.
struct DefaultPipelineExecutor: ImagePipelineExecutor {
    let decodeQueue = DispatchQueue(label: "Lookahead.ImagePipeline.decode", attributes: .concurrent)

    func runLoad(priority: TaskPriority, _ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task(priority: priority, operation: work)
    }

    func runDecode(_ work: @escaping @Sendable () -> Void) {
        decodeQueue.async(execute: work)
    }

    var launchBatchInterval: Duration? { .milliseconds(1) }
}
