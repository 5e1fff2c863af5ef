// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

extension TaskGraph {
    /// What the runner does once the graph's lock is released, in this order: cancel work, send events, store
    /// final images, deliver to tasks, start work, schedule the launcher, wake idle waiters.
    package struct Actions {
        package enum Delivery {
            case progress(completed: Int64, total: Int64?)
            /// A progressive JPEG's scans so far; never cached.
            case preview(PreparedImage)
            case success(StageResult)
            case failure(ImagePipelineError)
        }

        /// A stage's work to start; it reports back with ``TaskGraph/operationFinished(_:with:)``.
        package struct Start {
            package let operation: Int
            package let token: OperationToken
            package let work: Work
            package let priority: ImageRequest.Priority
        }

        /// Running work to cancel; it still reports back when it stops.
        package var cancels: [OperationToken] = []
        package var events: [ImagePipeline.Event] = []
        package var deliveries: [(task: TaskRecord, delivery: Delivery)] = []
        /// Decoding and processing to start now.
        package var starts: [Start] = []
        /// Downloads were handed to the launcher, which takes them with ``TaskGraph/takePendingLoads()``: a
        /// download cancelled before then costs no Swift task. A flag, not the list: every start would otherwise
        /// allocate one that nobody reads.
        package var queuesLoads = false
        /// Schedule the launcher task.
        package var schedulesLauncher = false
        /// Final images to encode and store in the disk cache (see ``ProcessedImageUse``).
        package var processedImageStores: [(request: ImageRequest, image: PreparedImage)] = []
        package var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The work of one stage. A decode's data and a process's image are boxed: every stage holds its work while
    /// queued, and a plain download's stage should not carry a decoded image's worth of bytes through each copy.
    package enum Work {
        case load(ImageRequest)
        indirect case decode(LoadedData, ImageRequest)
        indirect case process(PreparedImage, ImageRequest)
        /// Read and decode the request's final image from the disk cache; a miss is reported with
        /// ``TaskGraph/operationMissedProcessedImage(_:)``.
        case loadProcessedImage(ImageRequest)
    }

    /// What a finished stage produced, and what a task receives: data-only tasks get `.data`. Boxed, as ``Work``.
    package indirect enum StageResult {
        case data(LoadedData)
        case image(PreparedImage)
    }

    /// An image already at hand (from the memory cache) for the request's first `processorCount` processors: the
    /// chain of process stages starts from it. A reference, so the stages that keep it stay small.
    package final class Seed: Sendable {
        let processorCount: Int
        let output: PreparedImage

        init(processorCount: Int, output: PreparedImage) {
            self.processorCount = processorCount
            self.output = output
        }
    }

    /// How a request uses the disk cache's entry for its final image, decided by the configuration.
    package struct ProcessedImageUse: Sendable, Equatable {
        /// Look the final image up before anything else; a miss attaches the usual chain of stages.
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

    /// A task in the graph: its identifier, where its progress and result go, and the stage it subscribes to.
    package struct TaskRecord {
        package let id: Int
        /// `nil` only where tests drive the graph without a pipeline.
        let receiver: (any TaskReceiver)?
        var stage: Int
    }

    package enum QueueKind: Hashable {
        case data
        case decode
    }

    enum StageKind: Int, Hashable {
        case data
        case decode
        case process
    }

    struct Key: Equatable {
        var kind: StageKind
        var image: ImageCacheKey
        var policy: DataPolicy
        /// The request's own header fields: requests whose headers differ share no stage.
        var headers: [String: String]

        /// The cheap comparisons first; most keys that share a hash are equal.
        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.kind == rhs.kind && lhs.policy == rhs.policy && lhs.image == rhs.image && lhs.headers == rhs.headers
        }

        /// What the graph finds a stage by: the key's hash, a word that copies and compares for free.
        struct Hash: Hashable {
            let bits: Int

            func hash(into hasher: inout Hasher) { hasher.combine(bits) }

            /// The bits are a hash already.
            func _rawHashValue(seed: Int) -> Int { bits ^ seed }
        }

        /// The image key's precomputed hash with the kind and policy folded in: no hasher runs for it.
        var hash: Hash {
            var bits = kind.rawValue << 4
            if policy.readsDiskCache { bits |= 1 }
            if policy.writesDiskCache { bits |= 2 }
            if policy.loadsFromNetwork { bits |= 4 }
            if policy.skipsFailureBackoff { bits |= 8 }
            let hash = image._rawHashValue(seed: 0) ^ ((bits &+ 1) &* -7_046_029_254_386_353_131)
            return Hash(bits: headers.isEmpty ? hash : hash ^ headers.hashValue)
        }
    }

    enum Subscriber: Hashable {
        case task(Int)
        case stage(Int)
    }

    /// A stage's subscribers with their priorities. Nearly every stage has one, kept inline: a plain request's two
    /// stages allocate no table for it.
    struct Subscribers {
        private var first: (subscriber: Subscriber, priority: ImageRequest.Priority)?
        /// The others, when there are more than one; empty unless `first` is set.
        private var others: [Subscriber: ImageRequest.Priority] = [:]

        init(_ subscriber: Subscriber, priority: ImageRequest.Priority) {
            first = (subscriber, priority)
        }

        var isEmpty: Bool { first == nil }

        /// The highest priority among them.
        var highestPriority: ImageRequest.Priority? {
            guard let first else { return nil }
            return others.values.reduce(first.priority) { max($0, $1) }
        }

        /// Every subscriber, in delivery order (``TaskGraph/order(_:_:)``).
        var ordered: [Subscriber] {
            guard let first else { return [] }
            guard !others.isEmpty else { return [first.subscriber] }
            return ([first.subscriber] + others.keys).sorted(by: TaskGraph.order)
        }

        subscript(subscriber: Subscriber) -> ImageRequest.Priority? {
            get { first?.subscriber == subscriber ? first?.priority : others[subscriber] }
            set {
                if first?.subscriber == subscriber {
                    if let newValue {
                        first = (subscriber, newValue)
                    } else {
                        first = others.popFirst().map { ($0.key, $0.value) }
                    }
                } else if let newValue, first == nil {
                    first = (subscriber, newValue)
                } else {
                    others[subscriber] = newValue
                }
            }
        }
    }

    enum StageState {
        case waiting(on: Int)
        case queued(QueueKind, Work)
        case running(operation: Int)
    }

    /// A unit of shared work: the tasks and later stages that want its result, at the highest of their priorities.
    struct Stage {
        let key: Key
        let request: ImageRequest
        var subscribers: Subscribers
        var priority: ImageRequest.Priority
        var state: StageState
        /// Its image is looked up in the disk cache first; the seed is kept for the chain a miss attaches.
        var looksUpProcessedImage = false
        var seed: Seed?
        /// Its image, once made, is stored in the disk cache.
        var storesProcessedImage = false
        /// A decode stage loading its own data: the hash of the data stage's key, under which it is found too. The
        /// key itself is made from the request when needed (rarely): kept, it would be copied with every stage.
        var ownDataHash: Key.Hash?

        /// The data stage's key, while the stage loads its own data.
        var ownDataKey: Key? { ownDataHash == nil ? nil : TaskGraph.key(for: request, kind: .data) }
    }

    /// A download handed to the launcher, which has not taken it yet; it starts at its stage's priority then.
    struct PendingLoad {
        let operation: Int
        let work: Work
    }

    /// A stage's work while it runs (and, once cancelled, until it reports back).
    struct Operation {
        let queue: QueueKind
        var stage: Int?
        /// `nil` for a download the launcher has not taken yet.
        var token: OperationToken?
        /// Holds one of the queue's background slots (started at `.low` or below, not promoted since).
        var isBackground: Bool
        /// Gave its slot back after stalling; it still runs.
        var isParked = false
        /// The bytes it has reported.
        var completedBytes: Int64 = 0
        /// A data stage past the disk cache and downloading: a reload of the same URL may join it.
        var isDownloading = false
        /// A data stage answering from the disk cache: a reload may not join it.
        var isAnsweringFromDisk = false
        /// A reload joined the data stage during its disk lookup: it must download, whatever the disk holds.
        var skipsDiskAnswer = false
    }
}

// MARK: - Inspection and keys

extension TaskGraph {
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
        stagesByKey.values.lazy.compactMap { stages[$0] }
            .first { ($0.key.kind == .data ? $0.key : $0.ownDataKey)?.image.imageID == url }?.priority
    }
    /// The bytes a running operation has reported; 0 for an unknown one.
    package func progress(ofOperation operation: Int) -> Int64 { operations[operation]?.completedBytes ?? 0 }
    /// Running downloads that gave their slot back after stalling.
    package var parkedDataLoadCount: Int { dataQueue.parkedCount }
    /// URLs of queued data stages, next to start first.
    package var queuedDataURLs: [String] { dataQueue.queuedInOrder.compactMap { stages[$0]?.key.image.imageID } }

    mutating func withQueue<R>(_ kind: QueueKind, _ body: (inout WorkQueue) -> R) -> R {
        switch kind {
        case .data: body(&dataQueue)
        case .decode: body(&decodeQueue)
        }
    }

    static func key(for request: ImageRequest, kind: StageKind) -> Key {
        switch kind {
        case .data: Key(kind: .data, image: request.dataKey, policy: request.dataPolicy, headers: request.headers)
        case .decode: Key(kind: .decode, image: request.decodeKey, policy: request.dataPolicy, headers: request.headers)
        case .process:
            Key(kind: .process, image: request.imageKey, policy: request.dataPolicy, headers: request.headers)
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

    // MARK: Helpers

    /// Forgets an operation that stopped and gives its slot back to its queue.
    mutating func release(_ operation: Int) -> Operation {
        guard let finished = operations.remove(operation) else {
            preconditionFailure("Internal inconsistency: unknown operation \(operation) stopped")
        }
        withQueue(finished.queue) { queue in
            if finished.isParked { queue.finishParked() } else { queue.finishOne(isBackground: finished.isBackground) }
        }
        return finished
    }

    mutating func removeStage(_ id: Int) -> Stage? {
        guard let stage = stages.remove(id) else { return nil }
        unregister(stage.key.hash, of: id)
        if let hash = stage.ownDataHash { unregister(hash, of: id) }
        return stage
    }

    /// Removes a decode stage that loads its own data from under the data key.
    mutating func unregisterOwnData(of id: Int) {
        if let hash = stages[id]?.ownDataHash { unregister(hash, of: id) }
    }

    /// The stage found under `key`: a stage's own key, or the data key of a decode stage loading its own data.
    func existingStage(for key: Key) -> Int? {
        // Compared where the stage lies: binding it would copy the whole stage.
        guard let id = stagesByKey[key.hash], stages.contains(id) else { return nil }
        if stages[id]!.key == key { return id }
        return stages[id]!.ownDataHash == key.hash && stages[id]!.ownDataKey == key ? id : nil
    }

    mutating func register(_ key: Key, _ id: Int) {
        stagesByKey[key.hash] = id
    }

    /// Removes a key's hash from the stages found by key if it finds stage `id` (one lookup, not two).
    private mutating func unregister(_ hash: Key.Hash, of id: Int) {
        if let index = stagesByKey.index(forKey: hash), stagesByKey.values[index] == id {
            stagesByKey.remove(at: index)
        }
    }

    /// Every task that (directly or through later stages) waits on a stage.
    func tasks(above id: Int) -> [Int] {
        guard let stage = stages[id] else { return [] }
        return stage.subscribers.ordered.flatMap { subscriber -> [Int] in
            switch subscriber {
            case .task(let task): [task]
            case .stage(let child): tasks(above: child)
            }
        }
    }

    /// The actions gathered by the event, with the idle waiters to wake when nothing is left alive.
    mutating func takeActions() -> Actions {
        if !idleWaiters.isEmpty, liveCount == 0 {
            actions.idleWaiters = idleWaiters
            idleWaiters.removeAll()
        }
        var taken = Actions()
        swap(&taken, &actions)
        return taken
    }
}
