// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

extension TaskGraph {
    /// What the runner does once the graph's lock is released, in the order of the fields.
    package struct Actions {
        package enum Delivery {
            case progress(completed: Int64, total: Int64?)
            /// A progressive JPEG's scans so far; never cached.
            case preview(PreparedImage)
            case success(StageResult)
            case failure(ImagePipeline.Error)
        }

        /// A stage's work to start; it reports back with ``TaskGraph/operationFinished(_:with:)``.
        package struct Start {
            package let operation: OperationID
            package let token: OperationToken
            package let work: Work
            package let priority: ImageRequest.Priority
        }

        /// Running work to cancel; it still reports back when it stops.
        package var cancels: [OperationToken] = []
        package var events: [ImagePipeline.Event] = []
        /// Final images to encode and store in the disk cache (see ``ProcessedImageUse``).
        package var processedImageStores: [(request: ImageRequest, image: PreparedImage)] = []
        package var deliveries: [(task: TaskRecord, delivery: Delivery)] = []
        /// Decoding and processing to start now.
        package var starts: [Start] = []
        /// Downloads were handed to the launcher (``TaskGraph/takePendingLoads()``).
        package var queuesLoads = false
        package var schedulesLauncher = false
        package var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The work of one stage; a decode's data and a process's image are boxed, so queued stages stay small.
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

    /// A memory-cache image for the request's first `processorCount` processors: the chain of process stages starts
    /// from it.
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
    }

    /// Identifies a task: one caller's ask for an image or its data (an ``ImageTask``, a `data(for:)` call).
    package struct TaskID: Hashable, Comparable, Sendable, CustomStringConvertible {
        package let rawValue: Int
        package init(_ rawValue: Int) { self.rawValue = rawValue }
        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
        package var description: String { "task \(rawValue)" }
    }

    /// Identifies a stage: work shared by every task and later stage that wants its result.
    package struct StageID: Hashable, Comparable, Sendable, CustomStringConvertible {
        package let rawValue: Int
        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
        package var description: String { "stage \(rawValue)" }
    }

    /// Identifies an operation: one run of a stage's work, which reports back under this identifier.
    package struct OperationID: Hashable, Comparable, Sendable, CustomStringConvertible {
        package let rawValue: Int
        package init(_ rawValue: Int) { self.rawValue = rawValue }
        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
        package var description: String { "operation \(rawValue)" }
    }

    /// A task in the graph: its identifier, where its progress and result go, and the stage it subscribes to.
    package struct TaskRecord {
        package let id: TaskID
        /// `nil` only where tests drive the graph without a pipeline.
        let receiver: (any TaskReceiver)?
        var stage: StageID
    }

    package enum QueueKind: Hashable {
        case data
        case decode
    }

    enum StageKind: Hashable {
        case data
        case decode
        case process

        /// The stage that makes a request's image: a decode, or a process when the request has processors.
        init(imageOf request: ImageRequest) { self = request.processors.isEmpty ? .decode : .process }
    }

    /// What a stage is found by: stages with equal keys do the same work, so a new subscriber joins the one in flight.
    struct Key: Hashable {
        let kind: StageKind
        let image: ImageCacheKey
        let policy: DataPolicy
        /// The request's own header fields: requests whose headers differ share no stage.
        let headers: [String: String]
        /// Hashed once: a stage's keys are looked up and registered several times while it lives.
        private let hash: Int

        init(kind: StageKind, image: ImageCacheKey, policy: DataPolicy, headers: [String: String]) {
            self.kind = kind
            self.image = image
            self.policy = policy
            self.headers = headers
            var hasher = Hasher()
            hasher.combine(kind)
            hasher.combine(image)
            hasher.combine(policy)
            if !headers.isEmpty { hasher.combine(headers) }
            hash = hasher.finalize()
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.hash == rhs.hash && lhs.kind == rhs.kind && lhs.policy == rhs.policy && lhs.image == rhs.image
                && lhs.headers == rhs.headers
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// Ordered as deliveries are made, deterministically: tasks by identifier, then stages.
    enum Subscriber: Hashable, Comparable {
        case task(TaskID)
        case stage(StageID)
    }

    /// A stage's subscribers with their priorities; the first is kept inline, so a stage with one allocates no table.
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

        /// Every subscriber, in delivery order.
        var ordered: [Subscriber] {
            guard let first else { return [] }
            guard !others.isEmpty else { return [first.subscriber] }
            return ([first.subscriber] + others.keys).sorted()
        }

        subscript(subscriber: Subscriber) -> ImageRequest.Priority? {
            get { first?.subscriber == subscriber ? first?.priority : others[subscriber] }
            set {
                if first == nil || first?.subscriber == subscriber, let newValue {
                    first = (subscriber, newValue)
                } else if first?.subscriber == subscriber {
                    first = others.popFirst().map { ($0.key, $0.value) }
                } else {
                    others[subscriber] = newValue
                }
            }
        }
    }

    enum StageState {
        case waiting(on: StageID)
        case queued(QueueKind, Work)
        case running(OperationID)
    }

    /// A unit of shared work: the tasks and later stages that want its result, at the highest of their priorities.
    struct Stage {
        let key: Key
        let request: ImageRequest
        var subscribers: Subscribers
        var priority: ImageRequest.Priority
        var state: StageState
        /// Its image is looked up in the disk cache first; `seed` is kept for the chain a miss attaches.
        var looksUpProcessedImage = false
        var seed: Seed?
        /// Its image, once made, is stored in the disk cache.
        var storesProcessedImage = false
    }

    /// A stage's work while it runs (and, once cancelled, until it reports back).
    struct Operation {
        let queue: QueueKind
        /// `nil` once the stage is gone (cancelled): the operation still holds its slot until it reports back.
        var stage: StageID?
        /// `nil` for a download the launcher has not taken yet.
        var token: OperationToken?
        /// Holds one of the queue's background slots (started at `.low` or below, not promoted since).
        var isBackground: Bool
        /// Gave its slot back after stalling; it still runs.
        var isParked = false
        var completedBytes: Int64 = 0
        /// A data stage past the disk cache and downloading: a reload of the same URL may join it.
        var isDownloading = false
        /// A data stage answering from the disk cache: a reload may not join it.
        var isAnsweringFromDisk = false
        /// A reload joined the data stage during its disk lookup: it must download, whatever the disk holds.
        var skipsDiskAnswer = false
    }

    // MARK: - Inspection

    /// Tasks, stages and running operations (including cancelled ones that have not stopped yet).
    package var liveCount: Int { tasks.count + stages.count + operations.count }
    package var stageCount: Int { stages.count }
    /// The priority of the stage a task subscribes to.
    package func priority(ofTask task: TaskID) -> ImageRequest.Priority? {
        tasks[task].flatMap { stages[$0.stage]?.priority }
    }
    /// The priority of the data stage for a URL.
    package func dataPriority(for url: String) -> ImageRequest.Priority? {
        stages.values.first { $0.key.kind == .data && $0.key.image.imageID == url }?.priority
    }
    /// Running downloads that gave their slot back after stalling.
    package var parkedDataLoadCount: Int { dataQueue.parkedCount }
    /// URLs of queued data stages, next to start first.
    package var queuedDataURLs: [String] { dataQueue.queuedInOrder.compactMap { stages[$0]?.key.image.imageID } }

    // MARK: Helpers

    mutating func withQueue<R>(_ kind: QueueKind, _ body: (inout WorkQueue<StageID>) -> R) -> R {
        switch kind {
        case .data: body(&dataQueue)
        case .decode: body(&decodeQueue)
        }
    }

    /// A new stage or operation identifier.
    mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    /// Forgets an operation that stopped and gives its slot back to its queue; `nil` for an unknown operation.
    mutating func release(_ operation: OperationID) -> Operation? {
        guard let finished = operations.removeValue(forKey: operation) else { return nil }
        withQueue(finished.queue) { queue in
            if finished.isParked { queue.finishParked() } else { queue.finishOne(isBackground: finished.isBackground) }
        }
        return finished
    }

    mutating func removeStage(_ id: StageID) -> Stage? {
        guard let stage = stages.removeValue(forKey: id) else { return nil }
        unregister(stage.key, of: id)
        return stage
    }

    /// Removes `key` from the stages found by key if it finds stage `id`.
    mutating func unregister(_ key: Key, of id: StageID) {
        if let index = stagesByKey.index(forKey: key), stagesByKey.values[index] == id {
            stagesByKey.remove(at: index)
        }
    }

    /// Ends an event: starts the queued work its queue has slots for, and returns the actions gathered, with the
    /// idle waiters to wake when nothing is left alive.
    mutating func takeActions() -> Actions {
        startQueuedWork(.data)
        startQueuedWork(.decode)
        if !idleWaiters.isEmpty, liveCount == 0 {
            actions.idleWaiters = idleWaiters
            idleWaiters.removeAll()
        }
        var taken = Actions()
        swap(&taken, &actions)
        return taken
    }
}

/// Where the runner delivers a task's progress and result: an ``ImageTask``, or the data-only task behind
/// ``ImagePipeline/data(for:)``.
package protocol TaskReceiver: AnyObject, Sendable {
    var id: Int { get }
    var request: ImageRequest { get }
    /// Whether the task ended (was cancelled) before it was submitted: the runner then submits nothing for it.
    var hasEnded: Bool { get }
    /// Progress, a preview, or the result; an image is in the memory cache by then, stored once for all the tasks
    /// that share it.
    func receive(_ delivery: TaskGraph.Actions.Delivery)
}
