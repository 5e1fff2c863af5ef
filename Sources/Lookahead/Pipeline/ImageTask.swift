// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// A request in flight. Created by ``ImagePipeline/imageTask(with:)``.
/// - Important: Thread safe. `cancel()` is idempotent; results arriving after it are dropped.
public final class ImageTask: Sendable {
    /// Something that happened to a task.
    public enum Event: Sendable {
        /// The task started (delivered again to subscribers that arrive while it runs).
        case started
        /// Bytes arrived: completed so far and the expected total, when known.
        case progress(completed: Int64, total: Int64?)
        /// A preview while the image downloads (``ImagePipeline/Configuration/isProgressiveDecodingEnabled``): with
        /// `isPreview` set, at the thumbnail size, unprocessed, never cached. Zero or more, before the final event.
        case preview(ImageResponse)
        /// The task finished with an image or an error. Always the last event unless cancelled.
        case finished(Result<ImageResponse, ImagePipeline.Error>)
        /// The task was cancelled. Always the last event.
        case cancelled
    }

    /// Where a task is in its life.
    public enum State: Sendable, Equatable {
        case running
        case completed
        case cancelled
    }

    private struct Storage {
        var priority: ImageRequest.Priority
        var result: Result<ImageResponse, ImagePipeline.Error>?
        var isCancelled = false
        var lastProgress: (completed: Int64, total: Int64?)?
        var lastPreview: Preview?
        var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextSubscriberID = 0
        var completions: [@Sendable (Result<ImageResponse, ImagePipeline.Error>) -> Void] = []
        /// The handlers of ``onProgress(_:)`` and ``onPreview(_:)``, each taking the events it wants.
        var handlers: [@Sendable (Event) -> Void] = []

        /// Whether the final event happened (a cancellation sets the result too).
        var hasEnded: Bool { result != nil }
    }

    /// The last preview of a running task, boxed: most tasks never have one.
    private final class Preview {
        let response: ImageResponse

        init(_ response: ImageResponse) { self.response = response }
    }

    /// Unique among the tasks of a process.
    public let id: Int
    /// The request, with the priority it was created with.
    public let request: ImageRequest
    private let runner: PipelineRunner
    private let storage: Locked<Storage>
    /// Receives the task's metrics when it ends; `nil` unless the pipeline's configuration asks for them.
    private let metricsHandler: (@Sendable (ImageTaskMetrics) -> Void)?
    private let createdAt: ContinuousClock.Instant?

    init(
        id: Int,
        request: ImageRequest,
        runner: PipelineRunner,
        metricsHandler: (@Sendable (ImageTaskMetrics) -> Void)? = nil
    ) {
        self.id = id
        self.request = request
        self.runner = runner
        self.storage = Locked(Storage(priority: request.priority))
        self.metricsHandler = metricsHandler
        self.createdAt = metricsHandler == nil ? nil : .now
    }

    /// The current priority. Changing it re-ranks the shared work this task waits on.
    public var priority: ImageRequest.Priority {
        get { storage.withLock { $0.priority } }
        set {
            let changed = storage.withLock { storage in
                guard !storage.hasEnded, storage.priority != newValue else { return false }
                storage.priority = newValue
                return true
            }
            // The graph reads the priority under its lock: concurrent changes reach it in the order the task saw
            // them, and the last one wins in both places.
            if changed { runner.run { $0.setPriority(self.priority, ofTask: TaskGraph.TaskID(self.id)) } }
        }
    }

    /// Whether the task is running, completed or cancelled.
    public var state: State {
        storage.withLock { $0.isCancelled ? .cancelled : $0.hasEnded ? .completed : .running }
    }

    /// Cancels the task. Work shared with other tasks goes on; work only this task wanted stops.
    public func cancel() {
        if finish(.failure(.cancelled)) {
            runner.run { $0.cancel(task: TaskGraph.TaskID(id)) }
        }
    }

    /// The task's events: `.started`, `.progress`…, `.preview`…, then `.finished` or `.cancelled`. A subscriber
    /// arriving while it runs gets `.started`, the last progress and preview first; later, the final event only.
    public var events: AsyncStream<Event> {
        AsyncStream { continuation in
            // Replayed under the lock, so no event sent meanwhile overtakes them (yielding runs no outside code).
            storage.withLock { storage in
                if let result = storage.result {
                    continuation.yield(storage.isCancelled ? .cancelled : .finished(result))
                    continuation.finish()
                    return
                }
                let id = storage.nextSubscriberID
                storage.nextSubscriberID += 1
                storage.subscribers[id] = continuation
                continuation.onTermination = { [weak self] _ in
                    self?.storage.withLock { _ = $0.subscribers.removeValue(forKey: id) }
                }
                continuation.yield(.started)
                if let progress = storage.lastProgress {
                    continuation.yield(.progress(completed: progress.completed, total: progress.total))
                }
                if let preview = storage.lastPreview { continuation.yield(.preview(preview.response)) }
            }
        }
    }

    /// The response, once the task finishes. Cancelling the awaiting Swift task cancels this task.
    public var response: ImageResponse {
        get async throws(ImagePipeline.Error) {
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in onFinish { continuation.resume(returning: $0) } }
            } onCancel: {
                self.cancel()
            }
            return try result.get()
        }
    }

    /// Calls `completion` once with the final result: at once if the task has finished, else on the thread that
    /// finishes it (a cancellation delivers `.cancelled` on the cancelling thread). No Swift task is created.
    public func onFinish(_ completion: @escaping @Sendable (Result<ImageResponse, ImagePipeline.Error>) -> Void) {
        let ready = storage.withLock { storage -> Result<ImageResponse, ImagePipeline.Error>? in
            if let result = storage.result { return result }
            storage.completions.append(completion)
            return nil
        }
        if let ready { completion(ready) }
    }

    /// Calls `handler` with the download's progress (bytes received, and the expected total when known): at once
    /// with the last progress if there was one, then on the loader's thread as bytes arrive, until the task ends.
    public func onProgress(_ handler: @escaping @Sendable (_ completed: Int64, _ total: Int64?) -> Void) {
        let last = storage.withLock { storage -> (completed: Int64, total: Int64?)? in
            guard !storage.hasEnded else { return nil }
            storage.handlers.append { if case .progress(let completed, let total) = $0 { handler(completed, total) } }
            return storage.lastProgress
        }
        if let last { handler(last.completed, last.total) }
    }

    /// Calls `handler` with each preview of the image while it downloads (``Event/preview(_:)``): at once with the
    /// last preview if there was one, then on a decoding thread, until the task ends.
    public func onPreview(_ handler: @escaping @Sendable (ImageResponse) -> Void) {
        let last = storage.withLock { storage -> ImageResponse? in
            guard !storage.hasEnded else { return nil }
            storage.handlers.append { if case .preview(let response) = $0 { handler(response) } }
            return storage.lastPreview?.response
        }
        if let last { handler(last) }
    }

    // MARK: - Delivery (from the pipeline)

    /// Sends a progress or preview event to the subscribers and handlers once `keep` has kept it for later ones;
    /// nothing once the task has ended.
    private func send(_ event: Event, keep: (inout Storage) -> Void) {
        let (subscribers, handlers) = storage.withLock { storage in
            // An ended task has no subscribers and no handlers left.
            if !storage.hasEnded { keep(&storage) }
            return (Array(storage.subscribers.values), storage.handlers)
        }
        for subscriber in subscribers { subscriber.yield(event) }
        for handler in handlers { handler(event) }
    }

    /// Sets the final result; `false` if the task had already finished. A `.cancelled` error, whether the task or
    /// the pipeline (``ImagePipeline/cancelAllTasks()``) cancelled it, ends it as cancelled.
    @discardableResult
    func finish(
        _ result: Result<ImageResponse, ImagePipeline.Error>,
        stages: ImageTaskMetrics.Stages = ImageTaskMetrics.Stages()
    ) -> Bool {
        let isCancellation = if case .failure(.cancelled) = result { true } else { false }
        // Takes the running state whole (subscribers, handlers) and leaves the ended one.
        let running = storage.withLock { storage -> Storage? in
            guard !storage.hasEnded else { return nil }
            let running = storage
            storage = Storage(priority: storage.priority, result: result, isCancelled: isCancellation)
            return running
        }
        guard let running else { return false }
        let event: Event = isCancellation ? .cancelled : .finished(result)
        for subscriber in running.subscribers.values {
            subscriber.yield(event)
            subscriber.finish()
        }
        for completion in running.completions { completion(result) }
        if let metricsHandler, let createdAt {
            let outcome: ImageTaskMetrics.Outcome =
                switch result {
                case .success(let response): .succeeded(cacheType: response.cacheType)
                case .failure(.cancelled): .cancelled
                case .failure(let error): .failed(error)
                }
            metricsHandler(
                ImageTaskMetrics(
                    taskID: id,
                    request: request,
                    task: .since(createdAt),
                    outcome: outcome,
                    stages: stages
                )
            )
        }
        return true
    }
}

extension ImageTask: TaskReceiver {
    package var hasEnded: Bool { storage.withLock { $0.hasEnded } }

    package func receive(_ delivery: TaskGraph.Actions.Delivery) {
        switch delivery {
        case .progress(let completed, let total):
            send(.progress(completed: completed, total: total)) { $0.lastProgress = (completed, total) }
        case .preview(let image):
            var response = ImageResponse(image: image.image, request: request)
            response.isPreview = true
            send(.preview(response)) { $0.lastPreview = Preview(response) }
        case .success(.image(let image)):
            let response = ImageResponse(
                image: image.image,
                request: request,
                cacheType: image.cacheType,
                httpResponse: image.response,
                animation: image.animation
            )
            finish(.success(response), stages: image.metrics)
        case .success(.data):
            preconditionFailure("Internal inconsistency: an image task received data")
        case .failure(let error):
            finish(.failure(error))
        }
    }
}

extension ImageTask: Hashable {
    public static func == (lhs: ImageTask, rhs: ImageTask) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension ImageTask: CustomStringConvertible {
    public var description: String { "ImageTask(\(id), \(request.url?.absoluteString ?? "nil"))" }
}

/// What one image task cost, stage by stage, for analytics (``ImagePipeline/Configuration/taskMetricsHandler``).
/// Tasks that share work show the same stages, which may begin before a task that joined them late.
public struct ImageTaskMetrics: Sendable {
    /// A span of time on the continuous clock.
    public struct Interval: Sendable, Hashable {
        public var start: ContinuousClock.Instant
        public var end: ContinuousClock.Instant
        public var duration: Duration { end - start }

        public init(start: ContinuousClock.Instant, end: ContinuousClock.Instant) {
            self.start = start
            self.end = end
        }

        /// From `start` to now.
        static func since(_ start: ContinuousClock.Instant) -> Interval {
            Interval(start: start, end: .now)
        }
    }

    /// How the stages made the image. Every interval is `nil` for a stage that did not run for it.
    public struct Stages: Sendable, Hashable {
        /// Getting the bytes: the disk cache lookup, then the download if there was one.
        public var dataLoad: Interval?
        /// The download alone, `nil` when the bytes came from the disk cache.
        public var download: Interval?
        /// The bytes of the body the download delivered, a resumed prefix included.
        public var downloadedBytes = 0
        /// The bytes of that body kept from an earlier, cancelled download (``ImagePipeline/Configuration/partialDownloadLimit``).
        public var resumedBytes = 0
        /// Decoding the bytes.
        public var decode: Interval?
        /// Applying the request's processors, the first to the last.
        public var processing: Interval?

        public init() {}
    }

    /// How a task ended.
    public enum Outcome: Sendable {
        /// With an image; `cacheType` says which cache answered, `nil` for the network.
        case succeeded(cacheType: ImageResponse.CacheType?)
        case failed(ImagePipeline.Error)
        case cancelled
    }

    /// The task's ``ImageTask/id``.
    public var taskID: Int
    public var request: ImageRequest
    /// From the task's creation to its end.
    public var task: Interval
    public var outcome: Outcome
    /// The stages behind the image; empty for a memory cache hit, a failure, or a cancellation.
    public var stages: Stages
    /// The task's whole duration.
    public var duration: Duration { task.duration }
}
