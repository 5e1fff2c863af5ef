// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import DequeModule

/// Decides which queued stage starts next and how many run at once.
///
/// One FIFO per priority level; the next stage is the oldest of the highest non-empty level. A stage whose
/// priority is raised while queued goes to the back of its new level (it does not overtake what waits there); one
/// whose priority is lowered goes to the front of its new level (it waited longer than what was queued there).
/// At most ``limit`` stages run at once, and of those at most ``backgroundLimit`` at `.low` priority or below, so
/// prefetches never take every slot from on-screen images. A running stage that stalls can be parked: it goes on,
/// but its slot is free, so a few trickling servers cannot hold up every other download.
struct WorkQueue<Node: Equatable & Sendable>: Sendable {
    /// The most stages that run at once.
    let limit: Int
    /// The most background (`.low`, `.veryLow`) stages that run at once.
    let backgroundLimit: Int
    private(set) var runningCount = 0
    private(set) var runningBackgroundCount = 0
    /// Running stages that gave their slot back because they stalled; at most ``limit`` at once.
    private(set) var parkedCount = 0
    private var levels = [Deque<Node>](repeating: [], count: ImageRequest.Priority.allCases.count)

    init(limit: Int, backgroundLimit: Int? = nil) {
        self.limit = max(1, limit)
        self.backgroundLimit = min(self.limit, max(1, backgroundLimit ?? self.limit))
    }

    static func isBackground(_ priority: ImageRequest.Priority) -> Bool { priority <= .low }

    /// Queued node identifiers, next to start first.
    var queuedInOrder: [Node] {
        // Not `Array(deque)`: for an empty deque it writes to the shared empty array, a race under ThreadSanitizer.
        var nodes: [Node] = []
        for level in levels.reversed() {
            for node in level { nodes.append(node) }
        }
        return nodes
    }

    mutating func enqueue(_ node: Node, priority: ImageRequest.Priority) {
        levels[priority.rawValue].append(node)
    }

    mutating func remove(_ node: Node, priority: ImageRequest.Priority) {
        if let index = levels[priority.rawValue].firstIndex(of: node) {
            levels[priority.rawValue].remove(at: index)
        }
    }

    mutating func move(_ node: Node, from old: ImageRequest.Priority, to new: ImageRequest.Priority) {
        guard let index = levels[old.rawValue].firstIndex(of: node) else { return }
        levels[old.rawValue].remove(at: index)
        if new < old {
            levels[new.rawValue].prepend(node)
        } else {
            levels[new.rawValue].append(node)
        }
    }

    /// Takes the next stage if a slot is free for it, and counts it as running.
    mutating func next() -> (node: Node, isBackground: Bool)? {
        guard runningCount < limit else { return nil }
        for priority in ImageRequest.Priority.allCases.reversed() where !levels[priority.rawValue].isEmpty {
            let isBackground = Self.isBackground(priority)
            if isBackground, runningBackgroundCount >= backgroundLimit { return nil }
            runningCount += 1
            if isBackground { runningBackgroundCount += 1 }
            return (levels[priority.rawValue].removeFirst(), isBackground)
        }
        return nil
    }

    /// A running stage gives its background slot back: promoted, or finished.
    mutating func releaseBackgroundSlot() {
        precondition(runningBackgroundCount > 0, "Internal inconsistency: no running background stage")
        runningBackgroundCount -= 1
    }

    /// Frees a stalled stage's slot for a queued one; `false` (it keeps its slot) when as many as the limit are parked.
    mutating func park(isBackground: Bool) -> Bool {
        guard parkedCount < limit else { return false }
        finishOne(isBackground: isBackground)
        parkedCount += 1
        return true
    }

    /// A parked stage finished: it held no slot.
    mutating func finishParked() {
        precondition(parkedCount > 0, "Internal inconsistency: no parked stage to finish")
        parkedCount -= 1
    }

    /// Frees the slot of a stage that finished (or was cancelled and has now stopped).
    mutating func finishOne(isBackground: Bool) {
        precondition(runningCount > 0, "Internal inconsistency: no running stage to finish")
        runningCount -= 1
        if isBackground { releaseBackgroundSlot() }
    }
}
