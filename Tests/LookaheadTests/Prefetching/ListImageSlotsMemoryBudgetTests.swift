// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the prefetch window bounded by the memory cache: no more rows than the cache holds beside
// the visible ones, at the cost learned from decoded images or a thumbnail size; unchanged with a large cache.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ListImageSlotsMemoryBudgetTests {
    let network = GatedDataLoader()
    let clock = ManualClock()
    let scheduler = ManualScheduler()

    /// The decoded cost of `TestImages.jpeg` (64×48 RGBA), what every download here decodes to.
    static let imageCost = 64 * 48 * 4

    private func makePipeline(costLimit: Int) -> ImagePipeline {
        let network = network
        return ImagePipeline {
            $0.dataLoader = network
            $0.diskCache = nil
            $0.memoryCache = MemoryCache(costLimit: costLimit, entryCostLimit: costLimit)
            $0.dataLoadingConcurrency = 64
            $0.maximumBackgroundDataLoads = 64
        }
    }

    private func makeLoader(
        _ pipeline: ImagePipeline,
        _ configure: (inout ListImageSlots<Int>.Configuration) -> Void = { _ in }
    ) -> ListImageSlots<Int> {
        var configuration = ListImageSlots<Int>.Configuration()
        configure(&configuration)
        let clock = clock
        return ListImageSlots(
            pipeline: pipeline,
            snapshot: ListSnapshot(0..<1000),
            configuration: configuration,
            now: { clock.now.offset },
            prefetchScheduler: scheduler.schedule
        )
    }

    private func url(_ row: Int) -> String { "https://example.com/\(row).jpg" }
    private func request(_ row: Int) -> ImageRequest? { ImageRequest(url: URL(string: url(row))) }
    private func thumbnailRequest(_ row: Int) -> ImageRequest? {
        ImageRequest(url: URL(string: url(row)), thumbnail: ThumbnailOptions(width: 64, height: 64))
    }

    private func setTime(_ milliseconds: Int) {
        clock.advance(by: .milliseconds(milliseconds) - clock.now.offset)
    }

    // MARK: - Bounded

    @Test func aSmallCacheBoundsTheWindowOnceAnImageHasBeenDecoded() async throws {
        // Room for 8 images; 0.75 of it for 6 rows: the 4 on screen and 2 prefetched.
        let pipeline = makePipeline(costLimit: 8 * Self.imageCost)
        let loader = makeLoader(pipeline) { $0.window.minimumAhead = 10 }

        // Before any image is seen the configured window holds: 10 ahead, 2 behind; 6 of them start.
        setTime(0)
        #expect(loader.visibleRowsChanged(10..<14, requests: request).prefetch == Array(14..<24) + [9, 8])
        #expect(loader.prefetchLimit == nil)
        scheduler.runAll()
        var seen = Set(runningRows(loader))
        #expect(seen == Set(14..<20))

        // The first prefetch decodes: its cost bounds the window.
        await network.waitForPending(url(14))
        network.release(url(14))
        await scheduler.waitForWork()  // the finished prefetch told the loader, then asked for the next turn
        #expect(loader.prefetchLimit == 2)

        // A slow scroll down: no prefetch starts for a row more than 2 beyond the screen.
        for (step, time) in [100, 350, 600, 850, 1100, 1350].enumerated() {
            setTime(time)
            let first = 10 + step
            let update = loader.visibleRowsChanged(first..<(first + 4), requests: request)
            scheduler.runAll()
            #expect(update.prefetch.allSatisfy { $0 >= first + 4 && $0 < first + 6 }, "\(update.prefetch)")
            for row in runningRows(loader) where seen.insert(row).inserted {
                #expect(row >= first + 4 && row < first + 6, "row \(row) prefetched beyond what the cache holds")
            }
            #expect(loader.prefetcher.counts.pending == 0)
        }
        // Rows 15–19 were running already; 20 came within 2 rows of the screen last.
        #expect(seen == Set(14...20))
    }

    /// The rows of the prefetches running now.
    private func runningRows(_ loader: ListImageSlots<Int>) -> [Int] {
        loader.prefetcher.runningRequests.compactMap {
            Int($0.identity.dropFirst("https://example.com/".count).dropLast(4))
        }
    }

    @Test func aThumbnailSizeBoundsTheWindowBeforeAnyImageIsDecoded() {
        // 64×64 thumbnails cost 16 KiB; room for 8 of them, 0.75 of it: 6 rows, 2 beyond the 4 on screen.
        let pipeline = makePipeline(costLimit: 8 * 64 * 64 * 4)
        let loader = makeLoader(pipeline)
        loader.bind(10, request: thumbnailRequest(10), to: ImageSlot(pipeline: pipeline) { _ in })
        #expect(loader.visibleRowsChanged(10..<14, requests: thumbnailRequest).prefetch == [14, 15])
        #expect(loader.prefetchLimit == 2)
    }

    @Test func visibleRowsThatFillTheBudgetLeaveNoRowToPrefetch() {
        let pipeline = makePipeline(costLimit: 4 * 64 * 64 * 4)
        let loader = makeLoader(pipeline)
        loader.bind(10, request: thumbnailRequest(10), to: ImageSlot(pipeline: pipeline) { _ in })
        #expect(loader.visibleRowsChanged(10..<14, requests: thumbnailRequest).prefetch.isEmpty)
        #expect(loader.prefetchLimit == 0)
    }

    @Test func theFractionIsConfigurableAndNilTurnsTheBoundOff() {
        let pipeline = makePipeline(costLimit: 8 * 64 * 64 * 4)
        let whole = makeLoader(pipeline) { $0.memoryBudgetFraction = 1 }
        whole.bind(10, request: thumbnailRequest(10), to: ImageSlot(pipeline: pipeline) { _ in })
        #expect(whole.visibleRowsChanged(10..<14, requests: thumbnailRequest).prefetch == [14, 15, 16, 17])

        let unbounded = makeLoader(pipeline) { $0.memoryBudgetFraction = nil }
        unbounded.bind(10, request: thumbnailRequest(10), to: ImageSlot(pipeline: pipeline) { _ in })
        #expect(unbounded.visibleRowsChanged(10..<14, requests: thumbnailRequest).prefetch.count == 6)
        #expect(unbounded.prefetchLimit == nil)
    }

    // MARK: - Unchanged

    @Test func aLargeCacheLeavesTheWindowAsConfigured() {
        // 64 MiB of 16 KiB thumbnails: thousands of rows, far more than the window's 40 ahead.
        let pipeline = makePipeline(costLimit: 64 << 20)
        let bounded = makeLoader(pipeline)
        let unbounded = makeLoader(pipeline) { $0.memoryBudgetFraction = nil }
        for loader in [bounded, unbounded] {
            loader.bind(0, request: thumbnailRequest(0), to: ImageSlot(pipeline: pipeline) { _ in })
        }
        // A quick scroll (about 40 rows a second) whose window grows past its minimum.
        for frame in 0..<30 {
            clock.advance(by: .milliseconds(16))
            let position = Double(frame) * 0.65
            let first = Int(position)
            let rows = first..<(first + 8)
            let expected = unbounded.visibleRowsChanged(rows, position: position, requests: thumbnailRequest)
            #expect(bounded.visibleRowsChanged(rows, position: position, requests: thumbnailRequest) == expected)
        }
        #expect(bounded.controller.desiredRows.count > 6, "the window grew with the speed")
        #expect(bounded.prefetchLimit.map { $0 > 40 } ?? false)
    }

    // MARK: - The budget

    @Test func theCostIsAMeanOfTheImagesSeenThatFollowsTheLatestOnes() {
        var budget = PrefetchMemoryBudget(fraction: 0.5)
        #expect(budget.prefetchLimit(visibleCount: 4, costLimit: 1 << 20) == nil, "nothing seen: no bound")
        budget.record(cost: 1000)
        budget.record(cost: 3000)
        #expect(budget.averageCost == 2000)
        #expect(budget.prefetchLimit(visibleCount: 4, costLimit: 40_000) == 6)  // 20,000 / 2000 − 4
        #expect(budget.prefetchLimit(visibleCount: 4, costLimit: nil) == nil, "no memory cache: no bound")
        // After many large images the mean is theirs, whatever came first.
        for _ in 0..<200 { budget.record(cost: 8000) }
        #expect(abs((budget.averageCost ?? 0) - 8000) < 10)
        // A seen cost wins over a thumbnail estimate.
        budget.record(
            request: ImageRequest(url: URL(string: url(0)), thumbnail: ThumbnailOptions(maximumPixelSize: 10))
        )
        #expect(budget.estimatedCost.map { abs($0 - 8000) < 10 } ?? false)
        #expect(PrefetchMemoryBudget(fraction: 0.75).prefetchLimit(visibleCount: 4, costLimit: .max) == nil)
    }

    @Test func aBoundKeepsTheNearestRowsOrDuringAFlingTheRowsWhereItRests() {
        let wish = [20, 21, 22, 23, 24, 25]
        #expect(PrefetchMemoryBudget.bound(wish, to: 2, isFlinging: false) == [20, 21])
        #expect(PrefetchMemoryBudget.bound(wish, to: 2, isFlinging: true) == [24, 25])
        #expect(PrefetchMemoryBudget.bound(wish, to: 10, isFlinging: false) == wish)
        #expect(PrefetchMemoryBudget.bound(wish, to: nil, isFlinging: true) == wish)
        #expect(PrefetchMemoryBudget.bound(wish, to: 0, isFlinging: false).isEmpty)
    }
}
