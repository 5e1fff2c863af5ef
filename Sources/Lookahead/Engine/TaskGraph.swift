// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Every request in flight, as a value-type state machine: which stages exist, who waits on them, which run.
///
/// The runner (``PipelineRunner``) keeps one graph under its lock; each event is one method here, returning the
/// ``Actions`` the runner performs once the lock is released. Nothing here does I/O or blocks.
///
/// Stages, keyed so identical work is shared: **data** (by URL) loads the bytes; **decode** (URL + thumbnail)
/// decodes them; **process** (URL + thumbnail + processors) runs the last processor on the result of the request
/// without it, or on an image the memory cache has for a prefix of the list (``Seed``). A stage runs at the highest
/// priority of its subscribers (tasks or later stages) and is cancelled when the last one leaves.
///
/// A decode stage whose data nobody else wants loads it itself: a plain request is one stage, not two. It is
/// found under the data key too while it loads, and when another subscriber wants that data it hands the load
/// (queued or running) to a data stage of its own and waits on it, as if it had been two stages all along.
///
/// A started download waits in ``pendingLoads`` until the runner's launcher takes it, so a request started and
/// cancelled before then (a fling's worth of prefetches) costs no Swift task and no cancellation token.
package struct TaskGraph {
    var stages = NodeTable<Stage>()
    /// Stages found by key, through the key's hash: a lookup compares the keys of the one stage it finds. Of two
    /// stages in flight whose keys share a hash, the older is no longer found (it shares no more work).
    var stagesByKey: [Key.Hash: Int] = [:]
    var tasks: [Int: TaskRecord] = [:]
    var operations = NodeTable<Operation>()
    var dataQueue: WorkQueue
    var decodeQueue: WorkQueue
    var actions = Actions()
    let isCoalescingEnabled: Bool
    /// Someone listens to ``ImagePipeline/Event``s: without a listener, none is made.
    let recordsEvents: Bool
    /// Downloads started that the launcher has not taken yet. They have no token until taken: one cancelled
    /// before then costs no allocation.
    var pendingLoads: [PendingLoad] = []
    /// A launcher is scheduled or running; it takes ``pendingLoads`` until none are left.
    var isLauncherScheduled = false
    /// Invalidated: every task failed, and the runner submits no more.
    package private(set) var isInvalidated = false
    var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// - Parameters:
    ///   - backgroundDataLoadLimit: How many download slots stages at `.low` priority or below may take; the rest
    ///     stay free for what is on screen.
    ///   - recordsEvents: Whether ``Actions/events`` are gathered.
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
            !isCoalescingEnabled || existingStage(for: Self.key(for: request, kind: kind)) == nil
        {
            stage = lookUpProcessedImage(for: .task(task), request: request, kind: kind, seed: seed)
            joined = false
        } else {
            (stage, joined) = attach(.task(task), priority: request.priority, request: request, kind: kind, seed: seed)
        }
        if !dataOnly, processedImage?.stores == true { stages[stage]!.storesProcessedImage = true }
        tasks[task] = TaskRecord(id: task, receiver: receiver, stage: stage)
        if joined, receiver != nil, recordsEvents { actions.events.append(.coalesced(asked)) }
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
        guard let stage = tasks[task]?.stage, stages.contains(stage) else { return takeActions() }
        stages[stage]!.subscribers[.task(task)] = priority
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
        for id in stages.ids {
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

    /// A data stage found its data in the disk cache: `true` when it may answer with it (from then on, a reload
    /// does not join it); `false` when a reload joined during the lookup, and it must download instead.
    package mutating func operationMayAnswerFromDisk(_ operation: Int) -> Bool {
        guard let running = operations[operation], !running.skipsDiskAnswer else { return false }
        operations[operation]!.isAnsweringFromDisk = true
        return true
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
        if let id = finished.stage, let stage = stages[id] {
            stages[id]!.looksUpProcessedImage = false
            stages[id]!.seed = nil
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
        if let id = finished.stage, case .success(.data(let data)) = result, stages[id]?.ownDataHash != nil {
            // A decode stage loaded its own data: it decodes it now, and nobody joins the load any more.
            unregisterOwnData(of: id)
            stages[id]!.ownDataHash = nil
            stages[id]!.state = .queued(.decode, .decode(data, stages[id]!.request))
            decodeQueue.enqueue(id, priority: stages[id]!.priority)
        } else if let id = finished.stage, let stage = removeStage(id) {
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
        takeLoadsWithoutLauncher(unschedulingLauncher: pendingLoads.isEmpty)
    }

    /// The downloads waiting to start, taken by a thread that is not the launcher: one that reports an operation's
    /// end starts its successors itself. `unschedulingLauncher` when that report scheduled the launcher: it is
    /// not started, and the next download schedules it again.
    package mutating func takeLoadsWithoutLauncher(unschedulingLauncher: Bool = false) -> [Actions.Start] {
        if unschedulingLauncher { isLauncherScheduled = false }
        guard !pendingLoads.isEmpty else { return [] }
        defer { pendingLoads.removeAll(keepingCapacity: true) }
        return pendingLoads.map { load in
            let token = OperationToken()
            operations[load.operation]!.token = token
            // The stage's priority now: it may have been raised while the download waited. A pending download's
            // stage is never gone: cancelling it takes the download back.
            let priority = stages[operations[load.operation]!.stage!]!.priority
            return Actions.Start(operation: load.operation, token: token, work: load.work, priority: priority)
        }
    }

    // MARK: - Subscriptions

    /// Subscribes to the stage for `request`, creating it (and the stages it waits on) if needed.
    mutating func attach(
        _ subscriber: Subscriber,
        priority: ImageRequest.Priority,
        request: ImageRequest,
        kind: StageKind,
        seed: Seed? = nil
    ) -> (stage: Int, joined: Bool) {
        let key = Self.key(for: request, kind: kind)
        if let existing = stageToJoin(key) {
            join(existing, subscriber, priority: priority)
            return (existing, true)
        }
        let id = stages.insert(
            Stage(
                key: key,
                request: request,
                subscribers: Subscribers(subscriber, priority: priority),
                priority: priority,
                state: .waiting(on: -1)
            )
        )
        if isCoalescingEnabled { register(key, id) }
        return (id, attachDependency(of: id, kind: kind, request: request, priority: priority, seed: seed))
    }

    /// A stage whose first work is to look its final image up in the disk cache (on the data queue: it reads a
    /// file), before any stage it would wait on exists.
    mutating func lookUpProcessedImage(
        for subscriber: Subscriber,
        request: ImageRequest,
        kind: StageKind,
        seed: Seed?
    ) -> Int {
        var stage = Stage(
            key: Self.key(for: request, kind: kind),
            request: request,
            subscribers: Subscribers(subscriber, priority: request.priority),
            priority: request.priority,
            state: .queued(.data, .loadProcessedImage(request))
        )
        stage.looksUpProcessedImage = true
        stage.seed = seed
        let id = stages.insert(stage)
        if isCoalescingEnabled { register(stage.key, id) }
        dataQueue.enqueue(id, priority: request.priority)
        return id
    }

    /// Creates (or joins) what a new stage waits on and sets its state; returns whether it joined work in flight.
    mutating func attachDependency(
        of id: Int,
        kind: StageKind,
        request: ImageRequest,
        priority: ImageRequest.Priority,
        seed: Seed?
    ) -> Bool {
        switch kind {
        case .data:
            stages[id]!.state = .queued(.data, .load(request))
            dataQueue.enqueue(id, priority: priority)
            return false
        case .decode:
            let dataKey = Self.key(for: request, kind: .data)
            if let existing = stageToJoin(dataKey) {
                join(existing, .stage(id), priority: priority)
                stages[id]!.state = .waiting(on: existing)
                return true
            }
            // Nobody else wants the data: the stage loads it itself.
            stages[id]!.state = .queued(.data, .load(request))
            stages[id]!.ownDataHash = dataKey.hash
            if isCoalescingEnabled { register(dataKey, id) }
            dataQueue.enqueue(id, priority: priority)
            return false
        case .process:
            if let seed, seed.processorCount == request.processors.count - 1 {
                // The image before the last processor is at hand: only the last processor runs.
                stages[id]!.state = .queued(.decode, .process(seed.output, request))
                decodeQueue.enqueue(id, priority: priority)
                return false
            }
            var shorter = request
            shorter.processors.removeLast()
            let dependency = attach(
                .stage(id),
                priority: priority,
                request: shorter,
                kind: shorter.processors.isEmpty ? .decode : .process,
                seed: seed
            )
            stages[id]!.state = .waiting(on: dependency.stage)
            return dependency.joined
        }
    }

    /// The stage in flight that a new subscriber of `key` shares, if any. A decode stage found under a data key (it
    /// loads its own data) first hands its load to a data stage of its own, which is returned.
    private mutating func stageToJoin(_ key: Key) -> Int? {
        guard isCoalescingEnabled, let existing = existingStage(for: key) ?? downloadJoinableByReload(key) else {
            return nil
        }
        guard key.kind == .data, let kind = stages[existing]?.key.kind, kind != .data else { return existing }
        return giveDataStage(to: existing)
    }

    private mutating func join(_ existing: Int, _ subscriber: Subscriber, priority: ImageRequest.Priority) {
        stages[existing]!.subscribers[subscriber] = priority
        updatePriority(of: existing)
    }

    /// A decode stage that loads its own data hands the load, queued or running, to a new data stage, and waits on
    /// it: another subscriber may now share the data. Returns the data stage.
    private mutating func giveDataStage(to id: Int) -> Int {
        guard let decode = stages[id], let key = decode.ownDataKey else {
            preconditionFailure("Internal inconsistency: stage \(id) does not load its own data")
        }
        let data = stages.insert(
            Stage(
                key: key,
                request: decode.request,
                subscribers: Subscribers(.stage(id), priority: decode.priority),
                priority: decode.priority,
                state: decode.state
            )
        )
        stages[id]!.ownDataHash = nil
        stages[id]!.state = .waiting(on: data)
        switch decode.state {
        case .queued(let kind, _): withQueue(kind) { $0.replace(id, with: data, priority: decode.priority) }
        case .running(let operation): operations[operation]?.stage = data
        case .waiting: preconditionFailure("Internal inconsistency: stage \(id) loads and waits")
        }
        register(key, data)
        return data
    }

    /// For a data stage that reloads (skips the disk cache but may load from the network): the stage of the same
    /// URL that differs only in reading the disk cache, unless it answers from the disk. Still queued, it is made to
    /// skip the disk cache; looking it up, to download whatever it finds. One download serves both.
    private mutating func downloadJoinableByReload(_ key: Key) -> Int? {
        guard key.kind == .data, !key.policy.readsDiskCache, key.policy.loadsFromNetwork else { return nil }
        var reading = key
        reading.policy.readsDiskCache = true
        guard let existing = existingStage(for: reading), let state = stages[existing]?.state else { return nil }
        switch state {
        case .running(let operation):
            guard let running = operations[operation], !running.isAnsweringFromDisk else { return nil }
            // Still looking the disk cache up: it will download instead, for both.
            if !running.isDownloading { operations[operation]!.skipsDiskAnswer = true }
            return existing
        case .queued(let kind, .load(var request)):
            request.options.insert(.disableDiskCacheReads)
            stages[existing]!.state = .queued(kind, .load(request))
            return existing
        case .queued, .waiting:
            return nil
        }
    }

    mutating func detach(_ subscriber: Subscriber, from id: Int) {
        guard stages.contains(id) else { return }
        stages[id]!.subscribers[subscriber] = nil
        guard stages[id]!.subscribers.isEmpty else { return updatePriority(of: id) }
        guard let stage = removeStage(id) else { return }
        switch stage.state {
        case .waiting(let dependency):
            detach(.stage(id), from: dependency)
        case .queued(let kind, _):
            withQueue(kind) { $0.remove(id, priority: stage.priority) }
        case .running(let operation):
            cancelOperation(operation, of: stage)
        }
    }

    /// Cancels a stage's operation. A download the launcher has not taken never ran: it stops at once and its slot
    /// goes to queued work; anything else is cancelled and reports back when it stops.
    mutating func cancelOperation(_ operation: Int, of stage: Stage) {
        guard operations.contains(operation) else { return }
        operations[operation]!.stage = nil
        if recordsEvents, stage.key.kind == .data || stage.ownDataHash != nil, let url = stage.request.url {
            actions.events.append(.dataLoadCancelled(url))
        }
        if let token = operations[operation]!.token {
            actions.cancels.append(token)
        } else if let index = pendingLoads.lastIndex(where: { $0.operation == operation }) {
            pendingLoads.remove(at: index)
            _ = release(operation)
        }
    }

    /// Recomputes a stage's priority from its subscribers and passes a change on.
    mutating func updatePriority(of id: Int) {
        guard let old = stages[id]?.priority else { return }
        let priority = stages[id]!.subscribers.highestPriority ?? old
        guard priority != old else { return }
        stages[id]!.priority = priority
        switch stages[id]!.state {
        case .waiting(let dependency):
            guard stages.contains(dependency) else { return }
            stages[dependency]!.subscribers[.stage(id)] = priority
            updatePriority(of: dependency)
        case .queued(let kind, _):
            withQueue(kind) { $0.move(id, from: old, to: priority) }
        case .running(let operation):
            // A promoted prefetch gives its background slot back, so more prefetches may start.
            if operations[operation]?.isBackground == true, operations[operation]?.isParked == false,
                !WorkQueue.isBackground(priority)
            {
                operations[operation]!.isBackground = false
                withQueue(operations[operation]!.queue) { $0.promoteRunning() }
            }
        }
    }

    // MARK: - Completion

    mutating func complete(_ stage: Stage, with value: StageResult) {
        for subscriber in stage.subscribers.ordered {
            switch (subscriber, value) {
            case (.task(let task), _):
                if let record = tasks.removeValue(forKey: task) { actions.deliveries.append((record, .success(value))) }
            case (.stage(let child), .data(let data)):
                enqueue(child, work: .decode(data, stages[child]!.request))
            case (.stage(let child), .image(let image)):
                enqueue(child, work: .process(image, stages[child]!.request))
            }
        }
    }

    private mutating func enqueue(_ id: Int, work: Work) {
        stages[id]!.state = .queued(.decode, work)
        decodeQueue.enqueue(id, priority: stages[id]!.priority)
    }

    mutating func fail(_ stage: Stage, with error: ImagePipelineError) {
        for subscriber in stage.subscribers.ordered {
            switch subscriber {
            case .task(let task):
                if let record = tasks.removeValue(forKey: task) { actions.deliveries.append((record, .failure(error))) }
            case .stage(let child):
                if let child = removeStage(child) { fail(child, with: error) }
            }
        }
    }

    mutating func startQueuedWork() {
        startQueuedWork(.data)
        startQueuedWork(.decode)
    }

    private mutating func startQueuedWork(_ kind: QueueKind) {
        while let (id, isBackground) = withQueue(kind, { $0.next() }) {
            guard case .queued(_, let work) = stages[id]?.state else {
                preconditionFailure("Internal inconsistency: queued stage \(id) is not queued")
            }
            guard case .load = work else {
                let token = OperationToken()
                let operation = operations.insert(
                    Operation(queue: kind, stage: id, token: token, isBackground: isBackground)
                )
                stages[id]!.state = .running(operation: operation)
                let priority = stages[id]!.priority
                actions.starts.append(Actions.Start(operation: operation, token: token, work: work, priority: priority))
                continue
            }
            let operation = operations.insert(Operation(queue: kind, stage: id, token: nil, isBackground: isBackground))
            stages[id]!.state = .running(operation: operation)
            pendingLoads.append(PendingLoad(operation: operation, work: work))
            actions.queuesLoads = true
            if !isLauncherScheduled {
                isLauncherScheduled = true
                actions.schedulesLauncher = true
            }
        }
    }
}
