// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead simulation — a scenario's scroll over its feed, frame by frame: where the viewport is and which items the
// list holds, the same for every strategy.

/// The scroll of a scenario over its feed. The trajectory says how far the user moves the list each frame; the feed
/// says how the items change. Posts inserted at the top shift the viewport down by as many rows, so it stays on its
/// items, as a table view that keeps its place does; a delete leaves the viewport where it is, so the items below
/// move up; a page is appended before the frame that brings the end near. A trajectory at offset 0 (its start, or
/// a jump to the top) shows the top of the list.
struct FeedTimeline {
    struct Frame {
        /// The viewport's top, in positions of the list as it is in this frame.
        var position: Double
        /// How far the user moved the list in this frame, in rows (the trajectory's step).
        var moved: Double
        /// Whether the list coasts after a fling.
        var isDecelerating: Bool
        /// The list in this frame: an index into ``lists``.
        var list: Int
    }

    /// The item lists, one for each change.
    private(set) var lists: [[Int]]
    private(set) var frames: [Frame] = []
    /// Items ever in the list: identifiers `0..<itemCount`.
    private(set) var itemCount: Int
    let viewportRows: Double

    init(_ scenario: ScrollScenario) {
        let feed = scenario.feed
        viewportRows = scenario.viewportRows
        var items = Array(0..<min(scenario.rows, feed.pageSize ?? scenario.rows))
        var nextPage = items.count
        lists = [items]
        itemCount = scenario.rows
        // Rows inserted above the viewport since the trajectory was last at the top.
        var shift = 0.0
        var last = 0.0
        for (index, step) in scenario.frames().enumerated() {
            for insertion in feed.insertions where insertion.frame == index {
                items.insert(contentsOf: itemCount..<(itemCount + insertion.count), at: 0)
                itemCount += insertion.count
                shift += Double(insertion.count)
            }
            for deletion in feed.deletions where deletion.frame == index {
                let visible = visibleRange(position: position(last + shift, count: items.count), count: items.count)
                guard !visible.isEmpty else { continue }
                items.remove(at: visible.lowerBound + min(deletion.visibleIndex, visible.count - 1))
            }
            if step.offset == 0 { shift = 0 }
            // The next page, once the end is near (a fling may take several in one frame).
            while let size = feed.pageSize, nextPage < scenario.rows,
                Double(items.count) - (step.offset + shift + viewportRows) < Double(feed.pageThreshold)
            {
                items += nextPage..<min(scenario.rows, nextPage + size)
                nextPage += size
            }
            if items != lists[lists.count - 1] { lists.append(items) }
            frames.append(
                Frame(
                    position: position(step.offset + shift, count: items.count),
                    moved: step.offset - last,
                    isDecelerating: step.isDecelerating,
                    list: lists.count - 1
                )
            )
            last = step.offset
        }
    }

    /// A position within a list of `count` items.
    private func position(_ position: Double, count: Int) -> Double {
        min(max(0, position), max(0, Double(count) - viewportRows))
    }

    /// The positions on screen with the viewport's top at `position`, in a list of `count` items.
    func visibleRange(position: Double, count: Int) -> Range<Int> {
        let first = min(count, max(0, Int(position.rounded(.down))))
        return first..<min(count, max(first, Int((position + viewportRows).rounded(.up))))
    }

    /// The items on screen in frame `index`.
    func visibleItems(_ index: Int) -> ArraySlice<Int> {
        let list = lists[frames[index].list]
        return list[visibleRange(position: frames[index].position, count: list.count)]
    }
}
