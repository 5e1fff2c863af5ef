// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Every request in flight, as a value-type state machine: which stages exist, who waits on them, which run.
///
/// The runner (``PipelineRunner``) keeps one graph under its lock. Each event is one method here, called under that
/// lock; it returns ``Actions``, which the runner performs once the lock is released (start or cancel work, deliver
/// results). Nothing here does I/O, blocks or calls outside code, so tests drive the graph synchronously.
///
/// Stages, each keyed so that identical work is shared:
/// - **data**, keyed by URL: load the bytes.
/// - **decode**, keyed by URL + thumbnail: decode the bytes, subscribing to a data stage.
/// - **process**, keyed by URL + thumbnail + processors: run the last processor on the result of the same request
///   without it — a process stage for the shorter list, or the decode stage. An image already in the memory cache
///   for a prefix of the list (``Seed``) starts the chain there.
///
/// A stage's subscribers are tasks or later stages. Its priority is the highest of theirs; a change re-ranks it in
/// its queue and passes on to the stage it waits on. A stage is cancelled when its last subscriber leaves.
///
/// Downloads are launched in batches: a started download waits in ``pendingLoads`` until the launcher the runner
/// keeps scheduled takes it, so a request started and cancelled before then (a fling's worth of prefetches) costs
/// no Swift task: the graph takes it back and frees its slot within the same event.
package struct TaskGraph {
    var stages: [Int: Stage] = [:]
    var stagesByKey: [Key: Int] = [:]
    var tasks: [Int: TaskRecord] = [:]
    var operations: [Int: Operation] = [:]
    var dataQueue: WorkQueue
    var decodeQueue: WorkQueue
    var nextID = 0
    var actions = Actions()
    let isCoalescingEnabled: Bool
    /// Downloads started that the launcher has not taken yet.
    var pendingLoads: [Actions.Start] = []
    /// A launcher is scheduled or running; it takes ``pendingLoads`` until none are left.
    var isLauncherScheduled = false
    /// Invalidated: every task failed, and the runner submits no more.
    package private(set) var isInvalidated = false
    var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// - Parameter backgroundDataLoadLimit: How many download slots stages at `.low` priority or below may take;
    ///   the rest stay free for what is on screen.
    package init(
        dataLoadLimit: Int,
        decodeLimit: Int,
        backgroundDataLoadLimit: Int? = nil,
        isCoalescingEnabled: Bool = true
    ) {
        self.dataQueue = WorkQueue(limit: dataLoadLimit, backgroundLimit: backgroundDataLoadLimit)
        self.decodeQueue = WorkQueue(limit: decodeLimit)
        self.isCoalescingEnabled = isCoalescingEnabled
    }

    // MARK: - Inspection

    /// Tasks, stages and running operations (including cancelled ones that have not stopped yet).
    package var liveCount: Int { tasks.count + stages.count + operations.count }
    /// The number of stages.
    package var stageCount: Int { stages.count }
    /// Running operations, including cancelled ones that have not reported back.
    package var operationCount: Int { operations.count }
    /// The priority of the stage a task subscribes to.
    package func priority(ofTask task: Int) -> ImageRequest.Priority? {
        tasks[task].flatMap { stages[$0.stage]?.priority }
    }
    /// The priority of the data stage for a URL.
    package func dataPriority(for url: String) -> ImageRequest.Priority? {
        stagesByKey.first { $0.key.kind == .data && $0.key.image.url == url }.flatMap { stages[$0.value]?.priority }
    }
    /// The bytes a running operation has reported; 0 for an unknown one.
    package func progress(ofOperation operation: Int) -> Int64 { operations[operation]?.completedBytes ?? 0 }
    /// Running downloads that gave their slot back after stalling.
    package var parkedDataLoadCount: Int { dataQueue.parkedCount }
    /// URLs of queued data stages, next to start first.
    package var queuedDataURLs: [String] { dataQueue.queuedInOrder.compactMap { stages[$0]?.key.image.url } }

    // MARK: - Events from tasks

    /// A task asks for an image (or, `dataOnly`, for its data); `receiver` is where its results go. `seed` is an
    /// image already at hand for a prefix of the request's processors.
    mutating func submit(
        task: Int,
        request: ImageRequest,
        dataOnly: Bool = false,
        seed: Seed? = nil,
        processedImage: ProcessedImageUse? = nil,
        receiver: (any TaskReceiver)? = nil
    ) -> Actions {
        let kind: StageKind = dataOnly ? .data : request.processors.isEmpty ? .decode : .process
        let asked = request
        var request = request
        if let processedImage, !processedImage.keepsOriginalData { request.options.insert(.disableDiskCacheWrites) }
        let stage: Int
        let joined: Bool
        if !dataOnly, let processedImage, processedImage.reads,
            !isCoalescingEnabled || stagesByKey[Self.key(for: request, kind: kind)] == nil
        {
            stage = lookUpProcessedImage(for: .task(task), request: request, kind: kind, seed: seed)
            joined = false
        } else {
            (stage, joined) = attach(.task(task), priority: request.priority, request: request, kind: kind, seed: seed)
        }
        if !dataOnly, processedImage?.stores == true { stages[stage]!.storesProcessedImage = true }
        tasks[task] = TaskRecord(id: task, receiver: receiver, stage: stage)
        if joined, receiver != nil { actions.events.append(.coalesced(asked)) }
        startQueuedWork()
        return takeActions()
    }

    /// A task no longer wants its image: cancels the stages nobody else wants.
    package mutating func cancel(task: Int) -> Actions {
        guard let record = tasks.removeValue(forKey: task) else { return takeActions() }
        detach(.task(task), from: record.stage)
        startQueuedWork()
        return takeActions()
    }

    /// A task's priority changed.
    package mutating func setPriority(_ priority: ImageRequest.Priority, ofTask task: Int) -> Actions {
        guard let stage = tasks[task]?.stage, let index = stages.index(forKey: stage) else { return takeActions() }
        stages.values[index].subscribers[.task(task)] = priority
        updatePriority(of: stage)
        startQueuedWork()  // a promoted prefetch may have freed a background slot
        return takeActions()
    }

    /// Fails every task with ``ImagePipelineError/pipelineInvalidated`` and cancels all work; the runner submits
    /// nothing more.
    package mutating func invalidate() -> Actions {
        isInvalidated = true
        return failAll(with: .pipelineInvalidated)
    }

    /// Fails every task with `error` and cancels all work.
    package mutating func failAll(with error: ImagePipelineError) -> Actions {
        for task in tasks.keys.sorted() {
            actions.deliveries.append((tasks[task]!, .failure(error)))
        }
        tasks.removeAll()
        for id in stages.keys.sorted() {
            guard let stage = removeStage(id) else { continue }
            switch stage.state {
            case .waiting: break
            case .queued(let kind, _): withQueue(kind) { $0.remove(id, priority: stage.priority) }
            case .running(let operation): cancelOperation(operation, of: stage)
            }
        }
        return takeActions()
    }

    /// Registers a waiter for idleness; `false` when the graph is idle already (the caller resumes it).
    package mutating func waitUntilIdle(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
        guard liveCount > 0 else { return false }
        idleWaiters.append(waiter)
        return true
    }

    // MARK: - Events from operations

    /// A running operation reports progress to every task waiting on it.
    package mutating func operationProgressed(_ operation: Int, completed: Int64, total: Int64?) -> Actions {
        operations[operation]?.completedBytes = completed
        guard let stage = operations[operation]?.stage else { return takeActions() }
        for task in tasks(above: stage) {
            guard let record = tasks[task] else { continue }
            actions.deliveries.append((record, .progress(completed: completed, total: total)))
        }
        return takeActions()
    }

    /// A running download decoded a preview: every task waiting on it (through later stages too) gets it. A
    /// preview of an operation that has finished or was cancelled is dropped, so none follows the final image.
    package mutating func operationPreviewed(_ operation: Int, image: PreparedImage) -> Actions {
        guard let stage = operations[operation]?.stage else { return takeActions() }
        for task in tasks(above: stage) {
            guard let record = tasks[task] else { continue }
            actions.deliveries.append((record, .preview(image)))
        }
        return takeActions()
    }

    /// A data stage's operation missed the disk cache and is downloading: from now on a request that reloads the
    /// URL, ignoring cached data, joins it instead of downloading again.
    package mutating func operationStartedDownload(_ operation: Int) -> Actions {
        operations[operation]?.isDownloading = true
        return takeActions()
    }

    /// A running download has received (almost) nothing for a while: it keeps running, but gives its slot to the
    /// next queued download. Each operation is parked at most once, and at most as many as the download limit.
    package mutating func operationStalled(_ operation: Int) -> Actions {
        guard let running = operations[operation], running.queue == .data, !running.isParked,
            dataQueue.park(isBackground: running.isBackground)
        else { return takeActions() }
        operations[operation]!.isParked = true
        operations[operation]!.isBackground = false
        startQueuedWork()
        return takeActions()
    }

    /// A lookup of a final image in the disk cache found none it could use: the stage attaches the usual chain
    /// (from its seed, a shorter stage or the data) and waits on it.
    package mutating func operationMissedProcessedImage(_ operation: Int) -> Actions {
        let finished = release(operation)
        if let id = finished.stage, let index = stages.index(forKey: id) {
            stages.values[index].looksUpProcessedImage = false
            let stage = stages.values[index]
            stages.values[index].seed = nil
            _ = attachDependency(
                of: id,
                kind: stage.key.kind,
                request: stage.request,
                priority: stage.priority,
                seed: stage.seed
            )
        }
        startQueuedWork()
        return takeActions()
    }

    /// A running operation stopped, with its result. Results of cancelled operations are dropped.
    package mutating func operationFinished(
        _ operation: Int,
        with result: Result<StageResult, ImagePipelineError>
    ) -> Actions {
        let finished = release(operation)
        if let id = finished.stage, let stage = removeStage(id) {
            switch result {
            case .success(let value):
                // Made here (not read back from the disk cache): stored for the next launch.
                if stage.storesProcessedImage, !stage.looksUpProcessedImage, case .image(let image) = value,
                    image.animation == nil
                {
                    actions.processedImageStores.append((stage.request, image))
                }
                complete(stage, with: value)
            case .failure(let error):
                fail(stage, with: error)
            }
        }
        startQueuedWork()
        return takeActions()
    }

    // MARK: - Events from the launcher

    /// The launcher takes the downloads waiting to start; when there are none, it stops (the next download
    /// schedules a new one).
    package mutating func takePendingLoads() -> [Actions.Start] {
        if pendingLoads.isEmpty { isLauncherScheduled = false }
        defer { pendingLoads.removeAll() }
        return pendingLoads
    }
}
