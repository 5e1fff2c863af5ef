// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation
import Lookahead

/// Drives a task graph alone, without a pipeline: what a start and a cancel cost the graph, apart from the lock,
/// the task objects and the hand-off to other threads. For benchmarks only: not part of the library.
public struct TaskGraphBenchmarkDriver {
    private var graph = TaskGraph(dataLoadLimit: 6, decodeLimit: 2, recordsEvents: false)
    private var nextTask = 0

    public init() {}

    /// Submits each request and cancels it before its download is launched, as a list flung past its rows does.
    /// Returns the stages left, which is none.
    public mutating func startAndCancel(_ requests: [ImageRequest]) -> Int {
        for request in requests {
            nextTask += 1
            _ = graph.submit(task: TaskGraph.TaskID(nextTask), request: request)
            _ = graph.cancel(task: TaskGraph.TaskID(nextTask))
        }
        _ = graph.takePendingLoads()
        return graph.stageCount
    }
}

extension TaskGraphBenchmarkDriver {
    /// What a whole start + cancel is timed and counted on (`lookahead-bench engine`, `lookahead-graph-driver`): a
    /// pipeline whose downloads never answer, with no disk cache and a 1 MiB memory cache, and `count` requests for
    /// distinct URLs it has never seen.
    public static func startAndCancelFixture(count: Int) -> (pipeline: ImagePipeline, requests: [ImageRequest]) {
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = NeverAnsweringLoader()
            $0.memoryCache = MemoryCache(costLimit: 1 << 20)
        }
        let requests = (0..<count).map { ImageRequest(url: URL(string: "https://example.com/start/\($0).jpg")) }
        return (pipeline, requests)
    }

    /// A loader that waits until it is cancelled: the benchmarks' pipelines whose downloads never answer.
    public struct NeverAnsweringLoader: DataLoading {
        public init() {}

        public
            func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse
        {
            try await Task.sleep(for: .seconds(3600))
            throw CancellationError()
        }
    }
}
