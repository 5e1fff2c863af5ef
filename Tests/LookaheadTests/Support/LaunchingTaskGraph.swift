// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — a task graph whose launcher takes every download at once, as a runner with an idle launcher does.

@testable import Lookahead

/// Drives a ``TaskGraph`` the way the runner does when its launcher runs at once: after every event the downloads
/// handed to the launcher are taken, so they run (and a cancellation reaches them as a cancel action). Tests of the
/// launcher itself use the graph directly (`TaskGraphLauncherTests`).
@dynamicMemberLookup
struct LaunchingTaskGraph {
    private(set) var graph: TaskGraph

    init(dataLoadLimit: Int, decodeLimit: Int, backgroundDataLoadLimit: Int? = nil, isCoalescingEnabled: Bool = true) {
        graph = TaskGraph(
            dataLoadLimit: dataLoadLimit,
            decodeLimit: decodeLimit,
            backgroundDataLoadLimit: backgroundDataLoadLimit,
            isCoalescingEnabled: isCoalescingEnabled
        )
    }

    subscript<T>(dynamicMember keyPath: KeyPath<TaskGraph, T>) -> T { graph[keyPath: keyPath] }

    func priority(ofTask task: Int) -> ImageRequest.Priority? { graph.priority(ofTask: TaskGraph.TaskID(task)) }
    func dataPriority(for url: String) -> ImageRequest.Priority? { graph.dataPriority(for: url) }

    mutating func submit(
        task: Int,
        request: ImageRequest,
        dataOnly: Bool = false,
        seed: TaskGraph.Seed? = nil,
        processedImage: TaskGraph.ProcessedImageUse? = nil
    ) -> LaunchedActions {
        launch(
            graph.submit(
                task: TaskGraph.TaskID(task),
                request: request,
                dataOnly: dataOnly,
                seed: seed,
                processedImage: processedImage
            )
        )
    }

    mutating func cancel(task: Int) -> LaunchedActions { launch(graph.cancel(task: TaskGraph.TaskID(task))) }

    mutating func setPriority(_ priority: ImageRequest.Priority, ofTask task: Int) -> LaunchedActions {
        launch(graph.setPriority(priority, ofTask: TaskGraph.TaskID(task)))
    }

    mutating func operationFinished(
        _ operation: TaskGraph.OperationID,
        with result: Result<TaskGraph.StageResult, ImagePipeline.Error>
    ) -> LaunchedActions {
        launch(graph.operationFinished(operation, with: result))
    }

    mutating func operationStalled(_ operation: TaskGraph.OperationID) -> LaunchedActions {
        launch(graph.operation(operation, reported: .stalled))
    }

    mutating func operationStartedDownload(_ operation: TaskGraph.OperationID) -> LaunchedActions {
        launch(graph.operation(operation, reported: .startedDownload))
    }

    mutating func operationMayAnswerFromDisk(_ operation: TaskGraph.OperationID) -> Bool {
        graph.operationMayAnswerFromDisk(operation)
    }

    mutating func operationMissedProcessedImage(_ operation: TaskGraph.OperationID) -> LaunchedActions {
        launch(graph.operationMissedProcessedImage(operation))
    }

    mutating func operationProgressed(_ operation: TaskGraph.OperationID, completed: Int64, total: Int64?)
        -> LaunchedActions
    {
        launch(graph.operation(operation, reported: .progressed(completed: completed, total: total)))
    }

    mutating func operationFoundInvalidDiskData(_ operation: TaskGraph.OperationID) -> LaunchedActions {
        launch(graph.operationFoundInvalidDiskData(operation))
    }

    mutating func failAll(with error: ImagePipeline.Error) -> LaunchedActions { launch(graph.failAll(with: error)) }

    private mutating func launch(_ actions: TaskGraph.Actions) -> LaunchedActions {
        let loads = graph.takePendingLoads()
        _ = graph.takePendingLoads()  // the second finds none and stops the launcher, as the runner's loop does
        return LaunchedActions(actions: actions, loads: loads)
    }
}

/// An event's actions, with the downloads it handed to the launcher (which the launcher took at once).
@dynamicMemberLookup
struct LaunchedActions {
    let actions: TaskGraph.Actions
    /// The downloads the event queued, in the order the launcher starts them.
    let loads: [TaskGraph.Actions.Start]

    subscript<T>(dynamicMember keyPath: KeyPath<TaskGraph.Actions, T>) -> T { actions[keyPath: keyPath] }
}
