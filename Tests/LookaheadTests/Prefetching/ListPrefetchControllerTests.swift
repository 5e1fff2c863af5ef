// Lookahead tests — ListPrefetchController, driven synchronously with explicit timestamps.

import Testing

@testable import Lookahead

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

    @Test func aFlingPrefetchesWhereItWillComeToRestFirst() {
        var controller = ListPrefetchController(itemCount: 400)
        _ = controller.visibleRangeChanged(20..<28, at: .zero)
        // 100 rows a second: a UIScrollView-like fling coasts about 50 rows further.
        var update = ListPrefetchController.Update()
        for step in 1...5 {
            update = controller.visibleRangeChanged((20 + step * 2)..<(28 + step * 2), at: ms(step * 20))
        }
        let first = controller.prefetched.first ?? 0
        #expect(first > 60 && first < 95, "the resting window comes first (got \(controller.prefetched.prefix(10)))")
        #expect(controller.prefetched.contains(controller.visible.upperBound), "the next row is still prefetched")
        _ = update
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

    @Test func appearAndDisappearDriveTheSameWindow() {
        var controller = ListPrefetchController(itemCount: 100)
        for row in 0..<6 { _ = controller.itemAppeared(row, at: .zero) }
        #expect(controller.visible == 0..<6)
        _ = controller.itemDisappeared(0, at: ms(200))
        let update = controller.itemAppeared(6, at: ms(200))
        #expect(controller.visible == 1..<7)
        #expect(controller.prefetched.first == 7)
        _ = update
    }
}
