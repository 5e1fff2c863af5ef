// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — the runner: one lock per event on the state machine, then the actions performed outside it.

import Foundation

extension ImagePipeline {
    typealias Actions = ImagePipelineStateMachine.Actions

    /// Runs one event: takes the lock once, lets the state machine decide, and performs what it returned.
    func run(_ event: (inout ImagePipelineStateMachine) -> Actions) {
        perform(state.withLock { event(&$0) })
    }

    /// Performs actions outside the lock: cancels first, then events, deliveries, new work, idle waiters.
    func perform(_ actions: Actions) {
        for token in actions.cancels { token.cancel() }
        if let handler = configuration.eventHandler {
            for event in actions.events { handler(event) }
        }
        // Queued before the tasks hear of their image, so a `flush()` after a load waits for its entry.
        for store in actions.processedImageStores { storeProcessedImage(store.output, for: store.request) }
        var stored: [ImageCacheKey] = []
        for (task, delivery) in actions.deliveries {
            switch delivery {
            case .progress(let completed, let total):
                task.didProgress(completed: completed, total: total)
            case .preview(let image):
                // Never stored in the memory cache: a preview is not the image.
                task.didPreview(image)
            case .success(let value):
                if case .image(let output) = value { storeOnce(output, for: task.request, in: &stored) }
                task.didComplete(.success(value), in: self)
            case .failure(let error):
                task.didComplete(.failure(error), in: self)
            }
        }
        for start in actions.starts {
            self.start(operation: start.operation, token: start.token, work: start.work, priority: start.priority)
        }
        if actions.schedulesLauncher {
            _ = executor.runLoad(priority: .high) { self.launchPendingLoads() }
        }
        for waiter in actions.idleWaiters { waiter.resume() }
    }

    /// Stores a decoded image in the memory cache once, however many coalesced tasks receive it: by the first of
    /// them whose request allows memory-cache writes.
    private func storeOnce(_ output: TaskGraph.Output, for request: ImageRequest, in stored: inout [ImageCacheKey]) {
        guard let memoryCache = configuration.memoryCache, !request.options.contains(.disableMemoryCacheWrites),
            !stored.contains(request.imageKey)
        else { return }
        memoryCache.store(output.image, animation: output.animation, for: request.imageKey)
        stored.append(request.imageKey)
    }

    // MARK: - Events from tasks

    func taskCancelled(_ task: any TaskReceiver) {
        run { $0.cancel(task: task.id) }
    }

    /// Reads the task's priority under the pipeline's lock, so concurrent changes reach the graph in the order
    /// the task saw them: the last one wins in both places.
    func taskPriorityChanged(_ task: ImageTask) {
        run { $0.setPriority(task.priority, ofTask: task.id) }
    }

    // MARK: - Events from operations

    func operationProgressed(_ operation: Int, completed: Int64, total: Int64?) {
        run { $0.operationProgressed(operation, completed: completed, total: total) }
    }

    func operationPreviewed(_ operation: Int, image: TaskGraph.Output) {
        run { $0.operationPreviewed(operation, image: image) }
    }

    /// The bytes a running operation has reported so far.
    func operationProgress(_ operation: Int) -> Int64 {
        state.withLock { $0.graph.progress(ofOperation: operation) }
    }

    /// A data stage missed the disk cache and is about to download: a reload of the URL may now join it.
    func operationStartedDownload(_ operation: Int) {
        state.withLock { $0.operationStartedDownload(operation) }
    }

    /// A download has made no progress for a while: it gives its slot to the next queued one.
    func operationStalled(_ operation: Int) {
        run { $0.operationStalled(operation) }
    }

    private func operationFinished(_ operation: Int, with result: Result<TaskGraph.StageResult, Error>) {
        run { $0.operationFinished(operation, with: result) }
    }

    // MARK: - Starting work

    /// The launcher: starts the downloads waiting in the state machine, all it finds, until none are left.
    /// (Downloads cancelled while they waited were taken back by the machine: the launcher never sees them.)
    private func launchPendingLoads() {
        while true {
            let loads = state.withLock { $0.takePendingLoads() }
            if loads.isEmpty { return }
            for load in loads {
                start(operation: load.operation, token: load.token, work: load.work, priority: load.priority)
            }
        }
    }

    /// Hands a stage's work to the executor; it reports back with `operationFinished`.
    private func start(operation: Int, token: OperationToken, work: TaskGraph.Work, priority: ImageRequest.Priority) {
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
                if case .failure(let error) = result, self.fallsBackToTheNetwork(after: error, of: data, for: request) {
                    self.decodeFromTheNetwork(request, operation: operation, token: token, priority: priority)
                    return
                }
                self.operationFinished(operation, with: result.map { .image($0) })
            }
        case .process(let input, let request):
            executor.runDecode {
                let result: Result<TaskGraph.Output, Error> =
                    token.isCancelled ? .failure(.cancelled) : self.process(input, for: request)
                self.operationFinished(operation, with: result.map { .image($0) })
            }
        case .loadProcessedImage(let request):
            let task = executor.runLoad(priority: Self.taskPriority(priority)) {
                guard let data = await self.readProcessedImage(for: request) else {
                    self.run { $0.operationMissedProcessedImage(operation) }
                    return
                }
                self.executor.runDecode {
                    guard !token.isCancelled else {
                        self.operationFinished(operation, with: .failure(.cancelled))
                        return
                    }
                    if let output = self.decodeProcessedImage(data, for: request) {
                        self.operationFinished(operation, with: .success(.image(output)))
                    } else {
                        self.run { $0.operationMissedProcessedImage(operation) }
                    }
                }
            }
            token.attach(task)
        }
    }

    /// Disk-cache data that is not an image (the entry is already removed by then) is fetched again from the
    /// network, once, when the request may load from it: as Nuke does, a bad entry costs a download, not a failure.
    private func fallsBackToTheNetwork(after error: Error, of data: TaskGraph.LoadedData, for request: ImageRequest)
        -> Bool
    {
        data.cacheType == .disk && error.meansTheDataIsNotAnImage && request.dataPolicy.loadsFromNetwork
    }

    /// The fallback: download without reading the disk cache, then decode; the operation finishes with that.
    private func decodeFromTheNetwork(
        _ request: ImageRequest,
        operation: Int,
        token: OperationToken,
        priority: ImageRequest.Priority
    ) {
        var withoutDisk = request
        withoutDisk.options.insert(.disableDiskCacheReads)
        let fresh = withoutDisk
        let task = executor.runLoad(priority: Self.taskPriority(priority)) {
            let loaded = await self.load(fresh, operation: operation)
            self.executor.runDecode {
                let result: Result<TaskGraph.Output, Error> =
                    token.isCancelled ? .failure(.cancelled) : loaded.flatMap { self.decode($0, for: request) }
                self.operationFinished(operation, with: result.map { .image($0) })
            }
        }
        token.attach(task)
    }

    private static func taskPriority(_ priority: ImageRequest.Priority) -> TaskPriority {
        switch priority {
        case .veryLow, .low: .low
        case .normal: .medium
        case .high, .veryHigh: .high
        }
    }
}
