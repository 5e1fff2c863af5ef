// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — TaskGraph: the coalescing graph of stages (load data → decode → process), as a state machine.

import Foundation

/// The bookkeeping of every request in flight, as a value type whose event methods return ``Action``s.
///
/// The pipeline's state machine (`ImagePipelineStateMachine`) owns one graph: it calls an event method under the
/// pipeline's lock, and the pipeline performs the actions once the lock is released (start work, cancel work,
/// deliver results). Each task is registered here once, with the receiver its results go to. Nothing here does
/// I/O or blocks, so tests drive the graph synchronously.
///
/// Stages, each keyed so identical work is shared:
/// - **data**, keyed by URL: load the bytes.
/// - **decode**, keyed by URL + thumbnail: decode the bytes, subscribing to a data stage.
/// - **process**, keyed by URL + thumbnail + processors: runs the last processor on the result of the same request
///   without it — a process stage for the shorter list, or the decode stage. Requests for `[p1]` and `[p1, p2]`
///   together run `p1` once; an image already in the memory cache for a prefix of the list (``Seed``) starts the
///   chain there, with no download and no decode.
///
/// A stage's subscribers are image tasks or later stages. Its priority is the highest of its subscribers';
/// a change re-ranks it in its queue and propagates to the stage it waits on. A stage is cancelled when its
/// last subscriber leaves, which may cancel the stage it waits on in turn.
package struct TaskGraph {
    /// What the pipeline must do after an event.
    package enum Action {
        /// Start a stage's work; report back with ``TaskGraph/operationFinished(_:with:)``.
        case start(operation: Int, token: OperationToken, work: Work, priority: ImageRequest.Priority)
        /// Cancel running work; it still reports back when it stops.
        case cancel(token: OperationToken)
        /// Report progress to a task.
        case progress(task: TaskRecord, completed: Int64, total: Int64?)
        /// Show a task a preview of its image (a progressive JPEG's scans so far); never cached.
        case preview(task: TaskRecord, image: Output)
        /// Complete a task; the graph has forgotten it.
        case finish(task: TaskRecord, result: Result<StageResult, ImagePipelineError>)
        /// A task joined work already in flight for the same key.
        case coalesced(task: TaskRecord, url: URL?)
        /// A download stopped because nobody wanted it any more.
        case loadCancelled(url: URL?)
        /// Store a request's final image, encoded, in the disk cache (see ``ProcessedImageUse``).
        case storeProcessedImage(request: ImageRequest, output: Output)
    }

    /// How a request uses the disk cache's entry for its final image (a thumbnail or processed image stored encoded,
    /// under the request's own key), decided by the pipeline's configuration.
    package struct ProcessedImageUse: Sendable, Equatable {
        /// Look the final image up before anything else; on a miss the usual chain of stages follows.
        package var reads: Bool
        /// Store the final image once made.
        package var stores: Bool
        /// Keep the original data in the disk cache too.
        package var keepsOriginalData: Bool

        package init(reads: Bool, stores: Bool, keepsOriginalData: Bool) {
            self.reads = reads
            self.stores = stores
            self.keepsOriginalData = keepsOriginalData
        }
    }

    /// The work of one stage.
    package enum Work {
        case load(ImageRequest)
        case decode(LoadedData, ImageRequest)
        case process(Output, ImageRequest)
        /// Read and decode the request's final image from the disk cache; report a miss with
        /// ``TaskGraph/operationMissedProcessedImage(_:)``.
        case loadProcessedImage(ImageRequest)
    }

    /// The result of a data stage: the bytes, the cache they came from (`nil` for the network), and what the disk
    /// cache does with them once decoding has judged them.
    package struct LoadedData: Sendable {
        package var response: DataLoadResponse
        package var cacheType: ImageResponse.CacheType?
        package var diskCacheTicket: DiskCacheTicket?

        package init(
            response: DataLoadResponse,
            cacheType: ImageResponse.CacheType? = nil,
            diskCacheTicket: DiskCacheTicket? = nil
        ) {
            self.response = response
            self.cacheType = cacheType
            self.diskCacheTicket = diskCacheTicket
        }
    }

    /// The result of a decode or process stage.
    package struct Output {
        package var image: PlatformImage
        package var response: HTTPResponseInfo?
        package var cacheType: ImageResponse.CacheType?
        /// Every frame, for a request that asked for them (its ``image`` is the first).
        package var animation: AnimatedImage?

        package init(
            image: PlatformImage,
            response: HTTPResponseInfo?,
            cacheType: ImageResponse.CacheType? = nil,
            animation: AnimatedImage? = nil
        ) {
            self.image = image
            self.response = response
            self.cacheType = cacheType
            self.animation = animation
        }
    }

    /// What a finished stage produced (and what a task receives: data-only tasks get `.data`).
    package enum StageResult {
        case data(LoadedData)
        case image(Output)
    }

    /// An image the pipeline already has (from the memory cache) for the request's first `processorCount`
    /// processors: the chain of process stages starts from it.
    package struct Seed {
        package var processorCount: Int
        package var output: Output

        package init(processorCount: Int, output: Output) {
            self.processorCount = processorCount
            self.output = output
        }
    }

    /// A task in the graph: its identifier, where its progress and result go, and the stage it subscribes to.
    package struct TaskRecord {
        package let id: Int
        /// `nil` only where tests drive the graph without a pipeline.
        let receiver: (any TaskReceiver)?
        fileprivate var node: Int
    }

    package enum QueueKind: Hashable {
        case data
        case decode
    }

    private enum Stage: Int, Hashable {
        case data
        case decode
        case process
    }

    private struct Key: Hashable {
        var stage: Stage
        var image: ImageCacheKey
        var policy: DataPolicy

        /// The image key's precomputed hash with the stage and policy folded in: a request looks keys up, stores
        /// and removes them several times, and none of that runs the hasher again.
        func _rawHashValue(seed: Int) -> Int {
            var bits = stage.rawValue << 4
            if policy.readsDiskCache { bits |= 1 }
            if policy.writesDiskCache { bits |= 2 }
            if policy.loadsFromNetwork { bits |= 4 }
            if policy.skipsFailureBackoff { bits |= 8 }
            return image._rawHashValue(seed: seed) ^ ((bits &+ 1) &* -7_046_029_254_386_353_131)
        }
    }

    private enum Subscriber: Hashable {
        case task(Int)
        case node(Int)
    }

    private enum NodeState {
        case waiting(on: Int)
        case queued(QueueKind, Work)
        case running(operation: Int)
    }

    private struct Node {
        let key: Key
        let request: ImageRequest
        var subscribers: [Subscriber: ImageRequest.Priority]
        var priority: ImageRequest.Priority
        var state: NodeState
        /// Its image is looked up in the disk cache first; the seed is kept for the chain a miss attaches.
        var looksUpProcessedImage = false
        var seed: Seed?
        /// Its image, once made, is stored in the disk cache.
        var storesProcessedImage = false
    }

    private struct Operation {
        let queue: QueueKind
        var node: Int?
        let token: OperationToken
        /// Holds one of the queue's background slots (started at `.low` or below, not promoted since).
        var isBackground: Bool
        /// Gave its slot back after stalling; it still runs.
        var isParked = false
        /// The bytes it has reported.
        var completedBytes: Int64 = 0
        /// A data stage that is past the disk cache and downloading: a reload of the same URL may join it.
        var isDownloading = false
    }

    private var nodes: [Int: Node] = [:]
    private var nodesByKey: [Key: Int] = [:]
    private var tasks: [Int: TaskRecord] = [:]
    private var operations: [Int: Operation] = [:]
    private var dataQueue: WorkQueue
    private var decodeQueue: WorkQueue
    private var nextID = 0
    private var actions: [Action] = []
    private let isCoalescingEnabled: Bool

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
    package var liveCount: Int { tasks.count + nodes.count + operations.count }
    /// The number of stages.
    package var stageCount: Int { nodes.count }
    /// Running operations, including cancelled ones that have not reported back.
    package var operationCount: Int { operations.count }
    /// The priority of the stage a task subscribes to.
    package func priority(ofTask task: Int) -> ImageRequest.Priority? {
        tasks[task].flatMap { nodes[$0.node]?.priority }
    }
    /// The priority of the data stage for a URL.
    package func dataPriority(for url: String) -> ImageRequest.Priority? {
        nodesByKey.first { $0.key.stage == .data && $0.key.image.url == url }.flatMap { nodes[$0.value]?.priority }
    }
    /// The bytes a running operation has reported; 0 for an unknown one.
    package func progress(ofOperation operation: Int) -> Int64 { operations[operation]?.completedBytes ?? 0 }
    /// Running downloads that gave their slot back after stalling.
    package var parkedDataLoadCount: Int { dataQueue.parkedCount }
    /// URLs of queued data stages, next to start first.
    package var queuedDataURLs: [String] { dataQueue.queuedInOrder.compactMap { nodes[$0]?.key.image.url } }

    // MARK: - Events

    /// A task asks for an image (or, `dataOnly`, for its data); `receiver` is where its results go. `seed` is an
    /// image already at hand for a prefix of the request's processors.
    mutating func submit(
        task: Int,
        request: ImageRequest,
        dataOnly: Bool = false,
        seed: Seed? = nil,
        processedImage: ProcessedImageUse? = nil,
        receiver: (any TaskReceiver)? = nil
    ) -> [Action] {
        let stage: Stage = dataOnly ? .data : request.processors.isEmpty ? .decode : .process
        var request = request
        if let processedImage, !processedImage.keepsOriginalData { request.options.insert(.disableDiskCacheWrites) }
        let node: Int
        let joined: Bool
        if !dataOnly, let processedImage, processedImage.reads,
            !isCoalescingEnabled || nodesByKey[Self.key(for: request, stage: stage)] == nil
        {
            node = lookUpProcessedImage(for: .task(task), request: request, stage: stage, seed: seed)
            joined = false
        } else {
            (node, joined) = attach(.task(task), priority: request.priority, request: request, stage: stage, seed: seed)
        }
        if !dataOnly, processedImage?.stores == true { nodes[node]!.storesProcessedImage = true }
        let record = TaskRecord(id: task, receiver: receiver, node: node)
        tasks[task] = record
        if joined { actions.append(.coalesced(task: record, url: request.url)) }
        startQueuedWork()
        return takeActions()
    }

    /// A task no longer wants its image. Cancels the stages nobody else wants.
    package mutating func cancel(task: Int) -> [Action] {
        guard let record = tasks.removeValue(forKey: task) else { return [] }
        detach(.task(task), from: record.node)
        startQueuedWork()
        return takeActions()
    }

    /// A task's priority changed.
    package mutating func setPriority(_ priority: ImageRequest.Priority, ofTask task: Int) -> [Action] {
        guard let node = tasks[task]?.node, let index = nodes.index(forKey: node) else { return [] }
        nodes.values[index].subscribers[.task(task)] = priority
        updatePriority(of: node)
        startQueuedWork()  // a promoted prefetch may have freed a background slot
        return takeActions()
    }

    /// A running operation reports progress.
    package mutating func operationProgressed(_ operation: Int, completed: Int64, total: Int64?) -> [Action] {
        operations[operation]?.completedBytes = completed
        guard let node = operations[operation]?.node else { return [] }
        for task in tasks(above: node) {
            guard let record = tasks[task] else { continue }
            actions.append(.progress(task: record, completed: completed, total: total))
        }
        return takeActions()
    }

    /// A running download decoded a preview: every task waiting on it (through later stages too) gets it. A
    /// preview of an operation that has finished or was cancelled is dropped, so none follows the final image.
    package mutating func operationPreviewed(_ operation: Int, image: Output) -> [Action] {
        guard let node = operations[operation]?.node else { return [] }
        for task in tasks(above: node) {
            guard let record = tasks[task] else { continue }
            actions.append(.preview(task: record, image: image))
        }
        return takeActions()
    }

    /// A running lookup of a final image in the disk cache found none (or none it could decode): the stage attaches
    /// the usual chain (from its seed, a shorter stage or the data) and waits on it.
    package mutating func operationMissedProcessedImage(_ operation: Int) -> [Action] {
        let finished = release(operation)
        if let id = finished.node, let index = nodes.index(forKey: id) {
            nodes.values[index].looksUpProcessedImage = false
            let node = nodes.values[index]
            nodes.values[index].seed = nil
            _ = attachDependency(
                of: id,
                stage: node.key.stage,
                request: node.request,
                priority: node.priority,
                seed: node.seed
            )
        }
        startQueuedWork()
        return takeActions()
    }

    /// A running operation stopped, with its result. Results of cancelled operations are dropped.
    package mutating func operationFinished(
        _ operation: Int,
        with result: Result<StageResult, ImagePipelineError>
    ) -> [Action] {
        let finished = release(operation)
        if let id = finished.node, let node = removeNode(id) {
            switch result {
            case .success(let value):
                // Made here (not read back from the disk cache): stored for the next launch.
                if node.storesProcessedImage, !node.looksUpProcessedImage, case .image(let output) = value,
                    output.animation == nil
                {
                    actions.append(.storeProcessedImage(request: node.request, output: output))
                }
                complete(node, with: value)
            case .failure(let error):
                fail(node, with: error)
            }
        }
        startQueuedWork()
        return takeActions()
    }

    /// A data stage's operation missed the disk cache and is downloading: from now on a request that reloads the
    /// URL, ignoring cached data, joins it instead of downloading again.
    package mutating func operationStartedDownload(_ operation: Int) {
        operations[operation]?.isDownloading = true
    }

    /// A running download has received (almost) nothing for a while: it keeps running, but gives its slot to the
    /// next queued download. Each operation is parked at most once, and at most as many as the download limit.
    package mutating func operationStalled(_ operation: Int) -> [Action] {
        guard let running = operations[operation], running.queue == .data, !running.isParked else { return [] }
        guard dataQueue.park(isBackground: running.isBackground) else { return [] }
        operations[operation]!.isParked = true
        operations[operation]!.isBackground = false
        startQueuedWork()
        return takeActions()
    }

    /// Fails every task with `error` and cancels all work.
    package mutating func failAll(with error: ImagePipelineError) -> [Action] {
        for task in tasks.keys.sorted() {
            actions.append(.finish(task: tasks[task]!, result: .failure(error)))
        }
        tasks.removeAll()
        for id in nodes.keys.sorted() {
            guard let node = removeNode(id) else { continue }
            switch node.state {
            case .waiting: break
            case .queued(let kind, _): withQueue(kind) { $0.remove(id, priority: node.priority) }
            case .running(let operation): cancelOperation(operation, of: node)
            }
        }
        return takeActions()
    }

    // MARK: - Subscriptions

    /// Subscribes to the stage for `request`, creating it (and the stages it waits on) if needed.
    private mutating func attach(
        _ subscriber: Subscriber,
        priority: ImageRequest.Priority,
        request: ImageRequest,
        stage: Stage,
        seed: Seed? = nil
    ) -> (node: Int, joined: Bool) {
        let key = Self.key(for: request, stage: stage)
        if isCoalescingEnabled, let existing = nodesByKey[key] ?? downloadJoinableByReload(key) {
            nodes[existing]!.subscribers[subscriber] = priority
            updatePriority(of: existing)
            return (existing, true)
        }
        let id = makeID()
        nodes[id] = Node(
            key: key,
            request: request,
            subscribers: [subscriber: priority],
            priority: priority,
            state: .waiting(on: -1)
        )
        if isCoalescingEnabled { nodesByKey[key] = id }
        return (id, attachDependency(of: id, stage: stage, request: request, priority: priority, seed: seed))
    }

    /// A stage whose first work is to look its final image up in the disk cache (on the data queue: it reads a
    /// file), before any stage it would wait on exists.
    private mutating func lookUpProcessedImage(
        for subscriber: Subscriber,
        request: ImageRequest,
        stage: Stage,
        seed: Seed?
    ) -> Int {
        let key = Self.key(for: request, stage: stage)
        let id = makeID()
        var node = Node(
            key: key,
            request: request,
            subscribers: [subscriber: request.priority],
            priority: request.priority,
            state: .queued(.data, .loadProcessedImage(request))
        )
        node.looksUpProcessedImage = true
        node.seed = seed
        nodes[id] = node
        if isCoalescingEnabled { nodesByKey[key] = id }
        dataQueue.enqueue(id, priority: request.priority)
        return id
    }

    /// Creates (or joins) what a new stage waits on and sets its state; returns whether it joined work in flight.
    private mutating func attachDependency(
        of id: Int,
        stage: Stage,
        request: ImageRequest,
        priority: ImageRequest.Priority,
        seed: Seed?
    ) -> Bool {
        let joined: Bool
        switch stage {
        case .data:
            nodes[id]!.state = .queued(.data, .load(request))
            dataQueue.enqueue(id, priority: priority)
            joined = false
        case .decode:
            let dependency = attach(.node(id), priority: priority, request: request, stage: .data)
            nodes[id]!.state = .waiting(on: dependency.node)
            joined = dependency.joined
        case .process:
            if let seed, seed.processorCount == request.processors.count - 1 {
                // The image before the last processor is at hand: only the last processor runs.
                nodes[id]!.state = .queued(.decode, .process(seed.output, request))
                decodeQueue.enqueue(id, priority: priority)
                joined = false
            } else {
                var shorter = request
                shorter.processors.removeLast()
                let dependency = attach(
                    .node(id),
                    priority: priority,
                    request: shorter,
                    stage: shorter.processors.isEmpty ? .decode : .process,
                    seed: seed
                )
                nodes[id]!.state = .waiting(on: dependency.node)
                joined = dependency.joined
            }
        }
        return joined
    }

    /// For a data stage that reloads (skips the disk cache but may load from the network): the stage of the same
    /// URL that differs only in reading the disk cache, if it is downloading already (so it will not answer from
    /// the disk) — or still queued, in which case it is made to skip the disk cache too. One download serves both.
    private mutating func downloadJoinableByReload(_ key: Key) -> Int? {
        guard key.stage == .data, !key.policy.readsDiskCache, key.policy.loadsFromNetwork else { return nil }
        var reading = key
        reading.policy.readsDiskCache = true
        guard let existing = nodesByKey[reading], let index = nodes.index(forKey: existing) else { return nil }
        switch nodes.values[index].state {
        case .running(let operation):
            return operations[operation]?.isDownloading == true ? existing : nil
        case .queued(let kind, .load(var request)):
            request.options.insert(.disableDiskCacheReads)
            nodes.values[index].state = .queued(kind, .load(request))
            return existing
        case .queued, .waiting:
            return nil
        }
    }

    private mutating func detach(_ subscriber: Subscriber, from id: Int) {
        // Through the index: reading `nodes[id]` would copy the whole node.
        guard let index = nodes.index(forKey: id) else { return }
        nodes.values[index].subscribers[subscriber] = nil
        if nodes.values[index].subscribers.isEmpty {
            guard let node = removeNode(id) else { return }
            switch node.state {
            case .waiting(let dependency):
                detach(.node(id), from: dependency)
            case .queued(let kind, _):
                withQueue(kind) { $0.remove(id, priority: node.priority) }
            case .running(let operation):
                cancelOperation(operation, of: node)
            }
        } else {
            updatePriority(of: id)
        }
    }

    private mutating func cancelOperation(_ operation: Int, of node: Node) {
        guard let token = operations[operation]?.token else { return }
        operations[operation]!.node = nil
        actions.append(.cancel(token: token))
        if node.key.stage == .data { actions.append(.loadCancelled(url: node.request.url)) }
    }

    /// Recomputes a stage's priority from its subscribers and passes a change on.
    private mutating func updatePriority(of id: Int) {
        guard let index = nodes.index(forKey: id) else { return }
        let old = nodes.values[index].priority
        let priority = nodes.values[index].subscribers.values.max() ?? old
        guard priority != old else { return }
        nodes.values[index].priority = priority
        switch nodes.values[index].state {
        case .waiting(let dependency):
            guard let dependencyIndex = nodes.index(forKey: dependency) else { return }
            nodes.values[dependencyIndex].subscribers[.node(id)] = priority
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

    private mutating func complete(_ node: Node, with value: StageResult) {
        for subscriber in node.subscribers.keys.sorted(by: Self.order) {
            switch (subscriber, value) {
            case (.task(let task), _):
                if let record = tasks.removeValue(forKey: task) {
                    actions.append(.finish(task: record, result: .success(value)))
                }
            case (.node(let child), .data(let data)):
                enqueue(child, work: .decode(data, nodes[child]!.request))
            case (.node(let child), .image(let output)):
                enqueue(child, work: .process(output, nodes[child]!.request))
            }
        }
    }

    private mutating func enqueue(_ id: Int, work: Work) {
        nodes[id]!.state = .queued(.decode, work)
        decodeQueue.enqueue(id, priority: nodes[id]!.priority)
    }

    private mutating func fail(_ node: Node, with error: ImagePipelineError) {
        for subscriber in node.subscribers.keys.sorted(by: Self.order) {
            switch subscriber {
            case .task(let task):
                if let record = tasks.removeValue(forKey: task) {
                    actions.append(.finish(task: record, result: .failure(error)))
                }
            case .node(let child):
                if let child = removeNode(child) { fail(child, with: error) }
            }
        }
    }

    private mutating func startQueuedWork() {
        startQueuedWork(.data)
        startQueuedWork(.decode)
    }

    private mutating func startQueuedWork(_ kind: QueueKind) {
        while let (id, isBackground) = withQueue(kind, { $0.next() }) {
            guard let index = nodes.index(forKey: id), case .queued(_, let work) = nodes.values[index].state else {
                preconditionFailure("Internal inconsistency: queued stage \(id) is not queued")
            }
            let operation = makeID()
            let token = OperationToken()
            operations[operation] = Operation(queue: kind, node: id, token: token, isBackground: isBackground)
            nodes.values[index].state = .running(operation: operation)
            let priority = nodes.values[index].priority
            actions.append(.start(operation: operation, token: token, work: work, priority: priority))
        }
    }

    // MARK: - Helpers

    /// Forgets an operation that stopped and gives its slot back to its queue.
    private mutating func release(_ operation: Int) -> Operation {
        guard let finished = operations.removeValue(forKey: operation) else {
            preconditionFailure("Internal inconsistency: unknown operation \(operation) stopped")
        }
        withQueue(finished.queue) { queue in
            if finished.isParked { queue.finishParked() } else { queue.finishOne(isBackground: finished.isBackground) }
        }
        return finished
    }

    private mutating func removeNode(_ id: Int) -> Node? {
        guard let node = nodes.removeValue(forKey: id) else { return nil }
        if nodesByKey[node.key] == id { nodesByKey[node.key] = nil }
        return node
    }

    /// Every task that (directly or through later stages) waits on a stage.
    private func tasks(above id: Int) -> [Int] {
        guard let node = nodes[id] else { return [] }
        return node.subscribers.keys.sorted(by: Self.order).flatMap { subscriber -> [Int] in
            switch subscriber {
            case .task(let task): [task]
            case .node(let child): tasks(above: child)
            }
        }
    }

    private mutating func withQueue<R>(_ kind: QueueKind, _ body: (inout WorkQueue) -> R) -> R {
        switch kind {
        case .data: body(&dataQueue)
        case .decode: body(&decodeQueue)
        }
    }

    private mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    private mutating func takeActions() -> [Action] {
        defer { actions.removeAll(keepingCapacity: true) }
        return actions
    }

    private static func key(for request: ImageRequest, stage: Stage) -> Key {
        switch stage {
        case .data: Key(stage: .data, image: request.dataKey, policy: request.dataPolicy)
        case .decode: Key(stage: .decode, image: request.decodeKey, policy: request.dataPolicy)
        case .process: Key(stage: .process, image: request.imageKey, policy: request.dataPolicy)
        }
    }

    /// Deterministic delivery order: tasks by identifier, then stages.
    private static func order(_ lhs: Subscriber, _ rhs: Subscriber) -> Bool {
        switch (lhs, rhs) {
        case (.task(let a), .task(let b)), (.node(let a), .node(let b)): a < b
        case (.task, .node): true
        case (.node, .task): false
        }
    }
}

#if LOOKAHEAD_NONSENDABLE_IMAGE
// SAFETY: where the platform image is not `Sendable` (NSImage on macOS 13, and the Linux stand-in that type-checks
// that case), it is only ever an image the pipeline made from a finished CGImage (or Bitmap) and never mutates
// afterwards; AppKit documents such images as safe to hand to other threads for drawing.
extension TaskGraph.Output: @unchecked Sendable {}
#else
extension TaskGraph.Output: Sendable {}
#endif
