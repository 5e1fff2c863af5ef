// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — where each item goes: seed 000's list and seed 002's adaptive grid, in terminal cells.

/// How the gallery arranges its items.
public enum GalleryMode: String, Sendable, CaseIterable {
    /// One item per line: the image on the left, the title beside it.
    case list
    /// As many columns as fit the width, each cell an image over its title.
    case grid
}

/// The geometry of the gallery in a terminal of a given size. Content coordinates are in terminal lines from the
/// top of the whole list; the screen shows `contentHeight` lines of it from the scroll offset down, then the log
/// pane (if any), then the status line.
public struct GalleryLayout: Sendable, Equatable {
    public var mode: GalleryMode
    /// The terminal size in cells.
    public var columns: Int
    public var rows: Int
    /// Lines of the log pane (0: none).
    public var logLines: Int

    public init(mode: GalleryMode, columns: Int, rows: Int, logLines: Int = 0) {
        self.mode = mode
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        self.logLines = max(0, logLines)
    }

    /// Lines showing items: everything but the status line and the log pane with its separator.
    public var contentHeight: Int { max(1, rows - 1 - (logLines > 0 ? logLines + 1 : 0)) }

    /// The image of an item, in cells. Terminal cells are about twice as tall as wide: a grid cell is square (twice
    /// as many columns as lines); a list thumbnail is landscape, 3:2 like most photos, and takes at most half the
    /// width, so the title and the load's state have the rest.
    public var imageLines: Int {
        switch mode {
        case .list: rows >= 40 ? 8 : rows >= 30 ? 6 : 4
        case .grid: rows >= 40 ? 9 : 7
        }
    }
    public var imageColumns: Int {
        switch mode {
        case .list: max(4, min(imageLines * 3, columns / 2))
        case .grid: imageLines * 2
        }
    }

    /// The lines one item (or one row of the grid) takes, gap included.
    public var itemHeight: Int {
        switch mode {
        case .list: imageLines + 1
        case .grid: imageLines + 2  // image, title, gap
        }
    }

    /// The columns one grid cell takes, gap included; the whole width in list mode.
    public var itemWidth: Int {
        switch mode {
        case .list: columns
        case .grid: imageColumns + 2
        }
    }

    /// Items per line of the layout: 1 in a list; as many as fit in a grid (2 at least when they fit at all).
    public var itemsPerRow: Int {
        switch mode {
        case .list: 1
        case .grid: max(1, (columns + 2) / itemWidth)
        }
    }

    /// The top-left corner of an item, in content coordinates.
    public func origin(of item: Int) -> (x: Int, y: Int) {
        let row = item / itemsPerRow
        let column = item % itemsPerRow
        switch mode {
        case .list: return (1, row * itemHeight)
        case .grid:
            let used = itemsPerRow * itemWidth - 2
            let margin = max(0, (columns - used) / 2)
            return (margin + column * itemWidth, row * itemHeight)
        }
    }

    /// The height of the whole list in lines.
    public func contentLength(itemCount: Int) -> Int {
        (itemCount + itemsPerRow - 1) / itemsPerRow * itemHeight
    }

    /// The largest scroll offset.
    public func maximumOffset(itemCount: Int) -> Int { max(0, contentLength(itemCount: itemCount) - contentHeight) }

    /// The items at least partly on screen at a scroll offset.
    public func visibleItems(offset: Int, itemCount: Int) -> Range<Int> {
        guard itemCount > 0 else { return 0..<0 }
        let firstRow = max(0, offset) / itemHeight
        let lastRow = (max(0, offset) + contentHeight - 1) / itemHeight
        let lower = min(itemCount, firstRow * itemsPerRow)
        let upper = min(itemCount, (lastRow + 1) * itemsPerRow)
        return lower..<upper
    }

    /// The scroll offset that shows the item's row, moving `offset` as little as possible.
    public func offset(showing item: Int, from offset: Int, itemCount: Int) -> Int {
        let top = origin(of: item).y
        let bottom = top + itemHeight - 1
        var result = offset
        if top < result { result = top }
        if bottom >= result + contentHeight { result = bottom - contentHeight + 1 }
        return min(max(0, result), maximumOffset(itemCount: itemCount))
    }
}
