// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Every request in flight, as a value-type state machine: which stages exist, who waits on them, which run.
///
/// The words, as used throughout the engine:
/// - **task**: one caller's ask for an image (an ``ImageTask``) or for its data (`data(for:)`), by ``TaskID``.
/// - **stage**: work shared by every task and later stage that wants its result, found by its ``Key``: **data**
///   (by image identity) loads the bytes; **decode** (identity + thumbnail) decodes them; **process** (identity +
///   thumbnail + processors) runs the last processor on the result of the request without it, or on an image the
///   memory cache has for a prefix of the list (``Seed``). By ``StageID``.
/// - **operation**: one run of a stage's work, started by the runner, reporting back by ``OperationID``.
/// - **work**: what an operation does (``Work``): load the data, decode, process, or look the final image up.
/// - **load**: the one verb for getting bytes, from the disk cache or the network; a **download** is a load from
///   the network, started by the runner's **launcher**.
///
/// The runner (``PipelineRunner``) keeps one graph under its lock; each event is one method here, returning the
/// ``Actions`` the runner performs once the lock is released. Nothing here does I/O or blocks. A stage runs at the
/// highest priority of its subscribers and is cancelled when the last one leaves.
package struct TaskGraph: Sendable {
    var stages: [StageID: Stage] = [:]
    /// Stages found by key, for coalescing: every entry is a stage in `stages`.
    var stagesByKey: [Key: StageID] = [:]
    var tasks: [TaskID: TaskRecord] = [:]
    var operations: [OperationID: Operation] = [:]
    /// The last stage or operation identifier handed out; identifiers grow in the order things were made.
    var nextID = 0
    var dataQueue: WorkQueue<StageID>
    var decodeQueue: WorkQueue<StageID>
    var actions = Actions()
    let isCoalescingEnabled: Bool
    /// Someone listens to ``ImagePipeline/Event``s: without a listener, none is made.
    let recordsEvents: Bool
    /// Downloads started that the launcher has not taken yet: one cancelled before then costs no Swift task or token.
    var pendingLoads: [(operation: OperationID, work: Work)] = []
    /// A launcher is scheduled or running; it takes ``pendingLoads`` until none are left.
    var isLauncherScheduled = false
    /// Invalidated: every task failed, and the runner submits no more.
    package private(set) var isInvalidated = false
    var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// `backgroundDataLoadLimit`: the download slots stages at `.low` priority or below may take (``WorkQueue``).
    package init(
        dataLoadLimit: Int,
        decodeLimit: Int,
        backgroundDataLoadLimit: Int? = nil,
        isCoalescingEnabled: Bool = true,
        recordsEvents: Bool = true
    ) {
        self.dataQueue = WorkQueue(limit: dataLoadLimit, backgroundLimit: backgroundDataLoadLimit)
        self.decodeQueue = WorkQueue(limit: decodeLimit)
        self.isCoalescingEnabled = isCoalescingEnabled
        self.recordsEvents = recordsEvents
    }

    // MARK: - Events from tasks

    /// A task asks for an image (or, `dataOnly`, for its data); `receiver` is where its results go (`nil` in tests).
    /// `seed` is an image already at hand for a prefix of the request's processors.
    package mutating func submit(
        task: TaskID,
        request: ImageRequest,
        dataOnly: Bool = false,
        seed: Seed? = nil,
        processedImage: ProcessedImageUse? = nil,
        receiver: (any TaskReceiver)? = nil
    ) -> Actions {
        let kind = dataOnly ? .data : StageKind(imageOf: request)
        let asked = request
        var request = request
        if let processedImage, !processedImage.keepsOriginalData { request.options.insert(.disableDiskCacheWrites) }
        let (stage, joined) = attach(
            .task(task),
            priority: request.priority,
            request: request,
            kind: kind,
            seed: seed,
            looksUpProcessedImage: !dataOnly && processedImage?.reads == true
        )
        if !dataOnly, processedImage?.stores == true { stages[stage]?.storesProcessedImage = true }
        tasks[task] = TaskRecord(id: task, receiver: receiver, stage: stage)
        if joined, receiver != nil, recordsEvents { actions.events.append(.coalesced(asked)) }
        return takeActions()
    }

    /// A task no longer wants its image: cancels the stages nobody else wants.
    package mutating func cancel(task: TaskID) -> Actions {
        if let record = tasks.removeValue(forKey: task) { detach(.task(task), from: record.stage) }
        return takeActions()
    }

    /// A task's priority changed.
    package mutating func setPriority(_ priority: ImageRequest.Priority, ofTask task: TaskID) -> Actions {
        if let stage = tasks[task]?.stage {
            stages[stage]?.subscribers[.task(task)] = priority
            updatePriority(of: stage)
        }
        return takeActions()
    }

    /// Fails every task with ``ImagePipeline/Error/pipelineInvalidated``, cancels all work, and takes no more.
    package mutating func invalidate() -> Actions {
        isInvalidated = true
        return failAll(with: .pipelineInvalidated)
    }

    /// Fails every task with `error` and cancels all work.
    package mutating func failAll(with error: ImagePipeline.Error) -> Actions {
        for (_, record) in tasks.sorted(by: { $0.key < $1.key }) {
            actions.deliveries.append((record, .failure(error)))
        }
        tasks.removeAll()
        for id in stages.keys.sorted() {
            // Every stage goes: the one a stage waits on is stopped in its own turn.
            if let stage = removeStage(id) { _ = stopWork(of: stage, id) }
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

    /// What a running operation reports before it finishes.
    package enum OperationEvent {
        /// Bytes received so far.
        case progressed(completed: Int64, total: Int64?)
        /// The data stage missed the disk cache and is downloading: a reload of its URL may join it now.
        case startedDownload
        /// A download made no progress for a whole interval.
        case stalled
        /// A progressive decode of the bytes so far.
        case previewed(PreparedImage)
    }

    /// A running operation reports on its work.
    package mutating func operation(_ operation: OperationID, reported event: OperationEvent) -> Actions {
        switch event {
        case .progressed(let completed, let total):
            operations[operation]?.completedBytes = completed
            deliver(.progress(completed: completed, total: total), toTasksAbove: operations[operation]?.stage)
        case .startedDownload:
            operations[operation]?.isDownloading = true
        case .stalled:
            // The download keeps running but gives its slot to the next queued one: each at most once, and at most
            // as many as the download limit.
            if let running = operations[operation], running.queue == .data, !running.isParked,
                dataQueue.park(isBackground: running.isBackground)
            {
                operations[operation]?.isParked = true
                operations[operation]?.isBackground = false
            }
        case .previewed(let image):
            // A preview of an operation that has finished or was cancelled is dropped: none follows the image.
            deliver(.preview(image), toTasksAbove: operations[operation]?.stage)
        }
        return takeActions()
    }

    /// A data stage found its data in the disk cache: `true` when it may answer with it (from then on, a reload
    /// does not join it); `false` when a reload joined during the lookup, and it must download instead.
    package mutating func operationMayAnswerFromDisk(_ operation: OperationID) -> Bool {
        guard let running = operations[operation], !running.skipsDiskAnswer else { return false }
        operations[operation]?.isAnsweringFromDisk = true
        return true
    }

    /// A lookup of a final image in the disk cache found none it could use: the stage attaches the usual chain
    /// (from its seed, a shorter stage or the data) and waits on it; attaching changes other stages only.
    package mutating func operationMissedProcessedImage(_ operation: OperationID) -> Actions {
        if let id = release(operation)?.stage, var stage = stages[id] {
            (stage.state, _) = firstState(
                of: id,
                kind: stage.key.kind,
                request: stage.request,
                priority: stage.priority,
                seed: stage.seed
            )
            stage.looksUpProcessedImage = false
            stage.seed = nil
            stages[id] = stage
        }
        return takeActions()
    }

    /// A decode found that data read from the disk cache is not an image (the entry is removed): the stage waits on
    /// a load that skips the disk cache, and decodes what arrives.
    package mutating func operationFoundInvalidDiskData(_ operation: OperationID) -> Actions {
        if let id = release(operation)?.stage, let stage = stages[id] {
            var fresh = stage.request
            fresh.options.insert(.disableDiskCacheReads)
            let data = attach(.stage(id), priority: stage.priority, request: fresh, kind: .data)
            stages[id]?.state = .waiting(on: data.stage)
        }
        return takeActions()
    }

    /// A running operation stopped, with its result. Results of cancelled operations are dropped.
    package mutating func operationFinished(
        _ operation: OperationID,
        with result: Result<StageResult, ImagePipeline.Error>
    ) -> Actions {
        guard let id = release(operation)?.stage, let stage = removeStage(id) else { return takeActions() }
        // Made here (not read back from the disk cache): stored for the next launch.
        if stage.storesProcessedImage, !stage.looksUpProcessedImage, case .success(.image(let image)) = result,
            image.animation == nil
        {
            actions.processedImageStores.append((stage.request, image))
        }
        finish(stage, with: result)
        return takeActions()
    }

    // MARK: - Events from the launcher

    /// The launcher takes the downloads waiting to start; none left, it stops (the next download schedules another).
    package mutating func takePendingLoads() -> [Actions.Start] {
        takeLoadsWithoutLauncher(unschedulingLauncher: pendingLoads.isEmpty)
    }

    /// The downloads waiting to start, taken by the thread that reported an operation's end, which starts them
    /// itself. `unschedulingLauncher` when that report scheduled the launcher: the next download schedules it again.
    package mutating func takeLoadsWithoutLauncher(unschedulingLauncher: Bool) -> [Actions.Start] {
        if unschedulingLauncher { isLauncherScheduled = false }
        guard !pendingLoads.isEmpty else { return [] }
        defer { pendingLoads.removeAll(keepingCapacity: true) }
        return pendingLoads.map { load in
            // A pending download's stage is never gone: cancelling it takes the download back. It starts at the
            // stage's priority now, which may have been raised while it waited.
            guard let stage = operations[load.operation]?.stage, let priority = stages[stage]?.priority else {
                preconditionFailure("Internal inconsistency: pending \(load.operation) has no stage")
            }
            let token = OperationToken()
            operations[load.operation]?.token = token
            return Actions.Start(operation: load.operation, token: token, work: load.work, priority: priority)
        }
    }

    // MARK: - Reports to tasks

    /// Sends a delivery to every task waiting on a stage, directly or through later stages (none when cancelled).
    private mutating func deliver(_ delivery: Actions.Delivery, toTasksAbove id: StageID?) {
        guard let id, let stage = stages[id] else { return }
        for subscriber in stage.subscribers.ordered {
            switch subscriber {
            case .task(let task):
                if let record = tasks[task] { actions.deliveries.append((record, delivery)) }
            case .stage(let child):
                deliver(delivery, toTasksAbove: child)
            }
        }
    }
}
