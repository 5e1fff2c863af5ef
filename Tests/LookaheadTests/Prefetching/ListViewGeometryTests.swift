// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ListViewport, ListViewGeometry and ListSnapshot: what the UIKit adapter reads from a table view.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

/// A list of 100-point rows, scrolled to `top`, showing some index paths; each section's rows follow the last's.
@MainActor
final class FakeListView: ListViewGeometry {
    var lookaheadVisibleIndexPaths: [IndexPath] = []
    var lookaheadViewportTop = 0.0
    var rowHeight: Double? = 100
    /// The rows before each section.
    var sectionStarts = [0]

    func lookaheadItemExtent(at indexPath: IndexPath) -> (minY: Double, height: Double)? {
        rowHeight.map { (Double(sectionStarts[indexPath[0]] + indexPath[1]) * $0, $0) }
    }

    /// Shows these rows of one section.
    func show(_ rows: some Sequence<Int>, section: Int = 0) {
        lookaheadVisibleIndexPaths = rows.map { [section, $0] }
    }
}

@MainActor
@Suite struct ListViewportTests {
    let list = FakeListView()

    private func viewport() -> ListViewport? { ListViewport(list) { $0[1] } }

    @Test func thePositionsSpanTheLowestToTheHighestVisibleItem() {
        list.rowHeight = nil
        list.show([5, 3, 4])
        #expect(viewport()?.rows == 3..<6)
        #expect(viewport()?.position == nil)
        #expect(ListViewport(list) { _ in nil } == nil, "index paths of no item")
        list.show([])
        #expect(viewport() == nil)
    }

    @Test func thePositionIsTheFractionalItemAtTheTopEdge() {
        list.rowHeight = 80
        list.show([3, 4, 5])
        list.lookaheadViewportTop = 260
        #expect(viewport()?.position == 3.25)
        list.lookaheadViewportTop = 240
        #expect(viewport()?.position == 3)
        // Bouncing past the top (the first row below the edge), or a stale extent: clamped to the row.
        list.show([0, 1])
        list.lookaheadViewportTop = -50
        #expect(viewport()?.position == 0)
        list.show([3, 4])
        list.lookaheadViewportTop = 500
        #expect(viewport()?.position == 4)
        // A row of no height says nothing.
        list.rowHeight = 0
        list.show([3])
        list.lookaheadViewportTop = 260
        #expect(viewport()?.position == nil)
    }

    @Test func sectionsFollowEachOtherInTheSnapshot() {
        // Three pinned items, then fifty photos: index path [1, 2] is the sixth item, position 5.
        let snapshot = ListSnapshot(sections: [["a", "b", "c"], (0..<50).map { "p\($0)" }])
        #expect(snapshot[[1, 2]] == "p2")
        #expect(snapshot[[0, 3]] == nil && snapshot[[2, 0]] == nil && snapshot[[1, 50]] == nil)
        list.sectionStarts = [0, 3]
        list.lookaheadVisibleIndexPaths = [[1, 2], [0, 2], [1, 0], [1, 1]]
        list.lookaheadViewportTop = 250
        let viewport = ListViewport(list, position: snapshot.position(of:))
        #expect(viewport?.rows == 2..<6)
        #expect(viewport?.position == 2.5)
        #expect(snapshot.span(of: ["p1", "gone", "b"]) == 1..<5)
        #expect(ListSnapshot(sections: [["a", "b"], ["b"]]).positions["b"] == 1, "a repeated item counts once")
    }
}
