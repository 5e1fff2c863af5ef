// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// How stages are created, shared, cancelled and started.
extension TaskGraph {
    // MARK: - Subscriptions

    /// Subscribes to the stage in flight for `request` (or to a download a reload may share), else to a new one and
    /// the stages it waits on. A new stage that `looksUpProcessedImage` first looks its final image up in the disk
    /// cache (on the data queue: it reads a file), keeping `seed` for the chain a miss attaches.
    mutating func attach(
        _ subscriber: Subscriber,
        priority: ImageRequest.Priority,
        request: ImageRequest,
        kind: StageKind,
        seed: Seed? = nil,
        looksUpProcessedImage: Bool = false
    ) -> (stage: StageID, joined: Bool) {
        let image =
            switch kind {
            case .data: request.dataKey
            case .decode: request.decodeKey
            case .process: request.imageKey
            }
        let key = Key(kind: kind, image: image, policy: request.dataPolicy, headers: request.headers)
        if isCoalescingEnabled, let existing = stagesByKey[key] ?? downloadJoinableByReload(key) {
            stages[existing]?.subscribers[subscriber] = priority
            updatePriority(of: existing)
            return (existing, true)
        }
        let id = StageID(rawValue: makeID())
        let (state, joined): (StageState, Bool)
        if looksUpProcessedImage {
            dataQueue.enqueue(id, priority: priority)
            (state, joined) = (.queued(.data, .loadProcessedImage(request)), false)
        } else {
            (state, joined) = firstState(of: id, kind: kind, request: request, priority: priority, seed: seed)
        }
        stages[id] = Stage(
            key: key,
            request: request,
            subscribers: Subscribers(subscriber, priority: priority),
            priority: priority,
            state: state,
            looksUpProcessedImage: looksUpProcessedImage,
            seed: looksUpProcessedImage ? seed : nil
        )
        if isCoalescingEnabled { stagesByKey[key] = id }
        return (id, joined)
    }

    /// What a new stage does first: a data stage queues its load; a decode stage waits on the data stage; a process
    /// stage runs its last processor on a seed that has all the others, or waits on the stage without it. Creates
    /// (or joins) the stage waited on, with `id` as its subscriber; `joined` when that work was in flight.
    mutating func firstState(
        of id: StageID,
        kind: StageKind,
        request: ImageRequest,
        priority: ImageRequest.Priority,
        seed: Seed?
    ) -> (state: StageState, joined: Bool) {
        switch kind {
        case .data:
            dataQueue.enqueue(id, priority: priority)
            return (.queued(.data, .load(request)), false)
        case .decode:
            let data = attach(.stage(id), priority: priority, request: request, kind: .data)
            return (.waiting(on: data.stage), data.joined)
        case .process:
            if let seed, seed.processorCount == request.processors.count - 1 {
                decodeQueue.enqueue(id, priority: priority)
                return (.queued(.decode, .process(seed.output, request)), false)
            }
            var shorter = request
            shorter.processors.removeLast()
            let kind = StageKind(imageOf: shorter)
            let dependency = attach(.stage(id), priority: priority, request: shorter, kind: kind, seed: seed)
            return (.waiting(on: dependency.stage), dependency.joined)
        }
    }

    /// For a data stage that reloads (skips the disk cache but may load from the network): the stage of the same
    /// URL that differs only in reading the disk cache, unless it answers from the disk. Still queued, it is made to
    /// skip the disk cache; looking it up, to download whatever it finds. One download serves both.
    private mutating func downloadJoinableByReload(_ key: Key) -> StageID? {
        guard key.kind == .data, !key.policy.readsDiskCache, key.policy.loadsFromNetwork else { return nil }
        var policy = key.policy
        policy.readsDiskCache = true
        let reading = Key(kind: key.kind, image: key.image, policy: policy, headers: key.headers)
        guard let existing = stagesByKey[reading], let state = stages[existing]?.state else { return nil }
        switch state {
        case .running(let operation):
            guard let running = operations[operation], !running.isAnsweringFromDisk else { return nil }
            // Still looking the disk cache up: it will download instead, for both.
            if !running.isDownloading { operations[operation]?.skipsDiskAnswer = true }
            return existing
        case .queued(let kind, .load(var request)):
            request.options.insert(.disableDiskCacheReads)
            stages[existing]?.state = .queued(kind, .load(request))
            return existing
        case .queued, .waiting:
            return nil
        }
    }

    mutating func detach(_ subscriber: Subscriber, from id: StageID) {
        guard let index = stages.index(forKey: id) else { return }
        stages.values[index].subscribers[subscriber] = nil
        guard stages.values[index].subscribers.isEmpty else { return updatePriority(of: id) }
        let stage = stages.remove(at: index).value
        unregister(stage.key, of: id)
        if let dependency = stopWork(of: stage, id) { detach(.stage(id), from: dependency) }
    }

    /// Stops a removed stage's work and returns the stage it waits on, if it waits. Queued work leaves its queue. A
    /// download the launcher has not taken never ran: it stops at once and its slot goes to queued work; any other
    /// running work is cancelled and reports back when it stops.
    mutating func stopWork(of stage: Stage, _ id: StageID) -> StageID? {
        switch stage.state {
        case .waiting(let dependency):
            return dependency
        case .queued(let kind, _):
            withQueue(kind) { $0.remove(id, priority: stage.priority) }
        case .running(let operation):
            guard let index = operations.index(forKey: operation) else { break }
            operations.values[index].stage = nil
            if recordsEvents, stage.key.kind == .data, let url = stage.request.url {
                actions.events.append(.dataLoadCancelled(url))
            }
            if let token = operations.values[index].token {
                actions.cancels.append(token)
            } else if let index = pendingLoads.lastIndex(where: { $0.operation == operation }) {
                pendingLoads.remove(at: index)
                _ = release(operation)
            }
        }
        return nil
    }

    /// Recomputes a stage's priority from its subscribers and passes a change on.
    mutating func updatePriority(of id: StageID) {
        guard let stage = stages[id], let priority = stage.subscribers.highestPriority, priority != stage.priority
        else { return }
        stages[id]?.priority = priority
        switch stage.state {
        case .waiting(let dependency):
            stages[dependency]?.subscribers[.stage(id)] = priority
            updatePriority(of: dependency)
        case .queued(let kind, _):
            withQueue(kind) { $0.move(id, from: stage.priority, to: priority) }
        case .running(let operation):
            // A promoted prefetch gives its background slot back, so more prefetches may start.
            guard let running = operations[operation], running.isBackground, !running.isParked,
                !WorkQueue<StageID>.isBackground(priority)
            else { return }
            operations[operation]?.isBackground = false
            withQueue(running.queue) { $0.releaseBackgroundSlot() }
        }
    }

    // MARK: - Completion

    /// Hands a stopped stage's result to its subscribers: tasks receive it; later stages decode the data or process
    /// the image, or fail with the error.
    mutating func finish(_ stage: Stage, with result: Result<StageResult, ImagePipeline.Error>) {
        for subscriber in stage.subscribers.ordered {
            switch (subscriber, result) {
            case (.task(let task), .success(let value)):
                if let record = tasks.removeValue(forKey: task) { actions.deliveries.append((record, .success(value))) }
            case (.task(let task), .failure(let error)):
                if let record = tasks.removeValue(forKey: task) { actions.deliveries.append((record, .failure(error))) }
            case (.stage(let child), .success(.data(let data))):
                if let request = stages[child]?.request { enqueue(child, work: .decode(data, request)) }
            case (.stage(let child), .success(.image(let image))):
                if let request = stages[child]?.request { enqueue(child, work: .process(image, request)) }
            case (.stage(let child), .failure):
                if let child = removeStage(child) { finish(child, with: result) }
            }
        }
    }

    /// Queues decoding or processing for a stage.
    mutating func enqueue(_ id: StageID, work: Work) {
        guard let priority = stages[id]?.priority else { return }
        stages[id]?.state = .queued(.decode, work)
        decodeQueue.enqueue(id, priority: priority)
    }

    // MARK: - Starting work

    /// Starts queued stages while slots are free: decoding and processing at once, downloads through the launcher.
    mutating func startQueuedWork(_ kind: QueueKind) {
        while let (id, isBackground) = withQueue(kind, { $0.next() }) {
            guard let index = stages.index(forKey: id), case .queued(_, let work) = stages.values[index].state else {
                preconditionFailure("Internal inconsistency: queued \(id) is not queued")
            }
            let priority = stages.values[index].priority
            let token: OperationToken? = if case .load = work { nil } else { OperationToken() }
            let operation = OperationID(makeID())
            operations[operation] = Operation(queue: kind, stage: id, token: token, isBackground: isBackground)
            stages.values[index].state = .running(operation)
            if let token {
                actions.starts.append(
                    Actions.Start(operation: operation, token: token, work: work, priority: priority)
                )
                continue
            }
            pendingLoads.append((operation, work))
            actions.queuesLoads = true
            if !isLauncherScheduled {
                isLauncherScheduled = true
                actions.schedulesLauncher = true
            }
        }
    }
}
