// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// A scrolling list as a ``ListPrefetcher`` reads it; UIKit's table and collection views conform in `LookaheadUI`.
@MainActor
public protocol ListViewGeometry: AnyObject {
    /// The index paths (section, item) on screen, in any order.
    var lookaheadVisibleIndexPaths: [IndexPath] { get }
    /// The vertical extent of the item at `indexPath` in content coordinates, when items are one per line; `nil`
    /// for a grid or unknown.
    func lookaheadItemExtent(at indexPath: IndexPath) -> (minY: Double, height: Double)?
    /// The content offset at the top edge of the viewport, below any inset (`contentOffset.y` + the top inset).
    var lookaheadViewportTop: Double { get }
    /// Whether the list coasts after the finger lifted (`UIScrollView.isDecelerating`); `nil` when unknown.
    var lookaheadIsDecelerating: Bool? { get }
}

extension ListViewGeometry {
    /// Unknown unless the list says: the prefetcher then infers flings from the speed.
    public var lookaheadIsDecelerating: Bool? { nil }
}

/// The visible positions of a list (in its snapshot's items) and the fractional position at its top edge.
struct ListViewport: Equatable {
    /// The positions on screen, from the lowest to the highest.
    var rows: Range<Int>
    /// Where the top edge of the viewport is, in positions (`12.5`: half of item 12 is scrolled past), when known.
    var position: Double?
    /// Whether the list coasts after the finger lifted, when known.
    var isDecelerating: Bool?

    /// Reads a list's geometry, each visible index path at its `position` among the list's items; `nil` when no item
    /// is on screen.
    @MainActor
    init?(_ list: some ListViewGeometry, position: (IndexPath) -> Int?) {
        let visible = list.lookaheadVisibleIndexPaths.compactMap { path in position(path).map { (path, $0) } }
        guard let top = visible.min(by: { $0.1 < $1.1 }), let high = visible.map(\.1).max() else { return nil }
        rows = top.1..<(high + 1)
        // The fractional position at the top edge, so the speed estimate does not step by whole items.
        if let frame = list.lookaheadItemExtent(at: top.0), frame.height > 0 {
            self.position = Double(top.1) + min(max((list.lookaheadViewportTop - frame.minY) / frame.height, 0), 1)
        }
        isDecelerating = list.lookaheadIsDecelerating
    }
}
