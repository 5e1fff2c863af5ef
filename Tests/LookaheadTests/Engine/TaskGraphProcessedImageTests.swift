// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the task graph's lookup of a final image in the disk cache, driven synchronously.

import Foundation
import Testing

@testable import Lookahead

@Suite struct TaskGraphProcessedImageTests {
    private let request = ImageRequest(
        url: URL(string: "https://example.com/1.jpg"),
        thumbnail: ThumbnailOptions(maximumPixelSize: 64)
    )
    private let use = TaskGraph.ProcessedImageUse(reads: true, stores: true, keepsOriginalData: false)

    /// Every start, downloads handed to the launcher included.
    private func starts(_ actions: LaunchedActions) -> [(operation: TaskGraph.OperationID, work: TaskGraph.Work)] {
        (actions.loads + actions.starts).map { ($0.operation, $0.work) }
    }

    private func stores(_ actions: LaunchedActions) -> [ImageRequest] {
        actions.processedImageStores.map(\.request)
    }

    private func finished(_ actions: LaunchedActions) -> [Int] {
        actions.deliveries.compactMap {
            switch $0.delivery {
            case .success, .failure: $0.task.id.rawValue
            case .progress, .preview: nil
            }
        }
    }

    private var image: TaskGraph.StageResult {
        .image(
            .init(
                image: Bitmap(width: 1, height: 1, red: 0, green: 0, blue: 0).platformImage,
                response: nil,
                cacheType: .disk
            )
        )
    }

    @Test func aHitFinishesWithoutADataStageAndIsNotStoredAgain() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let lookup = starts(graph.submit(task: 1, request: request, processedImage: use))
        #expect(lookup.count == 1)
        guard case .loadProcessedImage = lookup[0].work else {
            Issue.record("the first work is the lookup: \(lookup[0].work)")
            return
        }
        #expect(graph.stageCount == 1)
        // An identical request joins the lookup.
        #expect(starts(graph.submit(task: 2, request: request, processedImage: use)).isEmpty)
        let done = graph.operationFinished(lookup[0].operation, with: .success(image))
        #expect(finished(done) == [1, 2])
        #expect(stores(done).isEmpty)
        #expect(graph.liveCount == 0)
    }

    @Test func aMissAttachesTheChainAndTheMadeImageIsStored() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let lookup = starts(graph.submit(task: 1, request: request, processedImage: use))
        let load = starts(graph.operationMissedProcessedImage(lookup[0].operation))
        guard load.count == 1, case .load(let dataRequest) = load[0].work else {
            Issue.record("a miss starts the download")
            return
        }
        // The original is not kept with `keepsOriginalData: false`.
        #expect(!dataRequest.dataPolicy.writesDiskCache)
        let data = TaskGraph.StageResult.data(.init(response: DataLoadResponse(data: Data([1]))))
        let decode = starts(graph.operationFinished(load[0].operation, with: .success(data)))
        #expect(decode.count == 1)
        let done = graph.operationFinished(decode[0].operation, with: .success(image))
        #expect(finished(done) == [1])
        #expect(stores(done).map(\.imageKey) == [request.imageKey])
        #expect(graph.liveCount == 0)
    }

    @Test func aCancelledLookupStopsAndItsLateMissStartsNothing() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let lookup = starts(graph.submit(task: 1, request: request, processedImage: use))
        let cancelled = graph.cancel(task: 1)
        #expect(!cancelled.cancels.isEmpty)
        #expect(starts(graph.operationMissedProcessedImage(lookup[0].operation)).isEmpty)
        #expect(graph.liveCount == 0)
    }

    @Test func withoutReadsTheChainStartsAtOnceAndStillStores() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let writeOnly = TaskGraph.ProcessedImageUse(reads: false, stores: true, keepsOriginalData: true)
        let load = starts(graph.submit(task: 1, request: request, processedImage: writeOnly))
        guard load.count == 1, case .load(let dataRequest) = load[0].work else {
            Issue.record("the download starts at once")
            return
        }
        #expect(dataRequest.dataPolicy.writesDiskCache)
        let data = TaskGraph.StageResult.data(.init(response: DataLoadResponse(data: Data([1]))))
        let decode = starts(graph.operationFinished(load[0].operation, with: .success(data)))
        let done = graph.operationFinished(decode[0].operation, with: .success(image))
        #expect(stores(done).count == 1)
    }
}
