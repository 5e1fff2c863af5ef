// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — PrefetchCoordinator and ListAppearanceTracker: SwiftUI rows' appear/disappear to the loader.

import Foundation
import Testing

@testable import Lookahead

@Suite struct ListAppearanceTrackerTests {
    @Test func theVisibleRowsAreThoseThatAppearedAndDidNotDisappear() {
        var tracker = ListAppearanceTracker()
        #expect(tracker.rowAppeared(3) == 3..<4)
        #expect(tracker.rowAppeared(5) == 3..<6)
        #expect(tracker.rowAppeared(4) == nil)  // inside the range: no change
        #expect(tracker.rowAppeared(5) == nil)
        #expect(tracker.rowDisappeared(3) == 4..<6)
        #expect(tracker.rowDisappeared(5) == 4..<5)
        #expect(tracker.rowDisappeared(4) == nil)  // nothing on screen: nothing to move the window to
        #expect(tracker.range == nil)
        #expect(tracker.rowDisappeared(9) == nil)
    }
}

@MainActor
@Suite struct PrefetchCoordinatorTests {
    @Test func appearingRowsMoveTheWindowAndReportWhatChanged() async {
        let dataLoader = GatedDataLoader()
        let pipeline = ImagePipeline {
            $0.dataLoader = dataLoader
            $0.diskCache = nil
        }
        let coordinator = PrefetchCoordinator(itemCount: 50, pipeline: pipeline) {
            ImageRequest(url: URL(string: "https://example.com/\($0).jpg"))
        }
        var updates: [ListImageLoader.Update] = []
        coordinator.onUpdate = { updates.append($0) }
        for row in 0..<4 { coordinator.rowAppeared(row) }
        #expect(coordinator.loader.controller.visible == 0..<4)
        #expect(updates.count == 4)
        #expect(updates.contains { !$0.prefetch.isEmpty })  // rows below the screen are wished for
        await dataLoader.waitForStarts(1)  // the prefetcher loads them
        coordinator.rowDisappeared(0)
        #expect(coordinator.loader.controller.visible == 1..<4)
        coordinator.rowAppeared(2)  // already on screen: no change, no update
        #expect(updates.count == 5)
        coordinator.loader.stop()
    }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct PrefetchCoordinatorBindingTests {
    let dataLoader = GatedDataLoader()
    let pipeline: ImagePipeline
    let coordinator: PrefetchCoordinator

    init() {
        let dataLoader = dataLoader
        pipeline = ImagePipeline {
            $0.dataLoader = dataLoader
            $0.diskCache = nil
        }
        coordinator = PrefetchCoordinator(itemCount: 100, pipeline: pipeline) {
            ImageRequest(url: URL(string: "https://example.com/\($0).jpg"))
        }
    }

    @Test func aScrollingListMovesTheWindowFromItsGeometry() {
        var updates: [ListImageLoader.Update] = []
        coordinator.onUpdate = { updates.append($0) }
        let list = FakeListView()
        coordinator.visibleRowsChanged(in: list)  // nothing on screen: nothing to report
        #expect(updates.isEmpty)
        list.lookaheadVisibleRows = [20, 21, 22, 23]
        list.lookaheadViewportTop = 2_025
        coordinator.visibleRowsChanged(in: list)
        #expect(coordinator.loader.controller.visible == 20..<24)
        #expect(updates.count == 1)
        coordinator.loader.stop()
    }

    @Test func aBoundCellLoadsWithTheLoadersPipelineAndItsLoadOutlivesTheCell() async {
        let cell = FakeImageView()
        coordinator.bind(cell, row: 3)  // no options: the loader's pipeline, no placeholder
        #expect(cell.lookaheadLoader?.slot.pipeline === pipeline)
        await dataLoader.waitForPending("https://example.com/3.jpg")
        #expect(cell.lookahead.state.request?.url?.lastPathComponent == "3.jpg")
        coordinator.unbind(row: 3)  // the load goes on as a prefetch
        #expect(dataLoader.record.value.cancelled.isEmpty)
        coordinator.loader.stop()
        await dataLoader.waitForCancellations(1)
    }
}
