// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ListPrefetchController, driven synchronously with explicit timestamps.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

@Suite struct ListPrefetchControllerTests {
    private func ms(_ value: Int) -> Duration { .milliseconds(value) }

    @Test func aStillListPrefetchesTheMinimumAhead() {
        var controller = ListPrefetchController(itemCount: 200)
        let update = controller.visibleRangeChanged(0..<8, at: .zero)
        #expect(update.prefetch == [8, 9, 10, 11])
        #expect(update.cancel.isEmpty)
        #expect(update.logMessages == ["🚀 Prefetching images for rows: [9, 10, 11, 12]"])
    }

    @Test func aSlowScrollAddsRowsAheadNearestFirstAndKeepsTwoBehind() {
        var controller = ListPrefetchController(itemCount: 200)
        _ = controller.visibleRangeChanged(0..<8, at: .zero)
        let update = controller.visibleRangeChanged(1..<9, at: ms(333))  // 3 rows a second
        #expect(controller.velocity > 1 && controller.velocity < 3.1)
        #expect(update.prefetch.first == 12)
        #expect(update.prefetch.contains(0), "one row behind becomes a prefetch")
        #expect(update.cancel.isEmpty)
        #expect(!controller.prefetched.contains(8), "a visible row is the cell's to load")
    }

    @Test func theWindowGrowsWithVelocityAndLatency() {
        var slow = ListPrefetchController(itemCount: 1000)
        var fast = ListPrefetchController(itemCount: 1000)
        for step in 0...10 {
            _ = slow.visibleRangeChanged(step..<(step + 8), at: ms(step * 500))  // 2 rows/s
            _ = fast.visibleRangeChanged((step * 3)..<(step * 3 + 8), at: ms(step * 150))  // 20 rows/s
        }
        #expect(fast.prefetched.count > slow.prefetched.count)
        var measured = fast
        measured.recordLoadLatency(.seconds(2))
        #expect(measured.latency > fast.latency)
        #expect(measured.desiredRows.count > fast.desiredRows.count)
        #expect(fast.desiredRows.count <= 40 + 2 + 8 + 4, "bounded")
    }

    @Test func theFirstMeasuredLatencyReplacesTheInitialGuessAndLaterOnesBlendIn() {
        var controller = ListPrefetchController(itemCount: 100)
        #expect(controller.latency == .milliseconds(250), "the initial guess")
        controller.recordLoadLatency(.milliseconds(900))
        #expect(controller.latency == .milliseconds(900), "a slow network is believed at its first load")
        controller.recordLoadLatency(.milliseconds(100))
        #expect(controller.latency == .milliseconds(660), "then each measurement weighs 30 %")
    }

    @Test func theVelocityEstimateIsSteadyAt120Hertz() {
        // 60 rows a second sampled at 120 Hz: the first visible row moves every other frame (0, 1, 0, 1, …).
        var controller = ListPrefetchController(itemCount: 1000)
        var estimates: [Double] = []
        for frame in 0...120 {
            let row = frame / 2
            _ = controller.visibleRangeChanged(row..<(row + 8), at: .nanoseconds(Int64(frame) * 8_333_333))
            if frame >= 20 { estimates.append(controller.velocity) }
        }
        let low = estimates.min() ?? 0
        let high = estimates.max() ?? 0
        #expect(low > 45 && high < 75, "the estimate swings between \(low) and \(high) rows/s around 60")
    }

    @Test func aSlowScrollSampledEveryFrameIsNeverAFling() {
        // 3 rows a second at 60 Hz: the first visible row steps by one every 20 frames, which reads as a burst of
        // speed in the frame it happens.
        var controller = ListPrefetchController(itemCount: 200)
        var flinging = 0
        var peak = 0.0
        for frame in 0...240 {
            let row = frame / 20
            _ = controller.visibleRangeChanged(row..<(row + 8), at: .nanoseconds(Int64(frame) * 16_666_667))
            peak = max(peak, controller.velocity)
            if controller.isFlinging { flinging += 1 }
        }
        #expect(peak > 24, "a step does read as fast for a frame (\(peak) rows/s)")
        #expect(flinging == 0, "but it is never taken for a fling")
    }

    @Test func aFlingPrefetchesWhereItWillComeToRestAndSkipsTheRowsItFliesPast() {
        var controller = ListPrefetchController(itemCount: 400)
        _ = controller.visibleRangeChanged(20..<28, at: .zero)
        // 100 rows a second: a UIScrollView-like fling coasts about 50 rows further, to rest near row 80.
        for step in 1...5 {
            _ = controller.visibleRangeChanged((20 + step * 2)..<(28 + step * 2), at: ms(step * 20))
        }
        let prefetched = controller.prefetched
        #expect(controller.isFlinging)
        #expect(Set(80...86).isSubset(of: prefetched), "the resting window (got \(prefetched))")
        #expect(!prefetched.contains { (38..<50).contains($0) }, "rows passed at full speed would load too late")
        #expect(prefetched == prefetched.sorted(), "in the order the fling reaches them")
        #expect(prefetched.allSatisfy { $0 <= 80 + 8 + 2 }, "at most `behind` rows past the resting window")
    }

    @Test func reversingCancelsTheOldSide() {
        var controller = ListPrefetchController(itemCount: 200)
        _ = controller.visibleRangeChanged(50..<58, at: .zero)
        _ = controller.visibleRangeChanged(51..<59, at: ms(300))
        let ahead = controller.prefetched.filter { $0 >= 59 }
        #expect(!ahead.isEmpty)
        let update = controller.visibleRangeChanged(50..<58, at: ms(600))
        #expect(ahead.allSatisfy { update.cancel.contains($0) || controller.prefetched.contains($0) })
        #expect(update.cancel.contains(ahead.max()!), "the far side of the old direction is cancelled")
        #expect(Array(controller.prefetched.prefix(4)) == [49, 48, 47, 46], "the new direction, nearest first")
        #expect(update.prefetch.contains(48) && !update.prefetch.contains(49), "49 was already kept behind")
        #expect(update.cancel == update.cancel.sorted { abs(Double($0) - 54) < abs(Double($1) - 54) }, "nearest first")
    }

    @Test func aJumpToTheTopCancelsEverythingOutsideTheNewWindow() {
        var controller = ListPrefetchController(itemCount: 200)
        _ = controller.visibleRangeChanged(150..<158, at: .zero)
        _ = controller.visibleRangeChanged(151..<159, at: ms(300))
        let before = controller.prefetched
        let update = controller.visibleRangeChanged(0..<8, at: ms(400))
        #expect(Set(update.cancel) == Set(before))
        #expect(update.prefetch.allSatisfy { $0 < 20 })
        #expect(controller.velocity == 0)
    }

    @Test func fewerItemsCancelPrefetchesPastTheEnd() {
        var controller = ListPrefetchController(itemCount: 20)
        _ = controller.visibleRangeChanged(6..<14, at: .zero)
        #expect(controller.prefetched.contains(17))
        let update = controller.itemCountChanged(15)
        #expect(update.cancel.contains(17))
        #expect(controller.prefetched.allSatisfy { $0 < 15 })
    }

    // MARK: - Flings with fractional positions

    /// A fling of `speed` rows a second from row `start`, decelerating like `UIScrollView` (0.998 per
    /// millisecond): the top of the viewport is at `start + speed / k × (1 − e^(−k t))`.
    private struct Deceleration {
        static let k = -Foundation.log(0.998) * 1000
        var start = 100.0
        var speed = 200.0

        func position(at seconds: Double) -> Double { start + speed / Self.k * (1 - Foundation.exp(-Self.k * seconds)) }
        func speed(at seconds: Double) -> Double { speed * Foundation.exp(-Self.k * seconds) }
        /// Where the top of the viewport comes to rest.
        var rest: Double { start + speed / Self.k }
    }

    /// Feeds the controller the rows on screen with the top of the viewport at `position` (8 rows high), and
    /// whether the list says it coasts.
    private func scroll(
        _ controller: inout ListPrefetchController,
        to position: Double,
        at seconds: Double,
        isDecelerating: Bool? = nil
    ) {
        let top = Int(position.rounded(.down))
        _ = controller.visibleRangeChanged(
            top..<(top + 8),
            at: .nanoseconds(Int64((seconds * 1e9).rounded())),
            position: position,
            isDecelerating: isDecelerating
        )
    }

    @Test func aListThatSaysItCoastsIsAFlingFromItsFirstFrameAimedAtItsRestingPoint() {
        let fling = Deceleration()
        var told = ListPrefetchController(itemCount: 2000)
        var inferred = ListPrefetchController(itemCount: 2000)
        scroll(&told, to: fling.start - 0.2, at: -1.0 / 60, isDecelerating: false)
        scroll(&inferred, to: fling.start - 0.2, at: -1.0 / 60)
        scroll(&told, to: fling.start, at: 0, isDecelerating: true)
        scroll(&inferred, to: fling.start, at: 0)
        let first = fling.position(at: 1.0 / 60)
        scroll(&told, to: first, at: 1.0 / 60, isDecelerating: true)
        scroll(&inferred, to: first, at: 1.0 / 60)
        #expect(told.isFlinging, "no confirmation delay when the list says it coasts")
        #expect(!inferred.isFlinging, "inferred from the speed, a fling waits to be confirmed")
        // The speed of a coasting list is measured, not smoothed: the resting window is the real one.
        let resting = Set((Int(fling.rest) + 1)..<(Int(fling.rest) + 8))
        #expect(resting.isSubset(of: told.desiredRows), "\(told.desiredRows)")
        #expect(abs(told.velocity - fling.speed(at: 1.0 / 120)) < 2, "\(told.velocity)")
    }

    /// The rows a coasting fling of 300 rows a second asks for at its first frame, with `latency` measured.
    private func flingRows(latency: Duration, _ configure: (inout ListPrefetchWindow) -> Void = { _ in }) -> [Int] {
        var window = ListPrefetchWindow()
        configure(&window)
        var controller = ListPrefetchController(itemCount: 2000, configuration: window)
        controller.recordLoadLatency(latency)
        let fling = Deceleration(start: 100, speed: 300)
        scroll(&controller, to: fling.start - 0.2, at: -1.0 / 60, isDecelerating: false)
        scroll(&controller, to: fling.start, at: 0, isDecelerating: true)
        scroll(&controller, to: fling.position(at: 1.0 / 60), at: 1.0 / 60, isDecelerating: true)
        #expect(controller.isFlinging)
        return controller.desiredRows
    }

    @Test func theTimeOnScreenAskedOfARowAFlingPassesIsAShareOfTheLatencyWithinBounds() {
        /// A window that asks for `milliseconds` whatever the latency.
        func fixed(_ milliseconds: Int64) -> (inout ListPrefetchWindow) -> Void {
            { window in
                window.visibleTimePerLatency = 0
                window.minimumVisibleTime = .milliseconds(milliseconds)
            }
        }
        // 100 ms measured: 70 ms asked, more than the two-frame floor.
        let fast = flingRows(latency: .milliseconds(100))
        #expect(fast == flingRows(latency: .milliseconds(100), fixed(70)))
        let floorOnly = flingRows(latency: .milliseconds(100), fixed(33))
        // The rows passed quickest are given up: the nearest row asked for is farther along the fling.
        #expect(fast.min()! > floorOnly.min()!, "\(fast) vs \(floorOnly)")
        // 1 s measured: 700 ms would leave out rows the fling passes slowly; the ceiling, 150 ms, holds.
        let slow = flingRows(latency: .seconds(1))
        #expect(slow == flingRows(latency: .seconds(1), fixed(150)))
        #expect(slow != flingRows(latency: .seconds(1), fixed(700)))
    }

    @Test func aFastDragIsNotAFlingWhenTheListSaysTheFingerIsOnIt() {
        var told = ListPrefetchController(itemCount: 2000)
        var inferred = ListPrefetchController(itemCount: 2000)
        // 120 rows a second under the finger, for a quarter of a second.
        for frame in 0...15 {
            let position = 100 + Double(frame) * 2
            scroll(&told, to: position, at: Double(frame) / 60, isDecelerating: false)
            scroll(&inferred, to: position, at: Double(frame) / 60)
        }
        #expect(inferred.isFlinging)
        #expect(!told.isFlinging, "the finger can stop the list at any moment: nothing to predict")
        #expect(told.isWorthLoading(told.visible.lowerBound), "visible rows load during a drag")
        // The finger lifts with speed: the list coasts, and from now on it is a fling.
        scroll(&told, to: 132, at: 16.0 / 60, isDecelerating: true)
        #expect(told.isFlinging)
        // The finger catches the list: the fling ends at once.
        scroll(&told, to: 133, at: 17.0 / 60, isDecelerating: false)
        #expect(!told.isFlinging)
    }

    @Test func afterAJumpToTheTopTheWindowLooksDownTheList() {
        var controller = ListPrefetchController(itemCount: 200)
        _ = controller.visibleRangeChanged(150..<158, at: .zero)
        _ = controller.visibleRangeChanged(151..<159, at: ms(300))
        let update = controller.visibleRangeChanged(0..<8, at: ms(400))
        #expect(controller.jumped)
        #expect(Array(update.prefetch.prefix(4)) == [8, 9, 10, 11], "the rows the user scrolls to next")
        _ = controller.visibleRangeChanged(0..<8, at: ms(500))
        #expect(!controller.jumped)
        #expect(Array(controller.prefetched.prefix(4)) == [8, 9, 10, 11])
    }

    @Test func afterAJumpToTheEndTheWindowLooksUpTheList() {
        var controller = ListPrefetchController(itemCount: 200)
        _ = controller.visibleRangeChanged(10..<18, at: .zero)
        _ = controller.visibleRangeChanged(11..<19, at: ms(300))
        let update = controller.visibleRangeChanged(192..<200, at: ms(400))
        #expect(Array(update.prefetch.prefix(4)) == [191, 190, 189, 188])
    }

    @Test func aVeryFastFlingWhoseFramesLookLikeJumpsKeepsTheWindowAheadOfIt() {
        var controller = ListPrefetchController(itemCount: 1000)
        _ = controller.visibleRangeChanged(600..<608, at: .zero)
        _ = controller.visibleRangeChanged(601..<609, at: ms(300))  // the list was going down
        // A fling up at 100 rows a frame: every frame is over the jump threshold.
        let update = controller.visibleRangeChanged(500..<508, at: ms(317))
        #expect(controller.jumped)
        #expect(Array(update.prefetch.prefix(4)) == [499, 498, 497, 496], "ahead of the fling, not behind it")
    }

    /// Frame times in seconds: at 60 Hz, or uneven (dropped frames, a short one) when `isUneven`.
    private func frames(until end: Double, isUneven: Bool) -> [Double] {
        let pattern = isUneven ? [16.7, 16.7, 33.3, 8.3, 16.7, 50.0, 25.0] : [1000.0 / 60]
        var times: [Double] = []
        var time = 0.0
        while time < end {
            time += pattern[times.count % pattern.count] / 1000
            times.append(time)
        }
        return times
    }

    @Test(arguments: [false, true]) func aDeceleratingFlingCoastsUntilItsModelledSpeedStops(isUneven: Bool) {
        let fling = Deceleration()
        var controller = ListPrefetchController(itemCount: 2000)
        scroll(&controller, to: fling.start, at: 0)
        var confirmed: Double?
        var ended: (time: Double, velocity: Double)?
        var resumed: [Double] = []
        for time in frames(until: 4, isUneven: isUneven) {
            scroll(&controller, to: fling.position(at: time), at: time)
            if controller.isFlinging {
                if confirmed == nil { confirmed = time }
                if ended != nil { resumed.append(time) }
            } else if confirmed != nil, ended == nil {
                ended = (time, controller.velocity)
            }
        }
        guard let confirmed, let ended else {
            Issue.record("the fling was never confirmed, or never ended")
            return
        }
        #expect(confirmed <= 0.1, "confirmed within a few frames")
        // The modelled speed follows the real one, so the fling ends when the list is nearly still: not while it
        // still moves 2 rows a second, and by the time it moves half a row a second.
        #expect(fling.speed(at: ended.time) < 2, "ended at \(ended.time) s, \(fling.speed(at: ended.time)) rows/s")
        #expect(fling.speed(at: ended.time) > 0.5, "ended at \(ended.time) s, \(fling.speed(at: ended.time)) rows/s")
        #expect(ended.velocity == 0, "a fling that ran out leaves no velocity")
        #expect(resumed.isEmpty, "a fling, once ended, is not taken up again: \(resumed)")
    }

    /// A fling confirmed and coasting at about 107 rows a second (20 frames in).
    private func coastingFling() -> (controller: ListPrefetchController, position: Double, time: Double) {
        let fling = Deceleration()
        var controller = ListPrefetchController(itemCount: 2000)
        scroll(&controller, to: fling.start, at: 0)
        let times = frames(until: 1.0 / 3, isUneven: false)
        for time in times { scroll(&controller, to: fling.position(at: time), at: time) }
        return (controller, fling.position(at: times.last!), times.last!)
    }

    @Test func aReversalEndsTheFlingAtOnce() {
        var (controller, position, time) = coastingFling()
        #expect(controller.isFlinging)
        // The finger drags back at 15 rows a second: less than a fling, more than a viewport a second.
        var hasReversed = false
        for frame in 1...30 {
            position -= 0.25
            time += 1.0 / 60
            scroll(&controller, to: position, at: time)
            hasReversed = hasReversed || controller.velocity < -8
            #expect(controller.isFlinging == !hasReversed, "frame \(frame): velocity \(controller.velocity)")
            if frame == 5 { #expect(hasReversed, "the estimate turns within a few frames") }
        }
        #expect(!controller.isFlinging)
    }

    @Test func aJumpEndsTheFlingAtOnce() {
        var (controller, _, time) = coastingFling()
        #expect(controller.isFlinging)
        _ = controller.visibleRangeChanged(0..<8, at: .nanoseconds(Int64((time + 1.0 / 60) * 1e9)), position: 0)
        #expect(!controller.isFlinging)
        #expect(controller.velocity == 0)
        #expect(
            controller.desiredRows.allSatisfy { $0 < 20 },
            "no row of the old resting point: \(controller.desiredRows)"
        )
    }

    @Test func aFlingPrefetchesAroundItsRestingPointAndNothingFarBeyond() {
        let fling = Deceleration()
        var controller = ListPrefetchController(itemCount: 2000)
        scroll(&controller, to: fling.start, at: 0)
        let behind = controller.configuration.behind
        let restingScreen = Set(Int(fling.rest)..<(Int(fling.rest) + 8))
        var checked = 0
        for time in frames(until: 2, isUneven: false) {
            let position = fling.position(at: time)
            scroll(&controller, to: position, at: time)
            guard controller.isFlinging else { continue }
            checked += 1
            let desired = controller.desiredRows
            let visible = controller.visible
            #expect(restingScreen.subtracting(visible).isSubset(of: desired), "\(time) s: \(desired)")
            // The controller's resting point comes from its speed estimate, which trails a decelerating list by
            // about the smoothing time constant and half a frame: up to 6 % further than the real one.
            let restEstimate = position + (fling.rest - position) * 1.06
            let limit = restEstimate + 8 + Double(behind)
            #expect(desired.allSatisfy { Double($0) < limit }, "\(time) s: past \(limit): \(desired)")
            // Rows the list flies past at more than 100 rows a second are not worth a download.
            if fling.speed(at: time) > 150 {
                #expect(!desired.contains { $0 < visible.upperBound + 15 }, "\(time) s: \(desired.prefix(8))")
            }
        }
        #expect(checked > 60)
    }

    @Test func duringAFlingOnlyTheRowsItRestsOnAreWorthLoading() {
        let fling = Deceleration()
        var controller = ListPrefetchController(itemCount: 2000)
        scroll(&controller, to: fling.start, at: 0)
        var fast = 0
        var resting = 0
        for time in frames(until: 3, isUneven: false) {
            let position = fling.position(at: time)
            scroll(&controller, to: position, at: time)
            guard controller.isFlinging else { continue }
            let visible = Array(controller.visible)
            if fling.speed(at: time) > 50 {
                // Every row on screen leaves in less than the 250 ms an image takes.
                fast += 1
                #expect(visible.allSatisfy { !controller.isWorthLoading($0) }, "\(time) s")
                #expect(controller.isWorthLoading(Int(fling.rest) + 4), "a row where it rests, not yet on screen")
            } else if fling.rest - position < 2 {
                // Nearly there: the rows on screen that stay on screen once it rests are worth loading.
                resting += 1
                let staying = visible.filter { $0 >= Int(fling.rest) }
                #expect(staying.count >= 6)
                #expect(staying.allSatisfy(controller.isWorthLoading), "\(time) s, \(fling.rest - position) rows left")
            }
        }
        #expect(fast > 20 && resting > 10)
    }

    @Test func keptRowsSpanTheVisibleAndDesiredRowsWithAMargin() {
        var still = ListPrefetchController(itemCount: 200)
        _ = still.visibleRangeChanged(50..<58, at: .zero)
        #expect(Set(still.desiredRows) == [58, 59, 60, 61, 49, 48])
        #expect(still.keptRows(margin: 3) == 45..<65)
        #expect(still.keptRows(margin: 0) == 48..<62)
        #expect(still.keptRows(margin: -4) == 48..<62, "a negative margin counts as none")

        var (flinging, _, _) = coastingFling()
        #expect(flinging.isFlinging)
        let desired = flinging.desiredRows
        let visible = flinging.visible
        let high = desired.max() ?? 0
        #expect(high > visible.upperBound + 20, "the resting point is far ahead")
        #expect(desired.allSatisfy { $0 >= visible.upperBound }, "the fling wants only rows ahead")
        #expect(flinging.keptRows(margin: 2) == (visible.lowerBound - 2)..<(high + 3), "spans the gap")

        var top = ListPrefetchController(itemCount: 60)
        _ = top.visibleRangeChanged(0..<8, at: .zero)
        #expect(top.keptRows(margin: 5) == 0..<17, "clamped at the first row")
        _ = top.visibleRangeChanged(52..<60, at: .seconds(10))
        #expect(top.keptRows(margin: 5).upperBound == 60, "clamped at the last row")
        _ = flinging.itemCountChanged(0)
        #expect(flinging.keptRows(margin: 5).isEmpty)
    }
}
