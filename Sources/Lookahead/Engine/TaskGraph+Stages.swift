// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

// MARK: - Subscriptions

extension TaskGraph {
    /// Subscribes to the stage for `request`, creating it (and the stages it waits on) if needed.
    mutating func attach(
        _ subscriber: Subscriber,
        priority: ImageRequest.Priority,
        request: ImageRequest,
        kind: StageKind,
        seed: Seed? = nil
    ) -> (stage: Int, joined: Bool) {
        let key = Self.key(for: request, kind: kind)
        if isCoalescingEnabled, let existing = stagesByKey[key] ?? downloadJoinableByReload(key) {
            stages[existing]!.subscribers[subscriber] = priority
            updatePriority(of: existing)
            return (existing, true)
        }
        let id = makeID()
        stages[id] = Stage(
            key: key,
            request: request,
            subscribers: [subscriber: priority],
            priority: priority,
            state: .waiting(on: -1)
        )
        if isCoalescingEnabled { stagesByKey[key] = id }
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
        let id = makeID()
        var stage = Stage(
            key: Self.key(for: request, kind: kind),
            request: request,
            subscribers: [subscriber: request.priority],
            priority: request.priority,
            state: .queued(.data, .loadProcessedImage(request))
        )
        stage.looksUpProcessedImage = true
        stage.seed = seed
        stages[id] = stage
        if isCoalescingEnabled { stagesByKey[stage.key] = id }
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
            let dependency = attach(.stage(id), priority: priority, request: request, kind: .data)
            stages[id]!.state = .waiting(on: dependency.stage)
            return dependency.joined
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

    /// For a data stage that reloads (skips the disk cache but may load from the network): the stage of the same
    /// URL that differs only in reading the disk cache, if it is downloading already (so it will not answer from
    /// the disk) — or still queued, in which case it is made to skip the disk cache too. One download serves both.
    private mutating func downloadJoinableByReload(_ key: Key) -> Int? {
        guard key.kind == .data, !key.policy.readsDiskCache, key.policy.loadsFromNetwork else { return nil }
        var reading = key
        reading.policy.readsDiskCache = true
        guard let existing = stagesByKey[reading], let index = stages.index(forKey: existing) else { return nil }
        switch stages.values[index].state {
        case .running(let operation):
            return operations[operation]?.isDownloading == true ? existing : nil
        case .queued(let kind, .load(var request)):
            request.options.insert(.disableDiskCacheReads)
            stages.values[index].state = .queued(kind, .load(request))
            return existing
        case .queued, .waiting:
            return nil
        }
    }

    mutating func detach(_ subscriber: Subscriber, from id: Int) {
        // Through the index: reading `stages[id]` would copy the whole stage.
        guard let index = stages.index(forKey: id) else { return }
        stages.values[index].subscribers[subscriber] = nil
        guard stages.values[index].subscribers.isEmpty else { return updatePriority(of: id) }
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
        guard let token = operations[operation]?.token else { return }
        operations[operation]!.stage = nil
        if stage.key.kind == .data, let url = stage.request.url { actions.events.append(.dataLoadCancelled(url)) }
        if pendingLoads.contains(where: { $0.operation == operation }) {
            _ = release(operation)
        } else {
            actions.cancels.append(token)
        }
    }

    /// Recomputes a stage's priority from its subscribers and passes a change on.
    mutating func updatePriority(of id: Int) {
        guard let index = stages.index(forKey: id) else { return }
        let old = stages.values[index].priority
        let priority = stages.values[index].subscribers.values.max() ?? old
        guard priority != old else { return }
        stages.values[index].priority = priority
        switch stages.values[index].state {
        case .waiting(let dependency):
            guard let dependencyIndex = stages.index(forKey: dependency) else { return }
            stages.values[dependencyIndex].subscribers[.stage(id)] = priority
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
}

// MARK: - Completion

extension TaskGraph {
    mutating func complete(_ stage: Stage, with value: StageResult) {
        for subscriber in stage.subscribers.keys.sorted(by: Self.order) {
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
        for subscriber in stage.subscribers.keys.sorted(by: Self.order) {
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
            guard let index = stages.index(forKey: id), case .queued(_, let work) = stages.values[index].state else {
                preconditionFailure("Internal inconsistency: queued stage \(id) is not queued")
            }
            let operation = makeID()
            let token = OperationToken()
            operations[operation] = Operation(queue: kind, stage: id, token: token, isBackground: isBackground)
            stages.values[index].state = .running(operation: operation)
            let start = Actions.Start(
                operation: operation,
                token: token,
                work: work,
                priority: stages.values[index].priority
            )
            guard case .load = work else {
                actions.starts.append(start)
                continue
            }
            pendingLoads.append(start)
            actions.queuedLoads.append(start)
            if !isLauncherScheduled {
                isLauncherScheduled = true
                actions.schedulesLauncher = true
            }
        }
    }
}

// MARK: - Helpers

extension TaskGraph {
    /// Forgets an operation that stopped and gives its slot back to its queue.
    mutating func release(_ operation: Int) -> Operation {
        guard let finished = operations.removeValue(forKey: operation) else {
            preconditionFailure("Internal inconsistency: unknown operation \(operation) stopped")
        }
        // Only where tests finish a download the launcher never took.
        if !pendingLoads.isEmpty, let index = pendingLoads.firstIndex(where: { $0.operation == operation }) {
            pendingLoads.remove(at: index)
        }
        withQueue(finished.queue) { queue in
            if finished.isParked { queue.finishParked() } else { queue.finishOne(isBackground: finished.isBackground) }
        }
        return finished
    }

    mutating func removeStage(_ id: Int) -> Stage? {
        guard let stage = stages.removeValue(forKey: id) else { return nil }
        if stagesByKey[stage.key] == id { stagesByKey[stage.key] = nil }
        return stage
    }

    /// Every task that (directly or through later stages) waits on a stage.
    func tasks(above id: Int) -> [Int] {
        guard let stage = stages[id] else { return [] }
        return stage.subscribers.keys.sorted(by: Self.order).flatMap { subscriber -> [Int] in
            switch subscriber {
            case .task(let task): [task]
            case .stage(let child): tasks(above: child)
            }
        }
    }

    mutating func withQueue<R>(_ kind: QueueKind, _ body: (inout WorkQueue) -> R) -> R {
        switch kind {
        case .data: body(&dataQueue)
        case .decode: body(&decodeQueue)
        }
    }

    mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    /// The actions gathered by the event, with the idle waiters to wake when nothing is left alive.
    mutating func takeActions() -> Actions {
        if !idleWaiters.isEmpty, liveCount == 0 {
            actions.idleWaiters = idleWaiters
            idleWaiters.removeAll()
        }
        defer { actions = Actions() }
        return actions
    }

    static func key(for request: ImageRequest, kind: StageKind) -> Key {
        switch kind {
        case .data: Key(kind: .data, image: request.dataKey, policy: request.dataPolicy)
        case .decode: Key(kind: .decode, image: request.decodeKey, policy: request.dataPolicy)
        case .process: Key(kind: .process, image: request.imageKey, policy: request.dataPolicy)
        }
    }

    /// Deterministic delivery order: tasks by identifier, then stages.
    static func order(_ lhs: Subscriber, _ rhs: Subscriber) -> Bool {
        switch (lhs, rhs) {
        case (.task(let a), .task(let b)), (.stage(let a), .stage(let b)): a < b
        case (.task, .stage): true
        case (.stage, .task): false
        }
    }
}
