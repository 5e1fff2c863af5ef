// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ListPrefetcher: SwiftUI items' appear/disappear and a list's geometry to the window, by item.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

@MainActor
@Suite struct ListPrefetcherTests {
    @Test func appearingItemsMoveTheWindowAndReportWhatChanged() async {
        let dataLoader = GatedDataLoader()
        let pipeline = ImagePipeline {
            $0.dataLoader = dataLoader
            $0.diskCache = nil
        }
        // Two sections: a header item, then 49 photos; the window works on their positions, section after section.
        let snapshot = ListSnapshot(sections: [["header"], (0..<49).map { "photo\($0)" }])
        let prefetcher = ListPrefetcher(snapshot, pipeline: pipeline) {
            ImageRequest(url: URL(string: "https://example.com/\($0).jpg"))
        }
        var updates: [ListPrefetchUpdate<String>] = []
        prefetcher.onUpdate = { updates.append(ListPrefetchUpdate(prefetch: $0, cancel: $1)) }
        for item in ["header", "photo0", "photo1", "photo2"] { prefetcher.itemAppeared(item) }
        #expect(prefetcher.slots.controller.visible == 0..<4)
        #expect(updates.count == 4)
        // The window followed the screen down, through the sections: up to four items below it.
        #expect(updates.flatMap(\.prefetch) == (0...6).map { "photo\($0)" })
        await dataLoader.waitForStarts(1)  // the prefetcher loads them
        prefetcher.itemDisappeared("header")
        #expect(prefetcher.slots.controller.visible == 1..<4)
        prefetcher.itemAppeared("photo1")  // already on screen: no change, no update
        prefetcher.itemAppeared("elsewhere")  // not in the list: no change
        #expect(updates.count == 5)
        for item in ["photo0", "photo1", "photo2"] { prefetcher.itemDisappeared(item) }
        #expect(updates.count == 7, "nothing on screen: nothing to move the window to")
        #expect(prefetcher.slots.controller.visible == 3..<4)
        prefetcher.slots.stop()
    }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct ListPrefetcherBindingTests {
    let dataLoader = GatedDataLoader()
    let pipeline: ImagePipeline
    let prefetcher: ListPrefetcher<Int>

    init() {
        let dataLoader = dataLoader
        pipeline = ImagePipeline {
            $0.dataLoader = dataLoader
            $0.diskCache = nil
        }
        prefetcher = ListPrefetcher(ListSnapshot(0..<100), pipeline: pipeline) {
            ImageRequest(url: URL(string: "https://example.com/\($0).jpg"))
        }
    }

    @Test func aScrollingListMovesTheWindowFromItsGeometry() {
        var updates: [ListPrefetchUpdate<Int>] = []
        prefetcher.onUpdate = { updates.append(ListPrefetchUpdate(prefetch: $0, cancel: $1)) }
        let list = FakeListView()
        prefetcher.visibleItemsChanged(in: list)  // nothing on screen: nothing to report
        #expect(updates.isEmpty)
        list.show(20..<24)
        list.lookaheadViewportTop = 2_025
        prefetcher.visibleItemsChanged(in: list)
        #expect(prefetcher.slots.controller.visible == 20..<24)
        #expect(updates.count == 1)
        prefetcher.slots.stop()
    }

    @Test func indexPathsMapToItemsThroughTheAppsLookup() {
        // The data source lists the items in reverse: index path [0, r] is item 99 − r.
        let list = FakeListView()
        list.show(0..<4)
        prefetcher.visibleItemsChanged(in: list) { 99 - $0[1] }
        #expect(prefetcher.slots.controller.visible == 96..<100)
        prefetcher.visibleItemsChanged(in: list) { _ in nil }  // none of them in the list: the window stays
        #expect(prefetcher.slots.controller.visible == 96..<100)
        prefetcher.slots.stop()
    }

    @Test func aBoundCellLoadsWithTheLoadersPipelineAndItsLoadOutlivesTheCell() async {
        let cell = FakeImageView()
        prefetcher.bind(cell, item: 3)  // no options: the loader's pipeline, no placeholder
        #expect(cell.lookaheadBinding?.slot.pipeline === pipeline)
        await dataLoader.waitForPending("https://example.com/3.jpg")
        #expect(cell.lookahead.state.request?.url?.lastPathComponent == "3.jpg")
        prefetcher.unbind(cell)  // the load goes on as a prefetch
        #expect(dataLoader.record.value.cancelled.isEmpty)
        #expect(prefetcher.slots.prefetcher.counts.running == 1)
        prefetcher.slots.stop()
        await dataLoader.waitForCancellations(1)
    }
}
