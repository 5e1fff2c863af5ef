// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ImagePrefetcher with a gated loader and a manual scheduler.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ImagePrefetcherTests {
    let loader = GatedDataLoader()
    let scheduler = ManualScheduler()
    let pipeline: ImagePipeline

    init() {
        let loader = loader
        pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
        }
    }

    private func makePrefetcher(
        _ destination: ImagePrefetcher.Destination = .memoryCache,
        limit: Int = 2,
        observer: (@Sendable (ImagePrefetcher.Activity) -> Void)? = nil
    ) -> ImagePrefetcher {
        ImagePrefetcher(
            pipeline: pipeline,
            destination: destination,
            maxConcurrentRequestCount: limit,
            scheduler: scheduler.schedule,
            observer: observer
        )
    }

    private func urls(_ range: ClosedRange<Int>) -> [URL] {
        range.map { URL(string: "https://example.com/\($0).jpg")! }
    }

    @Test func aStartAndAStopInTheSameTickStartNothing() {
        let prefetcher = makePrefetcher()
        prefetcher.startPrefetching(with: urls(1...3))
        prefetcher.stopPrefetching(with: urls(1...3))
        scheduler.runAll()
        #expect(loader.record.value.started.isEmpty)
        #expect(prefetcher.counts == (0, 0))
    }

    @Test func aStartThenStopStartsNothingEvenWhenTheQueueDrainsInBetween() async {
        let started = AsyncCondition<[String]>([])
        let prefetcher = makePrefetcher(limit: 2) { activity in
            if case .started(let request) = activity { started.update { $0.append(request.identity) } }
        }
        prefetcher.isPaused = true
        prefetcher.startPrefetching(with: urls(1...1))
        prefetcher.isPaused = false  // schedules a drain of the prefetcher's own, after 1's turn
        // A caller's start and stop, with that drain running in between on the prefetcher's queue: the moment
        // that used to start the new request.
        prefetcher.startPrefetching(with: urls(2...2))
        #expect(scheduler.runNext())  // 1's turn: 1 starts
        #expect(scheduler.runNext())  // the drain: 2's turn has not begun, so it stays queued
        #expect(started.value == [urls(1...1)[0].absoluteString])
        prefetcher.stopPrefetching(with: urls(2...2))
        scheduler.runAll()  // 2's turn: nothing left to start
        #expect(started.value == [urls(1...1)[0].absoluteString])
        #expect(prefetcher.counts == (0, 1))
        prefetcher.stopPrefetching()
        await pipeline.waitUntilIdle()
        #expect(!loader.record.value.started.contains(urls(2...2)[0].absoluteString))
    }

    @Test func aStopThatLandsWhileTheDrainStartsARequestStartsNoTask() async {
        // The pipeline's ID filter runs while the drain starts the request, after it left the queue: the caller's
        // stop lands there, as it does when the drain runs on another core between a caller's start and stop.
        let prefetcherBox = Locked<ImagePrefetcher?>(nil)
        let finishedTasks = Locked(0)
        let loader = loader
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
            $0.imageIDFilter = { url in
                prefetcherBox.withLock { $0 }?.stopPrefetching(with: [url])
                return url.absoluteString
            }
            $0.taskMetricsHandler = { _ in finishedTasks.withLock { $0 += 1 } }
        }
        let prefetcher = ImagePrefetcher(
            pipeline: pipeline,
            destination: .memoryCache,
            maxConcurrentRequestCount: 2,
            scheduler: scheduler.schedule
        )
        prefetcherBox.withLock { $0 = prefetcher }
        prefetcher.startPrefetching(with: urls(1...1))
        scheduler.runAll()
        await pipeline.waitUntilIdle()
        #expect(finishedTasks.withLock { $0 } == 0)  // no image task ran, not even one cancelled at once
        #expect(loader.record.value.started.isEmpty)
        #expect(prefetcher.counts == (0, 0))
        prefetcherBox.withLock { $0 = nil }
    }

    @Test func onARunLoopThreadTheTurnWaitsForTheLoopsNextPass() async {
        // An app's main thread: the caller runs inside a run loop's pass. The prefetcher's queue runs everything
        // it is given between the caller's start and stop (the caller preempted for that long), and still nothing
        // starts: the turn begins only when the caller is back in its loop, after the stop.
        let prefetcher = makePrefetcher()
        let url = urls(1...1)[0]
        let scheduler = scheduler
        let scheduledInsideTheCall = Locked(-1)
        let loop = RunLoopThread {
            prefetcher.startPrefetching(with: [url])
            scheduledInsideTheCall.withLock { $0 = scheduler.scheduled.value.count }
            scheduler.runAll()
            prefetcher.stopPrefetching(with: [url])
        }
        await scheduler.waitForWork()  // the turn, scheduled on the loop's next pass
        loop.stop()
        scheduler.runAll()
        #expect(scheduledInsideTheCall.withLock { $0 } == 0)
        await pipeline.waitUntilIdle()
        #expect(loader.record.value.started.isEmpty)
        #expect(prefetcher.counts == (0, 0))
    }

    @Test func onARunLoopThreadAStartBeginsOnTheLoopsNextPass() async {
        let prefetcher = makePrefetcher()
        let url = urls(1...1)[0]
        let loop = RunLoopThread { prefetcher.startPrefetching(with: [url]) }
        await scheduler.waitForWork()
        loop.stop()
        scheduler.runAll()
        await loader.waitForPending(1)
        #expect(loader.record.value.started == [url.absoluteString])
        prefetcher.stopPrefetching()
    }

    @Test func runsAtMostTheLimitInOrderAndMovesOn() async {
        let prefetcher = makePrefetcher(limit: 2)
        prefetcher.startPrefetching(with: urls(1...5))
        scheduler.runAll()
        await loader.waitForPending(2)
        // The two loads run concurrently, so the loader may see them in either order; the third waits its turn.
        #expect(Set(loader.record.value.started) == Set(urls(1...2).map(\.absoluteString)))
        #expect(prefetcher.counts == (3, 2))
        loader.release(urls(1...1)[0].absoluteString)
        await scheduler.waitForWork()  // the finished prefetch schedules the next
        scheduler.runAll()
        await loader.waitForStarts(3)
        #expect(loader.record.value.started.last == urls(3...3)[0].absoluteString)
    }

    @Test func skipsWhatIsInMemoryOrAlreadyFetching() async {
        let prefetcher = makePrefetcher(limit: 4)
        pipeline.storeCachedImage(
            Bitmap(width: 1, height: 1, red: 0, green: 0, blue: 0).platformImage,
            for: ImageRequest(url: urls(1...1)[0])
        )
        prefetcher.startPrefetching(with: urls(1...2))
        prefetcher.startPrefetching(with: urls(2...3))
        scheduler.runAll()
        await loader.waitForPending(2)
        #expect(Set(loader.record.value.started) == Set(urls(2...3).map(\.absoluteString)))
    }

    @Test func pausedPrefetchersStartNothingUntilResumed() async {
        let prefetcher = makePrefetcher()
        prefetcher.isPaused = true
        prefetcher.startPrefetching(with: urls(1...2))
        scheduler.runAll()
        #expect(loader.record.value.started.isEmpty)
        prefetcher.isPaused = false
        scheduler.runAll()
        await loader.waitForPending(2)
    }

    @Test func priorityChangesReachRunningWork() async {
        let prefetcher = makePrefetcher()
        prefetcher.startPrefetching(with: urls(1...1))
        scheduler.runAll()
        await loader.waitForPending(1)
        let key = urls(1...1)[0].absoluteString
        #expect(pipeline.inspectGraph { $0.dataPriority(for: key) } == .low)
        prefetcher.priority = .veryLow
        #expect(pipeline.inspectGraph { $0.dataPriority(for: key) } == .veryLow)
    }

    @Test func aVisibleRequestPromotesThePrefetchInsteadOfRestartingIt() async throws {
        let prefetcher = makePrefetcher()
        prefetcher.startPrefetching(with: urls(1...1))
        scheduler.runAll()
        await loader.waitForPending(1)
        let visible = pipeline.imageTask(with: ImageRequest(url: urls(1...1)[0], priority: .high))
        #expect(pipeline.inspectGraph { $0.dataPriority(for: self.urls(1...1)[0].absoluteString) } == .high)
        loader.release()
        _ = try await visible.response
        #expect(loader.record.value.started.count == 1)
        _ = prefetcher
    }

    @Test func prefetchKeepingLetsRunningWorkGoOnStartsNothingAndReturnsWhatItCancelled() async throws {
        let finished = AsyncCondition<[String]>([])
        let prefetcher = makePrefetcher(limit: 2) { activity in
            if case .finished(let request, _) = activity { finished.update { $0.append(request.identity) } }
        }
        let requests = urls(1...5).map { ImageRequest(url: $0) }
        let keys = urls(1...5).map(\.absoluteString)
        #expect(prefetcher.prefetch([requests[0], requests[1], requests[4]]).isEmpty)
        scheduler.runAll()
        await loader.waitForPending(2)  // 1 and 2 run, 5 waits

        // 1 is only kept: it goes on. 2 is in neither list: cancelled. 5 waited: dropped, not "cancelled".
        // 4 is only kept and never ran: it does not start.
        let cancelled = prefetcher.prefetch([requests[2]], keeping: [requests[0], requests[3]])
        try #require(cancelled.map(\.url) == [requests[1].url])
        await loader.waitForCancellations(1)
        #expect(loader.record.value.cancelled == [keys[1]])
        scheduler.runAll()
        await loader.waitForPending(2)  // 1 and 3
        #expect(Set(loader.record.value.started) == Set(keys[0...2]))
        #expect(prefetcher.counts == (pending: 0, running: 2))
        #expect(pipeline.inspectGraph { $0.dataPriority(for: keys[0]) } == .low, "1 still loads")

        // 1 finishes and frees its slot: still nothing starts 4.
        loader.release(keys[0])
        await finished.wait { $0.contains(keys[0]) }
        scheduler.runAll()
        #expect(prefetcher.counts == (pending: 0, running: 1))
        #expect(pipeline.inspectGraph { $0.dataPriority(for: keys[3]) } == nil)
        #expect(pipeline.inspectGraph { $0.dataPriority(for: keys[4]) } == nil)

        // A later list without 3 cancels it, and says so.
        #expect(prefetcher.prefetch([], keeping: [requests[3]]).map(\.url) == [requests[2].url])
        #expect(prefetcher.counts == (pending: 0, running: 0))
    }

    @Test func stoppingCancelsRunningWork() async {
        let prefetcher = makePrefetcher()
        prefetcher.startPrefetching(with: urls(1...2))
        scheduler.runAll()
        await loader.waitForPending(2)
        prefetcher.stopPrefetching(with: urls(1...1))
        await loader.waitForCancellations(1)
        #expect(loader.record.value.cancelled == [urls(1...1)[0].absoluteString])
        prefetcher.stopPrefetching()
        await loader.waitForCancellations(2)
    }

    @Test func releasingThePrefetcherStopsEverything() async {
        var prefetcher: ImagePrefetcher? = makePrefetcher()
        prefetcher?.startPrefetching(with: urls(1...2))
        scheduler.runAll()
        await loader.waitForPending(2)
        prefetcher = nil
        await loader.waitForCancellations(2)
        #expect(prefetcher == nil)
    }

    @Test func theDiskDestinationStoresDataAndDecodesNothing() async throws {
        let folder = TemporaryDirectory("lookahead-prefetch-disk")
        let disk = DiskCache(directory: folder.url)
        let loader = GatedDataLoader(isGated: false)
        let decoded = AsyncCondition(0)
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = disk
            $0.eventHandler = { event in
                if case .imageDecoded = event { decoded.update { $0 += 1 } }
            }
        }
        let prefetcher = ImagePrefetcher(
            pipeline: pipeline,
            destination: .diskCache,
            maxConcurrentRequestCount: 2,
            scheduler: scheduler.schedule
        )
        prefetcher.startPrefetching(with: urls(1...2))
        scheduler.runAll()
        await loader.waitForStarts(2)
        await pipeline.waitUntilIdle()
        #expect(urls(1...2).allSatisfy { disk.containsData(for: $0.absoluteString) })
        #expect(pipeline.cachedImage(for: ImageRequest(url: urls(1...1)[0])) == nil)
        #expect(decoded.value == 0)
        let response = try await pipeline.image(for: urls(1...1)[0])
        #expect(response.cacheType == .disk)
    }
}

/// A thread running its own run loop, like an app's main thread, that runs `body` inside the loop's first pass.
private final class RunLoopThread: Sendable {
    private let isStopped = Locked(false)

    init(_ body: @escaping @Sendable () -> Void) {
        Thread { [self] in
            RunLoop.current.perform(inModes: [.common], block: body)
            // A timer keeps the loop alive; a pass returns as soon as it has run something.
            let timer = Timer(timeInterval: 3600, repeats: false) { _ in }
            RunLoop.current.add(timer, forMode: .default)
            while !self.isStopped.withLock({ $0 }) {
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
            timer.invalidate()
        }.start()
    }

    func stop() { isStopped.withLock { $0 = true } }
}
