// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the selection and the scroll position, moved by keys and animated over time.

import Foundation

/// What a key asks of the gallery beyond moving.
public enum GalleryCommand: Sendable, Equatable {
    case quit
    case toggleMode
    case refresh
    /// Enter: open a loaded image in the detail view, or retry a failed one.
    case activate(item: Int)
    /// Open or close the help overlay (`?`; Esc closes it).
    case help
    case escape
}

/// The selected item and the scroll offset. Keys move a target; ``advance(by:)`` eases the offset towards it, so
/// a page down scrolls visibly (and the prefetch controller sees a velocity, as it would from a finger).
public struct GalleryNavigator: Sendable {
    public private(set) var layout: GalleryLayout
    public private(set) var itemCount: Int
    public private(set) var selection = 0
    /// The scroll offset in lines, as animated.
    public private(set) var offset = 0.0
    /// Where the offset is heading.
    public private(set) var target = 0.0
    /// The time constant of the easing: 63 % of the way in this many seconds.
    public var easing = 0.06

    public init(layout: GalleryLayout, itemCount: Int) {
        self.layout = layout
        self.itemCount = max(0, itemCount)
    }

    /// The offset to draw at: the animated one, in whole lines.
    public var drawOffset: Int { Int(offset.rounded()) }

    /// The items on screen now.
    public var visibleItems: Range<Int> { layout.visibleItems(offset: drawOffset, itemCount: itemCount) }

    /// Whether the offset is still moving.
    public var isAnimating: Bool { offset != target }

    /// Applies a key; returns a command for what is not movement.
    public mutating func handle(_ key: Key) -> GalleryCommand? {
        let perRow = layout.itemsPerRow
        let pageItems = max(1, layout.contentHeight / layout.itemHeight) * perRow
        switch key {
        case .up, .character("k"): select(selection - perRow)
        case .down, .character("j"): select(selection + perRow)
        case .left, .character("h"): select(selection - 1)
        case .right, .character("l"): select(selection + 1)
        case .pageDown, .character(" "):
            scroll(to: target + Double(layout.contentHeight))
            select(selection + pageItems)
        case .pageUp:
            scroll(to: target - Double(layout.contentHeight))
            select(selection - pageItems)
        case .home:
            scroll(to: 0)
            select(0)
        case .end:
            scroll(to: Double(layout.maximumOffset(itemCount: itemCount)))
            select(itemCount - 1)
        case .wheel(let notches):
            scroll(to: target + Double(notches * 3))
        case .enter:
            return itemCount > 0 ? .activate(item: selection) : nil
        case .character("q"), .interrupt:
            return .quit
        case .character("g"):
            return .toggleMode
        case .character("r"):
            return .refresh
        case .character("?"):
            return .help
        case .escape:
            return .escape
        default:
            break
        }
        return nil
    }

    /// Eases the offset towards the target; returns whether it moved.
    public mutating func advance(by seconds: Double) -> Bool {
        guard offset != target else { return false }
        let step = (target - offset) * (1 - Foundation.exp(-max(0, seconds) / easing))
        offset += step
        if abs(target - offset) < 0.25 { offset = target }
        return true
    }

    /// A new layout (another mode, a resized terminal): the selected item stays on screen.
    public mutating func relayout(_ layout: GalleryLayout) {
        self.layout = layout
        let shown = layout.offset(showing: selection, from: Int(target.rounded()), itemCount: itemCount)
        target = Double(shown)
        offset = target
    }

    /// The list now has `count` items; the selection and the offset stay in range.
    public mutating func itemCountChanged(_ count: Int) {
        itemCount = max(0, count)
        selection = min(selection, max(0, itemCount - 1))
        scroll(to: target)
        offset = min(offset, Double(layout.maximumOffset(itemCount: itemCount)))
    }

    private mutating func select(_ item: Int) {
        guard itemCount > 0 else { return }
        selection = min(max(0, item), itemCount - 1)
        let shown = layout.offset(showing: selection, from: Int(target.rounded()), itemCount: itemCount)
        target = Double(shown)
    }

    private mutating func scroll(to value: Double) {
        target = min(max(0, value.rounded()), Double(layout.maximumOffset(itemCount: itemCount)))
    }
}
