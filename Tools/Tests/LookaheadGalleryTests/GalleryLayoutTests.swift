// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery tests — the list and grid geometry, and the navigator moving over it.

import Testing

@testable import LookaheadGallery

@Suite struct GalleryLayoutTests {
    @Test func theListStacksOneItemPerRowUnderTheStatusLine() {
        let layout = GalleryLayout(mode: .list, columns: 100, rows: 40)
        #expect(layout.contentHeight == 39)
        #expect(layout.imageLines == 8 && layout.imageColumns == 24 && layout.itemHeight == 9)
        #expect(layout.origin(of: 3).y == 27)
        #expect(layout.visibleItems(offset: 0, itemCount: 200) == 0..<5)  // 39 lines: 4 whole rows and a part
        #expect(layout.visibleItems(offset: 13, itemCount: 200) == 1..<6)
        #expect(layout.maximumOffset(itemCount: 200) == 200 * 9 - 39)
        // Landscape thumbnails, never more than half the width.
        #expect(GalleryLayout(mode: .list, columns: 30, rows: 40).imageColumns == 15)
    }

    @Test func theGridAdaptsItsColumnsToTheWidth() {
        let narrow = GalleryLayout(mode: .grid, columns: 40, rows: 40)
        let wide = GalleryLayout(mode: .grid, columns: 160, rows: 40)
        #expect(narrow.itemsPerRow == 2)
        #expect(wide.itemsPerRow == 8)
        #expect(wide.origin(of: 9).y == wide.itemHeight)  // item 10 opens the second row
        #expect(wide.visibleItems(offset: 0, itemCount: 200).count % wide.itemsPerRow == 0)
        // Cells never overlap and stay inside the width.
        let xs = (0..<wide.itemsPerRow).map { wide.origin(of: $0).x }
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $1 - $0 >= wide.imageColumns })
        #expect((xs.last ?? 0) + wide.imageColumns <= wide.columns)
    }

    @Test func aLogPaneTakesItsLinesAndASeparator() {
        #expect(GalleryLayout(mode: .list, columns: 80, rows: 30, logLines: 6).contentHeight == 22)
    }

    @Test func movingTheSelectionScrollsJustEnoughToShowIt() {
        var navigator = GalleryNavigator(layout: GalleryLayout(mode: .list, columns: 80, rows: 31), itemCount: 200)
        // 31 lines: rows of 7 lines (a 6-line image and a gap) under 30 lines of content.
        for _ in 0..<3 { _ = navigator.handle(.down) }
        #expect(navigator.selection == 3)
        #expect(navigator.target == 0, "rows 1–4 fit in the 30 lines")
        _ = navigator.handle(.down)
        #expect(navigator.target == 4 * 7 + 7 - 30, "row 5 scrolls in, and no further")
    }

    @Test func theOffsetEasesTowardsTheTargetAndSettles() {
        var navigator = GalleryNavigator(layout: GalleryLayout(mode: .list, columns: 80, rows: 31), itemCount: 200)
        _ = navigator.handle(.end)
        let target = navigator.target
        #expect(target == Double(200 * 7 - 30))
        #expect(navigator.selection == 199)
        _ = navigator.advance(by: 1.0 / 60)
        #expect(navigator.offset > 0 && navigator.offset < target, "one frame moves part of the way")
        for _ in 0..<120 { _ = navigator.advance(by: 1.0 / 60) }
        #expect(navigator.offset == target)
        let movedAgain = navigator.advance(by: 1.0 / 60)
        #expect(!movedAgain)
        #expect(navigator.visibleItems.contains(199))
    }

    @Test func keysThatAreNotMovementBecomeCommands() {
        var navigator = GalleryNavigator(layout: GalleryLayout(mode: .grid, columns: 80, rows: 40), itemCount: 30)
        _ = navigator.handle(.right)
        _ = navigator.handle(.down)
        #expect(navigator.selection == 1 + navigator.layout.itemsPerRow)
        #expect(navigator.handle(.enter) == .activate(item: navigator.selection))
        #expect(navigator.handle(.character("g")) == .toggleMode)
        #expect(navigator.handle(.character("r")) == .refresh)
        #expect(navigator.handle(.character("q")) == .quit)
        #expect(navigator.handle(.interrupt) == .quit)
    }

    @Test func aNewLayoutKeepsTheSelectionOnScreen() {
        var navigator = GalleryNavigator(layout: GalleryLayout(mode: .list, columns: 100, rows: 40), itemCount: 200)
        for _ in 0..<150 { _ = navigator.handle(.down) }
        for _ in 0..<200 { _ = navigator.advance(by: 1.0 / 60) }
        #expect(navigator.visibleItems.contains(150))
        navigator.relayout(GalleryLayout(mode: .grid, columns: 100, rows: 40))
        #expect(navigator.visibleItems.contains(150))
        navigator.itemCountChanged(20)
        #expect(navigator.selection == 19)
        #expect(navigator.offset <= Double(navigator.layout.maximumOffset(itemCount: 20)))
    }
}
