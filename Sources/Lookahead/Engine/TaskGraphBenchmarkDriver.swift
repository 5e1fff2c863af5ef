// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Drives a task graph alone, without a pipeline: what a start and a cancel cost the graph, apart from the lock,
/// the task objects and the hand-off to other threads. For benchmarks.
@_spi(Benchmarks) public struct TaskGraphBenchmarkDriver {
    private var graph = TaskGraph(dataLoadLimit: 6, decodeLimit: 2, recordsEvents: false)
    private var nextTask = 0

    public init() {}

    /// Submits each request and cancels it before its download is launched, as a list flung past its rows does.
    /// Returns the stages left, which is none.
    public mutating func startAndCancel(_ requests: [ImageRequest]) -> Int {
        for request in requests {
            nextTask += 1
            _ = graph.submit(task: nextTask, request: request)
            _ = graph.cancel(task: nextTask)
        }
        _ = graph.takePendingLoads()
        return graph.stageCount
    }
}
