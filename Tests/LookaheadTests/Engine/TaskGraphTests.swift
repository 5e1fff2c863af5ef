// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the task graph state machine, driven synchronously.

import Foundation
import Testing

@testable import Lookahead

@Suite struct TaskGraphTests {
    private func request(
        _ n: Int,
        priority: ImageRequest.Priority = .normal,
        thumbnail: ThumbnailOptions? = nil,
        processors: [any ImageProcessing] = []
    ) -> ImageRequest {
        ImageRequest(
            url: URL(string: "https://example.com/\(n).jpg"),
            priority: priority,
            thumbnail: thumbnail,
            processors: processors
        )
    }

    /// Every start, downloads handed to the launcher included.
    private func starts(_ actions: LaunchedActions) -> [(
        operation: TaskGraph.OperationID, work: TaskGraph.Work, token: OperationToken
    )] {
        (actions.loads + actions.starts).map { ($0.operation, $0.work, $0.token) }
    }

    private func cancels(_ actions: LaunchedActions) -> [OperationToken] {
        actions.cancels
    }

    private func finished(_ actions: LaunchedActions) -> [Int] {
        actions.deliveries.compactMap {
            switch $0.delivery {
            case .success, .failure: $0.task.id.rawValue
            case .progress, .preview: nil
            }
        }
    }

    private var data: TaskGraph.StageResult { .data(.init(response: DataLoadResponse(data: Data([1, 2, 3])))) }
    private var image: TaskGraph.StageResult {
        .image(.init(image: Bitmap(width: 1, height: 1, red: 0, green: 0, blue: 0).platformImage, response: nil))
    }

    @Test func identicalRequestsShareOneLoadAndOneDecode() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let first = graph.submit(task: 1, request: request(1))
        #expect(starts(first).count == 1)
        for task in 2...10 {
            let actions = graph.submit(task: task, request: request(1))
            #expect(starts(actions).isEmpty)
        }
        let load = starts(first)[0]
        let decodeStart = starts(graph.operationFinished(load.operation, with: .success(data)))
        #expect(decodeStart.count == 1)
        let done = graph.operationFinished(decodeStart[0].operation, with: .success(image))
        #expect(finished(done) == Array(1...10))
        #expect(graph.liveCount == 0)
    }

    @Test func aPlainRequestIsADataStageThenADecodeStage() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let load = starts(graph.submit(task: 1, request: request(1)))
        #expect(load.count == 1 && graph.stageCount == 2)
        let decode = starts(graph.operationFinished(load[0].operation, with: .success(data)))
        #expect(decode.count == 1 && graph.stageCount == 1, "the data stage is done")
        if case .decode = decode.first?.work {} else { Issue.record("expected a decode") }
        // Its load has finished: data wanted now is loaded again (from the caches), not waited for.
        #expect(starts(graph.submit(task: 2, request: request(1), dataOnly: true)).count == 1)
        #expect(finished(graph.operationFinished(decode[0].operation, with: .success(image))) == [1])
    }

    @Test func dataWantedByAnotherJoinsAQueuedLoadInItsPlace() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 1, decodeLimit: 2)
        let first = starts(graph.submit(task: 1, request: request(1)))[0]
        _ = graph.submit(task: 2, request: request(2))
        _ = graph.submit(task: 3, request: request(3))
        #expect(starts(graph.submit(task: 4, request: request(2), dataOnly: true)).isEmpty)
        #expect(graph.stageCount == 6, "three decode stages and three data stages; the data-only task joins one")
        #expect(graph.queuedDataURLs.map { $0.suffix(5) } == ["2.jpg", "3.jpg"], "the load kept its place")
        let next = starts(graph.operationFinished(first.operation, with: .success(data)))
        let load = next.filter { if case .load = $0.work { true } else { false } }
        #expect(load.count == 1)
        if case .load(let started) = load.first?.work { #expect(started.url?.lastPathComponent == "2.jpg") }
        let loaded = graph.operationFinished(load[0].operation, with: .success(data))
        #expect(finished(loaded) == [4])
        #expect(starts(loaded).contains { if case .decode = $0.work { true } else { false } })
    }

    @Test func aSharedLoadOutlivesTheRequestThatStartedIt() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let load = starts(graph.submit(task: 1, request: request(1)))[0]
        #expect(starts(graph.submit(task: 2, request: request(1), dataOnly: true)).isEmpty)
        #expect(graph.stageCount == 2)
        #expect(cancels(graph.cancel(task: 1)).isEmpty, "the data-only task still wants the running load")
        #expect(graph.stageCount == 1)
        let done = graph.operationFinished(load.operation, with: .success(data))
        #expect(finished(done) == [2])
        #expect(starts(done).isEmpty, "nobody wants the image")
        #expect(graph.liveCount == 0)
    }

    @Test func cancellingARequestThatLoadsItsOwnDataCancelsTheDownload() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let load = starts(graph.submit(task: 1, request: request(1)))[0]
        let cancelled = graph.cancel(task: 1)
        #expect(cancels(cancelled).count == 1 && cancels(cancelled).first === load.token)
        #expect(cancelled.events.contains { if case .dataLoadCancelled = $0 { true } else { false } })
        #expect(graph.stageCount == 0)
        // Nothing is found under the URL any more: a new request loads again.
        #expect(starts(graph.submit(task: 2, request: request(1), dataOnly: true)).count == 1)
        _ = graph.operationFinished(load.operation, with: .failure(.cancelled))
        #expect(graph.operations.count == 1)
    }

    @Test func thumbnailsShareTheDownloadButNotTheDecode() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 4)
        let load = starts(graph.submit(task: 1, request: request(1, thumbnail: .init(maximumPixelSize: 100))))
        #expect(starts(graph.submit(task: 2, request: request(1, thumbnail: .init(maximumPixelSize: 200)))).isEmpty)
        let decodes = starts(graph.operationFinished(load[0].operation, with: .success(data)))
        #expect(decodes.count == 2)
    }

    @Test func processorsShareTheDecode() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 4)
        let load = starts(graph.submit(task: 1, request: request(1)))
        _ = graph.submit(task: 2, request: request(1, processors: [Identity(identifier: "p")]))
        let decodes = starts(graph.operationFinished(load[0].operation, with: .success(data)))
        #expect(decodes.count == 1)
        let after = graph.operationFinished(decodes[0].operation, with: .success(image))
        #expect(finished(after) == [1])
        let processes = starts(after)
        #expect(processes.count == 1)
        if case .process = processes[0].work {} else { Issue.record("expected a process stage") }
        #expect(finished(graph.operationFinished(processes[0].operation, with: .success(image))) == [2])
        #expect(graph.liveCount == 0)
    }

    @Test func cancellingOneOfTwoKeepsTheWork() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        _ = graph.submit(task: 1, request: request(1))
        _ = graph.submit(task: 2, request: request(1))
        #expect(cancels(graph.cancel(task: 1)).isEmpty)
        #expect(graph.stageCount == 2, "the decode stage and its data stage stay")
    }

    @Test func cancellingTheLastSubscriberCancelsTheRunningLoad() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let load = starts(graph.submit(task: 1, request: request(1)))[0]
        _ = graph.submit(task: 2, request: request(1))
        _ = graph.cancel(task: 1)
        let actions = graph.cancel(task: 2)
        #expect(cancels(actions).count == 1)
        #expect(cancels(actions).first === load.token)
        #expect(graph.stageCount == 0)
        #expect(graph.liveCount == 1)  // the operation until it stops
        // Its late result is dropped.
        #expect(finished(graph.operationFinished(load.operation, with: .success(data))).isEmpty)
        #expect(graph.liveCount == 0)
    }

    @Test func priorityIsTheHighestSubscribersAndFollowsThem() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let url = "https://example.com/1.jpg"
        _ = graph.submit(task: 1, request: request(1, priority: .low))
        #expect(graph.dataPriority(for: url) == .low)
        _ = graph.submit(task: 2, request: request(1, priority: .high))
        #expect(graph.dataPriority(for: url) == .high)
        _ = graph.setPriority(.veryHigh, ofTask: 1)
        #expect(graph.dataPriority(for: url) == .veryHigh)
        _ = graph.cancel(task: 1)
        #expect(graph.dataPriority(for: url) == .high)
        _ = graph.setPriority(.veryLow, ofTask: 2)
        #expect(graph.dataPriority(for: url) == .veryLow)
    }

    @Test func queuedWorkStartsHighestFirstAndFIFOWithinALevel() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 1, decodeLimit: 1)
        let first = starts(graph.submit(task: 1, request: request(1)))[0]
        _ = graph.submit(task: 2, request: request(2, priority: .low))
        _ = graph.submit(task: 3, request: request(3, priority: .high))
        _ = graph.submit(task: 4, request: request(4, priority: .normal))
        _ = graph.submit(task: 5, request: request(5, priority: .high))
        #expect(graph.queuedDataURLs.map { $0.suffix(5) } == ["3.jpg", "5.jpg", "4.jpg", "2.jpg"])
        // A live change re-ranks: 2 becomes the most urgent.
        _ = graph.setPriority(.veryHigh, ofTask: 2)
        #expect(graph.queuedDataURLs.map { $0.suffix(5) } == ["2.jpg", "3.jpg", "5.jpg", "4.jpg"])
        // Finishing the running load starts the next one in that order.
        let next = starts(graph.operationFinished(first.operation, with: .failure(.dataIsEmpty)))
        #expect(next.count == 1)
        if case .load(let started) = next[0].work { #expect(started.url?.lastPathComponent == "2.jpg") }
    }

    @Test func cancellingQueuedWorkRemovesItWithoutACancelAction() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 1, decodeLimit: 1)
        _ = graph.submit(task: 1, request: request(1))
        _ = graph.submit(task: 2, request: request(2))
        let actions = graph.cancel(task: 2)
        #expect(cancels(actions).isEmpty)
        #expect(graph.queuedDataURLs.isEmpty)
    }

    @Test func failuresReachEverySubscriberAndAreNotKept() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let load = starts(graph.submit(task: 1, request: request(1)))[0]
        _ = graph.submit(task: 2, request: request(1, processors: [Identity(identifier: "p")]))
        let actions = graph.operationFinished(load.operation, with: .failure(.statusCodeUnacceptable(404)))
        #expect(finished(actions) == [1, 2])
        #expect(graph.liveCount == 0)
        // A retry starts a new download.
        #expect(starts(graph.submit(task: 3, request: request(1))).count == 1)
    }

    @Test func dataOnlyTasksShareTheDownloadAndReceiveData() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let load = starts(graph.submit(task: 1, request: request(1)))[0]
        #expect(starts(graph.submit(task: 2, request: request(1), dataOnly: true)).isEmpty)
        let actions = graph.operationFinished(load.operation, with: .success(data))
        #expect(finished(actions) == [2])
        let decode = starts(actions)[0]
        #expect(finished(graph.operationFinished(decode.operation, with: .success(image))) == [1])
    }

    @Test func prefetchesLeaveSlotsForVisibleWork() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 3, decodeLimit: 1, backgroundDataLoadLimit: 1)
        #expect(starts(graph.submit(task: 1, request: request(1, priority: .low))).count == 1)
        #expect(starts(graph.submit(task: 2, request: request(2, priority: .low))).isEmpty)
        #expect(starts(graph.submit(task: 3, request: request(3, priority: .high))).count == 1)
        // Promoting the running prefetch frees its background slot: the queued prefetch starts.
        #expect(starts(graph.setPriority(.high, ofTask: 1)).count == 1)
        #expect(graph.queuedDataURLs.isEmpty)
        // All three slots are busy now; a visible request waits at the head of the queue.
        #expect(starts(graph.submit(task: 4, request: request(4, priority: .veryHigh))).isEmpty)
        #expect(graph.queuedDataURLs.map { $0.suffix(5) } == ["4.jpg"])
    }

    @Test func aStalledDownloadGivesItsSlotToTheNextOne() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 2, decodeLimit: 1)
        let first = starts(graph.submit(task: 1, request: request(1)))[0]
        let second = starts(graph.submit(task: 2, request: request(2)))[0]
        #expect(starts(graph.submit(task: 3, request: request(3))).isEmpty)
        #expect(starts(graph.submit(task: 4, request: request(4))).isEmpty)
        // The first stalls: the third starts while the first goes on.
        let third = starts(graph.operationStalled(first.operation))
        #expect(third.count == 1 && graph.parkedDataLoadCount == 1)
        #expect(graph.queuedDataURLs.map { $0.suffix(5) } == ["4.jpg"])
        // Parking is once per operation, and decode work is never parked.
        #expect(starts(graph.operationStalled(first.operation)).isEmpty)
        // The parked one finishing frees no slot (it held none); its result still reaches its task.
        let done = graph.operationFinished(first.operation, with: .success(data))
        #expect(starts(done).map(\.work).allSatisfy { if case .decode = $0 { true } else { false } })
        #expect(graph.parkedDataLoadCount == 0)
        #expect(graph.queuedDataURLs.map { $0.suffix(5) } == ["4.jpg"])
        // A running one finishing frees its slot: the fourth starts.
        let fourth = starts(graph.operationFinished(second.operation, with: .success(data)))
        #expect(fourth.contains { if case .load = $0.work { true } else { false } })
    }

    @Test func noMoreStalledDownloadsAreParkedThanTheLimit() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 1, decodeLimit: 1)
        var running = starts(graph.submit(task: 1, request: request(1)))[0]
        _ = graph.submit(task: 2, request: request(2))
        _ = graph.submit(task: 3, request: request(3))
        let next = starts(graph.operationStalled(running.operation))
        #expect(next.count == 1 && graph.parkedDataLoadCount == 1)
        running = next[0]
        // One parked already, at a limit of one: the second stalled download keeps its slot.
        #expect(starts(graph.operationStalled(running.operation)).isEmpty)
        #expect(graph.parkedDataLoadCount == 1)
        #expect(graph.queuedDataURLs.map { $0.suffix(5) } == ["3.jpg"])
    }

    @Test func withoutCoalescingEveryRequestLoads() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2, isCoalescingEnabled: false)
        #expect(starts(graph.submit(task: 1, request: request(1))).count == 1)
        #expect(starts(graph.submit(task: 2, request: request(1))).count == 1)
    }

    @Test func invalidDiskDataIsLoadedAgainSkippingTheDiskThenDecoded() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 6, decodeLimit: 2)
        let load = starts(graph.submit(task: 1, request: request(1)))[0]
        let decode = starts(graph.operationFinished(load.operation, with: .success(data)))[0]
        let reload = starts(graph.operationFoundInvalidDiskData(decode.operation))
        #expect(reload.count == 1 && graph.stageCount == 2, "the decode stage waits on a new data stage")
        guard case .load(let fresh) = reload.first?.work else {
            Issue.record("expected a load")
            return
        }
        #expect(fresh.options.contains(.disableDiskCacheReads))
        let decodeAgain = starts(graph.operationFinished(reload[0].operation, with: .success(data)))
        guard case .decode(_, let decoding) = decodeAgain.first?.work else {
            Issue.record("expected a decode")
            return
        }
        #expect(!decoding.options.contains(.disableDiskCacheReads), "the image is decoded for the request as asked")
        #expect(finished(graph.operationFinished(decodeAgain[0].operation, with: .success(image))) == [1])
        #expect(graph.liveCount == 0)
    }

    @Test func failAllFinishesEveryTaskAndCancelsWork() {
        var graph = LaunchingTaskGraph(dataLoadLimit: 1, decodeLimit: 1)
        let load = starts(graph.submit(task: 1, request: request(1)))[0]
        _ = graph.submit(task: 2, request: request(2))
        let actions = graph.failAll(with: .pipelineInvalidated)
        #expect(finished(actions) == [1, 2])
        #expect(cancels(actions).count == 1)
        #expect(graph.queuedDataURLs.isEmpty)
        _ = graph.operationFinished(load.operation, with: .failure(.cancelled))
        #expect(graph.liveCount == 0)
    }
}

struct Identity: ImageProcessing {
    let identifier: String
    func process(_ image: Bitmap) throws -> Bitmap { image }
}
