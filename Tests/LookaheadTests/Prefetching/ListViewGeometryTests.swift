// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ListViewport and ListViewGeometry: what the UIKit adapter reads from a table view.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

/// A list of 100-point rows, scrolled to `top`, showing `rows`.
@MainActor
final class FakeListView: ListViewGeometry {
    var lookaheadVisibleRows: [Int] = []
    var lookaheadViewportTop = 0.0
    var rowHeight: Double? = 100

    func lookaheadRowExtent(_ row: Int) -> (minY: Double, height: Double)? {
        rowHeight.map { (Double(row) * $0, $0) }
    }
}

@Suite struct ListViewportTests {
    @Test func theRowsSpanTheLowestToTheHighestVisibleRow() {
        let viewport = ListViewport(visibleRows: [5, 3, 4], viewportTop: 300) { _ in nil }
        #expect(viewport?.rows == 3..<6)
        #expect(viewport?.position == nil)
        #expect(ListViewport(visibleRows: [], viewportTop: 0) { _ in nil } == nil)
    }

    @Test func thePositionIsTheFractionalRowAtTheTopEdge() {
        let extent: (Int) -> (minY: Double, height: Double)? = { (Double($0) * 80, 80) }
        #expect(ListViewport(visibleRows: [3, 4, 5], viewportTop: 260, extent: extent)?.position == 3.25)
        #expect(ListViewport(visibleRows: [3, 4, 5], viewportTop: 240, extent: extent)?.position == 3)
        // Bouncing past the top (the first row below the edge), or a stale extent: clamped to the row.
        #expect(ListViewport(visibleRows: [0, 1], viewportTop: -50, extent: extent)?.position == 0)
        #expect(ListViewport(visibleRows: [3, 4], viewportTop: 500, extent: extent)?.position == 4)
        // A row of no height says nothing.
        #expect(ListViewport(visibleRows: [3], viewportTop: 260) { _ in (240, 0) }?.position == nil)
    }

    @MainActor
    @Test func theLoaderReadsAListView() {
        let pipeline = ImagePipeline {
            $0.dataLoader = GatedDataLoader()
            $0.diskCache = nil
        }
        let loader = ListImageSlots(pipeline: pipeline, itemCount: 100)
        let list = FakeListView()
        #expect(loader.visibleRowsChanged(in: list) { _ in nil } == nil)  // nothing on screen yet
        list.lookaheadVisibleRows = [12, 10, 11]
        list.lookaheadViewportTop = 1050
        let update = loader.visibleRowsChanged(in: list) {
            ImageRequest(url: URL(string: "https://example.com/\($0).jpg"))
        }
        #expect(update != nil)
        #expect(loader.controller.visible == 10..<13)
        #expect(ListViewport(list) == ListViewport(rows: 10..<13, position: 10.5))
        loader.stop()
    }
}
