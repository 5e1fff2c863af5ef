// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ListImageSlots on a manual clock: hand-over on unbind, delayed cancellation, no thrash,
// cells bound during a fling, stop, and the rows its updates name.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ListImageSlotsTests {
    let network = GatedDataLoader()
    let clock = ManualClock()
    let scheduler = ManualScheduler()
    let pipeline: ImagePipeline
    /// Every state each row's slots showed, as short labels.
    let states = AsyncCondition<[Int: [String]]>([:])

    init() {
        let network = network
        pipeline = ImagePipeline {
            $0.dataLoader = network
            $0.diskCache = nil
            // Every download the loader asks for reaches the gate at once: nothing queues inside the pipeline.
            $0.dataLoadingConcurrency = 64
            $0.maximumBackgroundDataLoads = 64
        }
    }

    private func makeLoader(_ configure: (inout ListImageSlots<Int>.Configuration) -> Void = { _ in })
        -> ListImageSlots<Int>
    {
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

    /// The priority of the download of a row's image, `nil` when none runs.
    private func priority(_ row: Int) -> ImageRequest.Priority? {
        pipeline.inspectGraph { $0.dataPriority(for: url(row)) }
    }

    /// Sets the manual clock to `milliseconds` after the start.
    private func setTime(_ milliseconds: Int) {
        clock.advance(by: .milliseconds(milliseconds) - clock.now.offset)
    }

    private func makeSlot(row: Int) -> ImageSlot {
        let states = states
        return ImageSlot(pipeline: pipeline) { state in
            let label =
                switch state {
                case .empty: "empty"
                case .loading, .preview: "loading"
                case .loaded(_, _, let cache): "loaded \(cache.map { "\($0)" } ?? "network")"
                case .failed: "failed"
                }
            states.update { $0[row, default: []].append(label) }
        }
    }

    /// Binds a new slot to every row of `rows` that has none, and unbinds the rows that left.
    private func show(_ rows: Range<Int>, in loader: ListImageSlots<Int>, bound: inout [Int: ImageSlot]) {
        for row in bound.keys.sorted() where !rows.contains(row) {
            loader.unbind(row)
            bound[row] = nil
        }
        for row in rows where bound[row] == nil {
            let slot = makeSlot(row: row)
            bound[row] = slot
            loader.bind(row, request: request(row), to: slot)
        }
    }

    // MARK: - Unbinding

    @Test func unbindingANearbyRowDemotesItsLoadAndCancelsItOnlyAfterTheDelay() async throws {
        let loader = makeLoader {
            $0.keepMargin = 2
            $0.cancellationDelay = .milliseconds(400)
        }
        // The prefetcher's turns never run here: the only download is row 20's own.
        loader.visibleRowsChanged(20..<24, requests: request)
        let slot = makeSlot(row: 20)
        loader.bind(20, request: request(20), to: slot)
        await network.waitForPending(1)
        #expect(priority(20) == .high, "a visible cell loads at visible priority")

        // Row 20 scrolls off (4 rows a second): its cell is reused, its download becomes a prefetch.
        setTime(250)
        loader.visibleRowsChanged(21..<25, requests: request)
        loader.unbind(20)
        #expect(priority(20) == .low, "demoted to prefetch priority, not cancelled")
        #expect(loader.prefetcher.counts.running == 1)
        for (time, first) in [(500, 22), (750, 23), (1000, 24)] {
            setTime(time)
            #expect(loader.visibleRowsChanged(first..<(first + 4), requests: request).cancel.isEmpty)
        }
        #expect(loader.controller.keptRows(margin: 2).contains(20), "at 1 s row 20 is still near the window")

        // From here row 20 is beyond the kept rows; its download goes on until 400 ms after 1 s.
        setTime(1250)
        #expect(loader.visibleRowsChanged(25..<29, requests: request).cancel.isEmpty)
        #expect(!loader.controller.keptRows(margin: 2).contains(20))
        setTime(1390)
        #expect(loader.visibleRowsChanged(25..<29, requests: request).cancel.isEmpty)
        #expect(priority(20) == .low, "390 ms after it left the window the download still runs")
        #expect(network.record.value.cancelled.isEmpty)

        setTime(1410)
        #expect(loader.visibleRowsChanged(25..<29, requests: request).cancel == [20])
        try #require(priority(20) == nil, "past the delay the download is cancelled")
        await network.waitForCancellations(1)
        #expect(network.record.value.cancelled == [url(20)])
        #expect(network.record.value.started == [url(20)])
    }

    @Test func theFirstScreensDownloadsOutliveAJumpAwayAndTheRowsBelowThemDoNot() async throws {
        let loader = makeLoader {
            $0.keepMargin = 2
            $0.cancellationDelay = .milliseconds(400)
        }
        // The list appears with eight rows on screen; rows 0 and 7 load.
        loader.visibleRowsChanged(0..<8, requests: request)
        for row in [0, 7] { loader.bind(row, request: request(row), to: makeSlot(row: row)) }
        await network.waitForPending(2)
        // A jump far down to a screen of four rows, then long past the delay. The first screen (as many rows as
        // are visible now) is where a scroll to the top returns, so row 0's download goes on; row 7's stops.
        setTime(100)
        loader.visibleRowsChanged(500..<504, requests: request)
        for row in [0, 7] { loader.unbind(row) }
        setTime(2000)
        let update = loader.visibleRowsChanged(500..<504, requests: request)
        #expect(!update.cancel.contains(0))
        #expect(priority(0) == .low, "the first screen's download runs on, as a prefetch")
        try #require(priority(7) == nil, "a row below the first screen is given up")
        await network.waitForCancellations(1)
        #expect(network.record.value.cancelled == [url(7)])
    }

    /// A loader (a margin of 2 rows, a 400 ms delay) whose cell for row 500 is loading, at time 0.
    private func loaderLoadingRow500() async -> ListImageSlots<Int> {
        let loader = makeLoader {
            $0.keepMargin = 2
            $0.cancellationDelay = .milliseconds(400)
        }
        setTime(0)
        loader.visibleRowsChanged(500..<504, requests: request)
        loader.bind(500, request: request(500), to: makeSlot(row: 500))
        await network.waitForPending(1)
        return loader
    }

    @Test func aJumpToTheTopCancelsTheDownloadsItLeftBehindAtOnce() async throws {
        // A cell far down the list loads; the list then jumps to the top (a tap on the status bar).
        let loader = await loaderLoadingRow500()
        // UIKit's order: the scroll first, then the cells that left.
        setTime(16)
        loader.visibleRowsChanged(0..<4, requests: request)
        #expect(loader.controller.jumpedToAnEnd)
        loader.unbind(500)
        // Without the jump the download would go on for the delay as a prefetch; after it, the row is far away.
        try #require(priority(500) == nil, "cancelled at once, not handed over")
        await network.waitForCancellations(1)
        #expect(network.record.value.cancelled == [url(500)])
        #expect(loader.prefetcher.counts.running == 0)
    }

    @Test func aVeryFastFlingsFramesLookLikeJumpsButHandTheirLoadsOver() async throws {
        let loader = await loaderLoadingRow500()
        // 300 rows in one frame, mid-list: over the jump threshold, but a fling's frame as likely as a jump.
        setTime(16)
        loader.visibleRowsChanged(200..<204, requests: request)
        #expect(loader.controller.jumped && !loader.controller.jumpedToAnEnd)
        loader.unbind(500)
        #expect(priority(500) == .low, "handed over as a prefetch")
        #expect(network.record.value.cancelled.isEmpty)
        loader.stop()
    }

    @Test func withoutAJumpAFarRowsDownloadStillWaitsForTheDelay() async throws {
        let loader = await loaderLoadingRow500()
        // A quick scroll of three viewports: under the jump threshold, so the list may well come back.
        setTime(16)
        loader.visibleRowsChanged(512..<516, requests: request)
        #expect(!loader.controller.jumped)
        loader.unbind(500)
        #expect(priority(500) == .low, "handed over as a prefetch")
        #expect(network.record.value.cancelled.isEmpty)
        loader.stop()
    }

    @Test func aSmallBackAndForthStartsEachDownloadOnceAndCancelsNone() async {
        let loader = makeLoader()
        var bound: [Int: ImageSlot] = [:]
        // 5 rows a second, back and forth. Downloads running after each step: the cells 0–3 and the prefetches
        // 4–7; then 8 too (6 prefetches at most, the demoted row 0 among them).
        let steps: [(rows: Range<Int>, running: ClosedRange<Int>)] = [
            (0..<4, 0...7), (1..<5, 0...8), (0..<4, 0...8), (1..<5, 0...8),
        ]
        for (index, step) in steps.enumerated() {
            setTime(index * 200)
            let update = loader.visibleRowsChanged(step.rows, requests: request)
            #expect(update.cancel.isEmpty, "step \(index) cancelled rows \(update.cancel)")
            show(step.rows, in: loader, bound: &bound)
            scheduler.runAll()
            let running = (0...20).filter { priority($0) != nil }
            #expect(running == Array(step.running), "step \(index)")
            await network.waitForStarts(step.running.count)
        }
        let record = network.record.value
        #expect(record.started.count == 9, "started \(record.started)")
        #expect(Set(record.started) == Set((0...8).map(url)))
        #expect(record.cancelled.isEmpty)
        #expect(loader.prefetcher.counts == (pending: 2, running: 6), "9 and 10 wait for a free prefetch slot")
        #expect((1...4).allSatisfy { priority($0) == .high }, "the visible cells joined the downloads")
        #expect(priority(0) == .low, "row 0's download went on as a prefetch")
        #expect(priority(9) == nil && priority(10) == nil)
    }

    // MARK: - Flings

    /// Frames at 60 Hz: the list moves 5 rows a frame (300 rows a second) until the loader calls it a fling, then
    /// decelerates from there like `UIScrollView` (or, with `holdAfter`, is held still after that many more frames:
    /// a finger stopping the fling). `position` is the fractional top of the viewport at the last frame.
    private struct Fling {
        static let k = -Foundation.log(0.998) * 1000
        var position = 10.0
        var coastStart: (position: Double, frame: Int)?
        var holdAfter: Int?

        mutating func advance(to frame: Int) {
            guard let start = coastStart else {
                position += 5
                return
            }
            var elapsed = Double(frame - start.frame)
            if let holdAfter { elapsed = min(elapsed, Double(holdAfter)) }
            position = start.position + 300 / Self.k * (1 - Foundation.exp(-Self.k * elapsed / 60))
        }

        mutating func loaderUpdated(_ loader: ListImageSlots<Int>, frame: Int) {
            if coastStart == nil, loader.isFlinging { coastStart = (position, frame) }
        }
    }

    @Test func aCellBoundDuringAFlingWaitsAndShowsThePrefetchedImage() async throws {
        let loader = makeLoader()
        var fling = Fling()
        var bound: [Int: ImageSlot] = [:]
        var deferred: [Int] = []
        var candidate: Int?
        var frame = 0
        let top = Int(fling.position)
        loader.visibleRowsChanged(top..<(top + 6), position: fling.position, requests: request)
        while candidate == nil, frame < 200 {
            frame += 1
            let rows = step(loader, &fling, to: frame)
            let entering = rows.filter { bound[$0] == nil }
            let worthLoading = Set(entering.filter(loader.controller.isWorthLoading))
            show(rows, in: loader, bound: &bound)
            for row in entering where loader.isFlinging && !worthLoading.contains(row) {
                deferred.append(row)
                #expect(priority(row) != .high, "row \(row), bound during the fling, started its own load")
                #expect(states.value[row] == ["loading"], "row \(row) shows its placeholder")
                // A prefetch of this row's image, started before the row came on screen, still runs.
                if priority(row) == .normal { candidate = row }
            }
            scheduler.runAll()
        }
        #expect(deferred.count > 20, "the fling showed many rows without loading them")
        let row = try #require(candidate, "no row on screen during the fling had a running prefetch")
        #expect(!loader.controller.isWorthLoading(row))
        // A finished prefetch schedules the prefetcher's next turn after telling the loader; with rows waiting and
        // nothing scheduled now, that turn marks the moment the loader has been told.
        try #require(loader.prefetcher.counts.pending > 0 && scheduler.scheduled.value.isEmpty)

        await network.waitForPending(url(row))
        network.release(url(row))
        await scheduler.waitForWork()
        // The prefetch finished: the row's cell shows the image from memory, without a download of its own.
        #expect(states.value[row] == ["loading", "loaded memory"])
        #expect(network.record.value.started.filter { $0 == url(row) }.count == 1)
    }

    /// One 60 Hz frame of a fling: the clock, the position, the six rows on screen, told to the loader.
    private func step(_ loader: ListImageSlots<Int>, _ fling: inout Fling, to frame: Int) -> Range<Int> {
        clock.advance(by: .nanoseconds(16_666_667))
        fling.advance(to: frame)
        let top = Int(fling.position.rounded(.down))
        let rows = top..<(top + 6)
        loader.visibleRowsChanged(rows, position: fling.position, requests: request)
        fling.loaderUpdated(loader, frame: frame)
        return rows
    }

    /// The rows a fling passes: their downloads stop at once when a download takes longer than the cancellation
    /// delay (they would hold connections the resting rows need), else they go on like any row's that leaves.
    @Test(arguments: [100, 600])
    func aFlingStopsThePassedRowsDownloadsAtOnceOnlyWhenDownloadsAreSlow(latency: Int64) throws {
        let loader = makeLoader { $0.window.initialLatency = .milliseconds(latency) }
        var fling = Fling()
        var bound: [Int: ImageSlot] = [:]
        var started: Set<Int> = []
        var passed: Set<Int> = []
        var frame = 0
        var coasting = 0
        loader.visibleRowsChanged(10..<16, position: fling.position, requests: request)
        // Until 200 ms into the fling: half the cancellation delay (400 ms) after the first frames' downloads.
        while coasting < 12, frame < 100 {
            frame += 1
            let rows = step(loader, &fling, to: frame)
            show(rows, in: loader, bound: &bound)
            scheduler.runAll()
            started.formUnion(rows.filter { priority($0) != nil })
            if loader.isFlinging { coasting += 1 }
            // Behind the rows on screen, beyond the margin a row keeps its download in.
            passed = started.filter { $0 < rows.lowerBound - 3 }
        }
        try #require(loader.isFlinging && passed.count >= 5, "\(passed)")
        let running = passed.filter { priority($0) != nil }
        if latency < 400 {
            #expect(running == passed, "fast downloads go on")
        } else {
            #expect(running.isEmpty, "slow downloads stop at once: \(running)")
        }
    }

    @Test func cellsDeferredDuringAFlingLoadOnceTheyAreWorthLoading() {
        let loader = makeLoader()
        // Held still 3 frames into the coast: the rows on screen were bound while the list was fast.
        var fling = Fling(holdAfter: 3)
        var bound: [Int: ImageSlot] = [:]
        var everWorthLoading: Set<Int> = []
        var boundWhileNotWorthLoading: Set<Int> = []
        var frame = 0
        var hasFlung = false
        while frame < 600, !hasFlung || loader.isFlinging {
            frame += 1
            let rows = step(loader, &fling, to: frame)
            hasFlung = hasFlung || loader.isFlinging
            let entering = rows.filter { bound[$0] == nil }
            boundWhileNotWorthLoading.formUnion(entering.filter { !loader.controller.isWorthLoading($0) })
            show(rows, in: loader, bound: &bound)
            scheduler.runAll()
            for row in rows {
                // A cell loads at visible priority once its row is worth loading — in `bind`, or in the first
                // update after — and never before.
                if loader.controller.isWorthLoading(row) {
                    everWorthLoading.insert(row)
                    #expect(priority(row) == .high, "frame \(frame): row \(row) is worth loading but does not load")
                } else if !everWorthLoading.contains(row) {
                    #expect(priority(row) != .high, "frame \(frame): row \(row) loads before it is worth it")
                }
            }
        }
        #expect(hasFlung && !loader.isFlinging)
        let deferredThenLoaded = boundWhileNotWorthLoading.intersection(everWorthLoading)
        #expect(
            deferredThenLoaded.count >= 3,
            "cells bound while not worth loading started later: \(deferredThenLoaded)"
        )
        let top = Int(fling.position.rounded(.down))
        #expect((top..<(top + 6)).allSatisfy { priority($0) == .high })
    }

    // MARK: - Stopping and the log

    @Test func stopCancelsPrefetchesAndCellLoads() async throws {
        let loader = makeLoader()
        var bound: [Int: ImageSlot] = [:]
        loader.visibleRowsChanged(0..<4, requests: request)
        show(0..<4, in: loader, bound: &bound)
        scheduler.runAll()
        setTime(200)
        loader.visibleRowsChanged(1..<5, requests: request)
        show(1..<5, in: loader, bound: &bound)  // row 0's load is handed to the prefetcher
        scheduler.runAll()
        await network.waitForPending(9)  // cells 1–4, the demoted row 0, prefetches 5–8

        loader.stop()
        #expect(loader.prefetcher.counts == (pending: 0, running: 0))
        #expect(bound.values.allSatisfy { if case .empty = $0.state { true } else { false } })
        try #require(pipeline.inspectGraph { $0.stageCount } == 0, "every download was cancelled")
        await network.waitForCancellations(9)
        #expect(Set(network.record.value.cancelled) == Set((0...8).map(url)))
    }

    @Test func theUpdateNamesOnlyRowsWhoseDownloadsItCancelled() async throws {
        let loader = makeLoader { $0.maximumConcurrentPrefetches = 3 }
        loader.visibleRowsChanged(0..<4, requests: request)  // wishes 4–7
        scheduler.runAll()
        await network.waitForPending(3)
        #expect(Set(network.record.value.started) == Set((4...6).map(url)), "row 7 waits for a slot")
        network.release(url(4))
        await scheduler.waitForWork()  // row 4 finished and freed its slot; row 7 stays queued
        #expect(pipeline.cachedImage(for: request(4)!) != nil)

        // A jump, long after: rows 4–7 are given up, but only 5 and 6 had downloads left to cancel.
        setTime(1000)
        let update = loader.visibleRowsChanged(100..<104, requests: request)
        try #require(update.cancel == [5, 6])
        #expect(update.prefetch.allSatisfy { $0 >= 98 && $0 < 112 })
        await network.waitForCancellations(2)
        #expect(Set(network.record.value.cancelled) == [url(5), url(6)])
        #expect(!network.record.value.started.contains(url(7)))
    }
}
