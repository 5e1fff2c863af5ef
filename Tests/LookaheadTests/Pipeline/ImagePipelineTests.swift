// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the pipeline with a gated in-process loader and real JPEG decoding.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ImagePipelineTests {
    let loader: GatedDataLoader
    let pipeline: ImagePipeline

    init() {
        let loader = GatedDataLoader()
        self.loader = loader
        pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = loader
            $0.memoryCache = MemoryCache(costLimit: 1 << 24)
        }
    }

    private func url(_ n: Int) -> URL { URL(string: "https://example.com/\(n).jpg")! }

    // MARK: - Coalescing

    @Test func tenSubscribersOneLoad() async throws {
        let tasks = (0..<10).map { _ in pipeline.imageTask(with: ImageRequest(url: url(1))) }
        await loader.waitForPending(1)
        loader.release()
        for task in tasks {
            let response = try await task.response
            #expect(response.image.pixelWidth == 64)
            #expect(response.cacheType == nil)
        }
        #expect(loader.record.value.started.count == 1)
        await pipeline.waitUntilIdle()
        #expect(pipeline.liveTaskCount == 0)
    }

    @Test func cancellingOneOfTwoLetsTheOtherSucceed() async throws {
        let first = pipeline.imageTask(with: ImageRequest(url: url(1)))
        let second = pipeline.imageTask(with: ImageRequest(url: url(1)))
        await loader.waitForPending(1)
        first.cancel()
        first.cancel()  // idempotent
        loader.release()
        let response = try await second.response
        #expect(response.image.pixelHeight == 48)
        await expectFailure(first) { if case .cancelled = $0 { true } else { false } }
        #expect(first.state == .cancelled)
        #expect(loader.record.value.cancelled.isEmpty)
        await pipeline.waitUntilIdle()
        #expect(pipeline.liveTaskCount == 0)
    }

    @Test func cancellingAllCancelsTheLoad() async {
        let tasks = (0..<3).map { _ in pipeline.imageTask(with: ImageRequest(url: url(1))) }
        await loader.waitForPending(1)
        for task in tasks { task.cancel() }
        await loader.waitForCancellations(1)
        #expect(loader.record.value.cancelled == [url(1).absoluteString])
        await pipeline.waitUntilIdle()
        #expect(pipeline.liveTaskCount == 0)
    }

    @Test func swiftTaskCancellationCancelsTheRequest() async {
        let task = Task { try await pipeline.image(for: url(1)) }
        await loader.waitForPending(1)
        task.cancel()
        await loader.waitForCancellations(1)
        let result = await task.result
        #expect {
            try result.get()
        } throws: { error in
            if case ImagePipeline.Error.cancelled = error { return true }
            return false
        }
        await pipeline.waitUntilIdle()
        #expect(pipeline.liveTaskCount == 0)
    }

    // MARK: - Priority

    @Test func aHigherSubscriberRaisesSharedWorkAndLeavingLowersIt() async throws {
        let key = url(1).absoluteString
        let low = pipeline.imageTask(with: ImageRequest(url: url(1), priority: .low))
        #expect(pipeline.inspectGraph { $0.dataPriority(for: key) } == .low)
        let high = pipeline.imageTask(with: ImageRequest(url: url(1), priority: .high))
        #expect(pipeline.inspectGraph { $0.dataPriority(for: key) } == .high)
        low.priority = .veryHigh
        #expect(low.priority == .veryHigh)
        #expect(pipeline.inspectGraph { $0.dataPriority(for: key) } == .veryHigh)
        low.cancel()
        #expect(pipeline.inspectGraph { $0.dataPriority(for: key) } == .high)
        await loader.waitForPending(1)
        loader.release()
        _ = try await high.response
    }

    @Test func queuedLoadsStartInPriorityOrder() async throws {
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = loader
            $0.dataLoadingConcurrency = 1
        }
        let first = pipeline.imageTask(with: ImageRequest(url: url(0)))
        let others = [(1, ImageRequest.Priority.low), (2, .high), (3, .normal), (4, .veryHigh)].map {
            pipeline.imageTask(with: ImageRequest(url: url($0.0), priority: $0.1))
        }
        others[0].priority = .veryHigh  // 1 joins 4 at the top level, after it
        await loader.waitForPending(1)
        for count in 2...5 {
            loader.release()
            await loader.waitForPending(1)
            _ = count
        }
        loader.release()
        _ = try await first.response
        for task in others { _ = try await task.response }
        #expect(
            loader.record.value.started.map { URL(string: $0)!.lastPathComponent } == [
                "0.jpg", "4.jpg", "1.jpg", "2.jpg", "3.jpg",
            ]
        )
    }

    // MARK: - Caching

    @Test func memoryCacheIsConsultedFirst() async throws {
        let request = ImageRequest(url: url(1))
        #expect(pipeline.cachedImage(for: request) == nil)
        let task = pipeline.imageTask(with: request)
        await loader.waitForPending(1)
        loader.release()
        _ = try await task.response
        #expect(pipeline.cachedImage(for: request)?.pixelWidth == 64)
        let cached = try await pipeline.image(for: request)
        #expect(cached.cacheType == .memory)
        let viaTask = try await pipeline.imageTask(with: request).response
        #expect(viaTask.cacheType == .memory)
        #expect(loader.record.value.started.count == 1)
        #expect(pipeline.liveTaskCount == 0)
    }

    @Test func cacheOptionsAreHonoured() async throws {
        let request = ImageRequest(url: url(1))
        pipeline.storeCachedImage(Bitmap(width: 2, height: 2, red: 1, green: 1, blue: 1).platformImage, for: request)
        var noReads = request
        noReads.options = [.disableMemoryCacheReads, .disableMemoryCacheWrites]
        #expect(pipeline.cachedImage(for: noReads) == nil)
        let task = pipeline.imageTask(with: noReads)
        await loader.waitForPending(1)
        loader.release()
        #expect(try await task.response.image.pixelWidth == 64)
        #expect(pipeline.cachedImage(for: request)?.pixelWidth == 2)  // not overwritten

        var cacheOnly = ImageRequest(url: url(2))
        cacheOnly.options = [.returnCacheDataDontLoad]
        await #expect {
            try await pipeline.image(for: cacheOnly)
        } throws: { error in
            if case ImagePipeline.Error.dataMissingInCache = error { return true }
            return false
        }
        #expect(loader.record.value.started.count == 1)
    }

    @Test func failuresAreNotCachedAndARetryLoadsAgain() async throws {
        let loader = GatedDataLoader(
            isGated: false,
            responses: [url(1).absoluteString: .failure(.statusCodeUnacceptable(500, nil))]
        )
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = loader
            $0.diskCache = nil
        }
        // The second is an explicit retry: it does not wait for the URL's failure backoff.
        for options: ImageRequest.Options in [[], [.skipFailureBackoff]] {
            await #expect {
                try await pipeline.image(for: ImageRequest(url: url(1), options: options))
            } throws: { error in
                if case ImagePipeline.Error.statusCodeUnacceptable(500, _) = error { return true }
                return false
            }
        }
        #expect(loader.record.value.started.count == 2)
        await pipeline.waitUntilIdle()
        #expect(pipeline.liveTaskCount == 0)
    }

    // MARK: - Events

    @Test func eventsReportStartProgressAndFinish() async throws {
        let task = pipeline.imageTask(with: ImageRequest(url: url(1)))
        let events = task.events
        await loader.waitForPending(1)
        loader.release()
        var seen: [String] = []
        for await event in events {
            switch event {
            case .started: seen.append("started")
            case .progress(let completed, let total): seen.append("progress \(completed)/\(total ?? -1)")
            case .preview: seen.append("preview")
            case .finished(let result): seen.append((try? result.get()) == nil ? "failed" : "finished")
            case .cancelled: seen.append("cancelled")
            }
        }
        #expect(seen == ["started", "progress 1/2", "finished"])
        // A late subscriber gets the final event only.
        var late: [String] = []
        for await event in task.events {
            if case .finished = event { late.append("finished") } else { late.append("other") }
        }
        #expect(late == ["finished"])
    }

    @Test func cancelledTaskEndsItsEventsWithCancelled() async {
        let task = pipeline.imageTask(with: ImageRequest(url: url(1)))
        let events = task.events
        task.cancel()
        var last: ImageTask.Event?
        for await event in events { last = event }
        if case .cancelled = last {} else { Issue.record("expected .cancelled, got \(String(describing: last))") }
    }

    @Test func priorityChangesFromManyThreadsEndWhereTheTaskEnds() async {
        let task = pipeline.imageTask(with: ImageRequest(url: url(1), priority: .low))
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for step in 0..<500 {
                        task.priority = ImageRequest.Priority(rawValue: (worker + step) % 5)!
                    }
                }
            }
        }
        #expect(pipeline.inspectGraph { $0.priority(ofTask: TaskGraph.TaskID(task.id)) } == task.priority)
        task.cancel()
    }

    @Test func aLateSubscriberSeesStartedBeforeProgress() async throws {
        let task = pipeline.imageTask(with: ImageRequest(url: url(1)))
        await loader.waitForPending(1)
        loader.release()
        _ = try await task.response
        let fresh = pipeline.imageTask(with: ImageRequest(url: url(2)))
        let events = fresh.events  // subscribes while running: replays .started first
        var iterator = events.makeAsyncIterator()
        if case .started = await iterator.next() {} else { Issue.record("expected .started first") }
        await loader.waitForPending(1)
        loader.release()
        var last: ImageTask.Event?
        while let event = await iterator.next() { last = event }
        if case .finished(.success) = last {
        } else {
            Issue.record("expected a successful finish, got \(String(describing: last))")
        }
    }

    @Test func taskIdentifiersAreUnique() {
        let ids = Set((0..<100).map { _ in pipeline.imageTask(with: ImageRequest(url: nil)).id })
        #expect(ids.count == 100)
    }

    @Test func invalidateCancelsEverythingAndRefusesNewWork() async {
        let task = pipeline.imageTask(with: ImageRequest(url: url(1)))
        await loader.waitForPending(1)
        pipeline.invalidate()
        await expectFailure(task, matches: { if case .pipelineInvalidated = $0 { true } else { false } })
        await loader.waitForCancellations(1)
        let later = pipeline.imageTask(with: ImageRequest(url: url(2)))
        await expectFailure(later, matches: { if case .pipelineInvalidated = $0 { true } else { false } })
        await pipeline.waitUntilIdle()
        #expect(pipeline.liveTaskCount == 0)
    }
}

/// Awaits a task and checks it failed with the expected error.
func expectFailure(
    _ task: ImageTask,
    matches: (ImagePipeline.Error) -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    do {
        let response = try await task.response
        Issue.record("expected a failure, got \(response.image)", sourceLocation: sourceLocation)
    } catch {
        #expect(matches(error), "unexpected error: \(error)", sourceLocation: sourceLocation)
    }
}

@Suite(.timeLimit(.minutes(1))) struct ImagePipelineProcessingTests {
    /// Counts its runs.
    final class Counting: ImageProcessing, Sendable {
        let runs = AsyncCondition(0)
        var identifier: String { "counting" }
        func process(_ image: Bitmap) throws -> Bitmap {
            runs.update { $0 += 1 }
            return Bitmap(width: image.width / 2, height: image.height / 2, red: 1, green: 2, blue: 3)
        }
    }

    @Test func identicalProcessingRunsOnceAndIsCachedUnderItsOwnKey() async throws {
        let loader = GatedDataLoader()
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
        }
        let counting = Counting()
        let url = URL(string: "https://example.com/p.jpg")
        let processed = (0..<5).map { _ in pipeline.imageTask(with: ImageRequest(url: url, processors: [counting])) }
        let plain = pipeline.imageTask(with: ImageRequest(url: url))
        await loader.waitForPending(1)
        loader.release()
        for task in processed { #expect(try await task.response.image.pixelWidth == 32) }
        #expect(try await plain.response.image.pixelWidth == 64)
        #expect(counting.runs.value == 1)
        #expect(loader.record.value.started.count == 1)
        #expect(pipeline.cachedImage(for: ImageRequest(url: url, processors: [counting]))?.pixelWidth == 32)
        #expect(pipeline.cachedImage(for: ImageRequest(url: url))?.pixelWidth == 64)
    }

    @Test func thumbnailsThroughThePipelineHaveTheExactSize() async throws {
        let pipeline = ImagePipeline {
            $0.dataLoader = GatedDataLoader(isGated: false)
            $0.diskCache = nil
        }
        let request = ImageRequest(
            url: URL(string: "https://example.com/t.jpg"),
            thumbnail: .init(width: 20, height: 20, contentMode: .aspectFit)
        )
        let response = try await pipeline.image(for: request)
        #expect(response.image.pixelWidth == 20 && response.image.pixelHeight == 15)
    }
}
