// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ListPrefetcher and ListAppearanceTracker: SwiftUI rows' appear/disappear to the loader.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

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
@Suite struct ListPrefetcherTests {
    @Test func appearingRowsMoveTheWindowAndReportWhatChanged() async {
        let dataLoader = GatedDataLoader()
        let pipeline = ImagePipeline {
            $0.dataLoader = dataLoader
            $0.diskCache = nil
        }
        let prefetcher = ListPrefetcher(itemCount: 50, pipeline: pipeline) {
            ImageRequest(url: URL(string: "https://example.com/\($0).jpg"))
        }
        var updates: [ListPrefetchUpdate] = []
        prefetcher.onUpdate = { updates.append($0) }
        for row in 0..<4 { prefetcher.rowAppeared(row) }
        #expect(prefetcher.slots.controller.visible == 0..<4)
        #expect(updates.count == 4)
        #expect(updates.contains { !$0.prefetch.isEmpty })  // rows below the screen are wished for
        await dataLoader.waitForStarts(1)  // the prefetcher loads them
        prefetcher.rowDisappeared(0)
        #expect(prefetcher.slots.controller.visible == 1..<4)
        prefetcher.rowAppeared(2)  // already on screen: no change, no update
        #expect(updates.count == 5)
        prefetcher.slots.stop()
    }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct ListPrefetcherBindingTests {
    let dataLoader = GatedDataLoader()
    let pipeline: ImagePipeline
    let prefetcher: ListPrefetcher

    init() {
        let dataLoader = dataLoader
        pipeline = ImagePipeline {
            $0.dataLoader = dataLoader
            $0.diskCache = nil
        }
        prefetcher = ListPrefetcher(itemCount: 100, pipeline: pipeline) {
            ImageRequest(url: URL(string: "https://example.com/\($0).jpg"))
        }
    }

    @Test func aScrollingListMovesTheWindowFromItsGeometry() {
        var updates: [ListPrefetchUpdate] = []
        prefetcher.onUpdate = { updates.append($0) }
        let list = FakeListView()
        prefetcher.visibleRowsChanged(in: list)  // nothing on screen: nothing to report
        #expect(updates.isEmpty)
        list.lookaheadVisibleRows = [20, 21, 22, 23]
        list.lookaheadViewportTop = 2_025
        prefetcher.visibleRowsChanged(in: list)
        #expect(prefetcher.slots.controller.visible == 20..<24)
        #expect(updates.count == 1)
        prefetcher.slots.stop()
    }

    @Test func aBoundCellLoadsWithTheLoadersPipelineAndItsLoadOutlivesTheCell() async {
        let cell = FakeImageView()
        prefetcher.bind(cell, row: 3)  // no options: the loader's pipeline, no placeholder
        #expect(cell.lookaheadBinding?.slot.pipeline === pipeline)
        await dataLoader.waitForPending("https://example.com/3.jpg")
        #expect(cell.lookahead.state.request?.url?.lastPathComponent == "3.jpg")
        prefetcher.unbind(row: 3)  // the load goes on as a prefetch
        #expect(dataLoader.record.value.cancelled.isEmpty)
        prefetcher.slots.stop()
        await dataLoader.waitForCancellations(1)
    }
}
