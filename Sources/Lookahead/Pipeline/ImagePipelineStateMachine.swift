// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — ImagePipelineStateMachine: every request's bookkeeping, as a value type whose events return actions.

import Foundation

/// All per-request state of an ``ImagePipeline``: the tasks and the coalescing graph they subscribe to (each
/// task registered once, in the graph, with its receiver), the downloads waiting to be launched, whether the
/// pipeline was invalidated, and who waits for it to go idle.
///
/// Downloads are launched in batches: a download the graph starts waits in ``pendingLoads`` until the one
/// launcher task the runner keeps scheduled takes it. A request started and cancelled before then (a fling's
/// worth of prefetches, a cell reused at once) costs no Swift task and wakes no thread: the machine takes the
/// download back and frees its slot within the same event.
///
/// The pipeline keeps one machine under its lock. Each event method runs under that lock and returns
/// ``Actions``; the pipeline releases the lock and performs them (see `ImagePipeline+Runner.swift`). Nothing here
/// does I/O, blocks or calls outside code.
struct ImagePipelineStateMachine {
    /// What the pipeline must do once the lock is released, in this order: cancel work, send events, deliver to
    /// tasks, start work, schedule the launcher, wake idle waiters.
    struct Actions {
        enum Delivery {
            case progress(completed: Int64, total: Int64?)
            case preview(TaskGraph.Output)
            case success(TaskGraph.StageResult)
            case failure(ImagePipelineError)
        }

        struct Start {
            let operation: Int
            let token: OperationToken
            let work: TaskGraph.Work
            let priority: ImageRequest.Priority
        }

        var cancels: [OperationToken] = []
        var events: [ImagePipeline.Event] = []
        var deliveries: [(task: any TaskReceiver, delivery: Delivery)] = []
        /// Decoding and processing to hand to the executor now.
        var starts: [Start] = []
        /// Schedule the launcher task: downloads wait in the machine.
        var schedulesLauncher = false
        /// Final images to encode and store in the disk cache.
        var processedImageStores: [(request: ImageRequest, output: TaskGraph.Output)] = []
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private(set) var graph: TaskGraph
    private(set) var isInvalidated = false
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Downloads the graph started that the launcher has not taken yet.
    private var pendingLoads: [Actions.Start] = []
    /// A launcher task is scheduled or running; it takes ``pendingLoads`` until none are left.
    private var isLauncherScheduled = false

    init(graph: TaskGraph) {
        self.graph = graph
    }

    /// Tasks, stages and operations still alive.
    var liveCount: Int { graph.liveCount }

    // MARK: - Events from tasks

    /// A task starts; `nil` when the pipeline was invalidated (the task is not registered).
    mutating func submit(
        _ task: any TaskReceiver,
        dataOnly: Bool = false,
        seed: TaskGraph.Seed? = nil,
        processedImage: TaskGraph.ProcessedImageUse? = nil
    ) -> Actions? {
        guard !isInvalidated else { return nil }
        return resolve(
            graph.submit(
                task: task.id,
                request: task.request,
                dataOnly: dataOnly,
                seed: seed,
                processedImage: processedImage,
                receiver: task
            )
        )
    }

    /// A task was cancelled by its owner (it has already delivered its own `.cancelled`).
    mutating func cancel(task: Int) -> Actions {
        resolve(graph.cancel(task: task))
    }

    /// A task's priority changed.
    mutating func setPriority(_ priority: ImageRequest.Priority, ofTask task: Int) -> Actions {
        resolve(graph.setPriority(priority, ofTask: task))
    }

    /// Fails every task with ``ImagePipelineError/pipelineInvalidated``; later submissions are refused.
    mutating func invalidate() -> Actions {
        isInvalidated = true
        return resolve(graph.failAll(with: .pipelineInvalidated))
    }

    /// Registers a waiter for idleness; `false` when the pipeline is idle already (the caller resumes it).
    mutating func waitUntilIdle(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
        guard liveCount > 0 else { return false }
        idleWaiters.append(waiter)
        return true
    }

    // MARK: - Events from operations

    mutating func operationProgressed(_ operation: Int, completed: Int64, total: Int64?) -> Actions {
        resolve(graph.operationProgressed(operation, completed: completed, total: total))
    }

    mutating func operationStartedDownload(_ operation: Int) {
        graph.operationStartedDownload(operation)
    }

    mutating func operationPreviewed(_ operation: Int, image: TaskGraph.Output) -> Actions {
        resolve(graph.operationPreviewed(operation, image: image))
    }

    mutating func operationStalled(_ operation: Int) -> Actions {
        resolve(graph.operationStalled(operation))
    }

    mutating func operationFinished(
        _ operation: Int,
        with result: Result<TaskGraph.StageResult, ImagePipelineError>
    ) -> Actions {
        resolve(graph.operationFinished(operation, with: result))
    }

    mutating func operationMissedProcessedImage(_ operation: Int) -> Actions {
        resolve(graph.operationMissedProcessedImage(operation))
    }

    // MARK: - Events from the launcher

    /// The launcher takes the downloads waiting to start; when there are none, it stops (the next download
    /// schedules a new one).
    mutating func takePendingLoads() -> [Actions.Start] {
        if pendingLoads.isEmpty { isLauncherScheduled = false }
        defer { pendingLoads.removeAll() }
        return pendingLoads
    }

    // MARK: - Resolving

    /// Turns the graph's actions into what the runner performs.
    private mutating func resolve(_ graphActions: [TaskGraph.Action]) -> Actions {
        var actions = Actions()
        var graphActions = graphActions
        while !graphActions.isEmpty {
            let stopped = resolve(graphActions, into: &actions)
            // Downloads cancelled before launch never ran: they stop now, and their slots go to queued work.
            graphActions = []
            for operation in stopped {
                graphActions += graph.operationFinished(operation, with: .failure(.cancelled))
            }
        }
        if !idleWaiters.isEmpty, liveCount == 0 {
            actions.idleWaiters = idleWaiters
            idleWaiters.removeAll()
        }
        return actions
    }

    /// Adds the graph's actions to `actions`; returns the operations of downloads cancelled before launch.
    private mutating func resolve(_ graphActions: [TaskGraph.Action], into actions: inout Actions) -> [Int] {
        var stopped: [Int] = []
        for action in graphActions {
            switch action {
            case .start(let operation, let token, let work, let priority):
                let start = Actions.Start(operation: operation, token: token, work: work, priority: priority)
                guard case .load = work else {
                    actions.starts.append(start)
                    continue
                }
                pendingLoads.append(start)
                if !isLauncherScheduled {
                    isLauncherScheduled = true
                    actions.schedulesLauncher = true
                }
            case .cancel(let token):
                if let index = pendingLoads.firstIndex(where: { $0.token === token }) {
                    stopped.append(pendingLoads.remove(at: index).operation)
                } else {
                    actions.cancels.append(token)
                }
            case .progress(let task, let completed, let total):
                if let receiver = task.receiver {
                    actions.deliveries.append((receiver, .progress(completed: completed, total: total)))
                }
            case .preview(let task, let image):
                if let receiver = task.receiver { actions.deliveries.append((receiver, .preview(image))) }
            case .finish(let task, let result):
                guard let receiver = task.receiver else { continue }
                switch result {
                case .success(let output): actions.deliveries.append((receiver, .success(output)))
                case .failure(let error): actions.deliveries.append((receiver, .failure(error)))
                }
            case .coalesced(let task, _):
                if let receiver = task.receiver { actions.events.append(.coalesced(receiver.request)) }
            case .loadCancelled(let url):
                if let url { actions.events.append(.dataLoadCancelled(url)) }
            case .storeProcessedImage(let request, let output):
                actions.processedImageStores.append((request, output))
            }
        }
        return stopped
    }
}
