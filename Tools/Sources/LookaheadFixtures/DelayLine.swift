// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — DelayLine: what the web benchmark's link relay holds back, each item for a fixed time.

/// Items held for a fixed delay, then given back in the order they came. Time is passed in, so a test drives it
/// with a clock of its own.
///
/// The delay is the same for every item, so the first in is always the first due: a queue, no heap. Items beyond
/// `capacity` are dropped on arrival, as a full queue on a link drops packets.
public struct DelayLine<Item> {
    /// How long each item is held.
    public let delay: Duration
    /// The most items held at once.
    public let capacity: Int
    private var items: [(due: Duration, item: Item)] = []
    private var head = 0
    /// Items refused because the line was full.
    public private(set) var dropped = 0

    public init(delay: Duration, capacity: Int) {
        self.delay = delay
        self.capacity = max(1, capacity)
    }

    /// The items held.
    public var count: Int { items.count - head }

    /// When the next item is due, `nil` when none is held.
    public var nextDue: Duration? { head < items.count ? items[head].due : nil }

    /// Holds `item`, which arrived at `now`, until `now + delay`; `false` when the line was full and it was dropped.
    @discardableResult
    public mutating func push(_ item: Item, at now: Duration) -> Bool {
        guard count < capacity else {
            dropped += 1
            return false
        }
        items.append((now + delay, item))
        return true
    }

    /// The items due at `now`, oldest first, removed from the line.
    public mutating func popDue(at now: Duration) -> [Item] {
        var due: [Item] = []
        while head < items.count, items[head].due <= now {
            due.append(items[head].item)
            head += 1
        }
        // Compacts once the consumed prefix is as long as what is left, so each item is moved at most once more.
        if head > 64, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return due
    }
}
