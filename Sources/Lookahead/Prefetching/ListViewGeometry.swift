// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// A scrolling list as the prefetcher sees it; UIKit's table and collection views conform in `LookaheadUI`.
@MainActor
public protocol ListViewGeometry: AnyObject {
    /// The rows (of section 0) on screen, in any order.
    var lookaheadVisibleRows: [Int] { get }
    /// The vertical extent of `row` in content coordinates, when rows are one per line; `nil` for a grid or unknown.
    func lookaheadRowExtent(_ row: Int) -> (minY: Double, height: Double)?
    /// The content offset at the top edge of the viewport, below any inset (`contentOffset.y` + the top inset).
    var lookaheadViewportTop: Double { get }
    /// Whether the list coasts after the finger lifted (`UIScrollView.isDecelerating`); `nil` when unknown.
    var lookaheadIsDecelerating: Bool? { get }
}

extension ListViewGeometry {
    /// Unknown unless the list says: the prefetcher then infers flings from the speed.
    public var lookaheadIsDecelerating: Bool? { nil }
}

/// The visible rows of a list and the fractional row at its top edge: ``ListImageSlots``'s input.
public struct ListViewport: Sendable, Equatable {
    /// The rows on screen, as a range (from the lowest to the highest visible row).
    public var rows: Range<Int>
    /// Where the top edge of the viewport is, in rows (`12.5`: half of row 12 is scrolled past), when known.
    public var position: Double?
    /// Whether the list coasts after the finger lifted, when known.
    public var isDecelerating: Bool?

    /// A viewport of known rows and position.
    public init(rows: Range<Int>, position: Double? = nil, isDecelerating: Bool? = nil) {
        self.rows = rows
        self.position = position
        self.isDecelerating = isDecelerating
    }

    /// Reads a list's geometry: `nil` when no row is on screen.
    @MainActor
    public init?(_ list: some ListViewGeometry) {
        self.init(visibleRows: list.lookaheadVisibleRows, viewportTop: list.lookaheadViewportTop) {
            list.lookaheadRowExtent($0)
        }
        isDecelerating = list.lookaheadIsDecelerating
    }

    /// The viewport of a list showing `visibleRows`, its top edge at `viewportTop`; `nil` when no row is on screen.
    public init?(
        visibleRows: [Int],
        viewportTop: Double,
        extent: (Int) -> (minY: Double, height: Double)?
    ) {
        guard let low = visibleRows.min(), let high = visibleRows.max() else { return nil }
        rows = low..<(high + 1)
        // The fractional row at the top edge, so the speed estimate does not step by whole rows.
        if let frame = extent(low), frame.height > 0 {
            position = Double(low) + min(max((viewportTop - frame.minY) / frame.height, 0), 1)
        }
    }
}

extension ListImageSlots {
    /// The list scrolled: reads its viewport and moves the prefetch window. Returns what changed, for a log; `nil`
    /// when no row is on screen.
    @MainActor
    @discardableResult
    public func visibleRowsChanged(in list: some ListViewGeometry, requests: (Int) -> ImageRequest?)
        -> ListPrefetchUpdate?
    {
        guard let viewport = ListViewport(list) else { return nil }
        return visibleRowsChanged(
            viewport.rows,
            position: viewport.position,
            isDecelerating: viewport.isDecelerating,
            requests: requests
        )
    }
}
