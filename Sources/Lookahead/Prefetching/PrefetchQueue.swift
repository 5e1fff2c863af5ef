// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import DequeModule

/// What to prefetch next, what is running, and what to cancel: keys deduplicated, at most `limit` running. Requests
/// are added in *turns*, and ``next()`` hands out only those of turns that have begun (``beginTurn(_:)``).
package struct PrefetchQueue<Key: Hashable, Handle> {
    package private(set) var pending: Deque<Key> = []
    private var requests: [Key: (request: ImageRequest, turn: Int)] = [:]
    /// The turn the last `enqueue` or `replace` added to.
    package private(set) var lastTurn = 0
    /// The last turn that has begun: requests of later turns wait.
    private var currentTurn = 0
    package private(set) var running: [Key: Handle?] = [:] {
        didSet { runningOrder.removeAll { running[$0] == nil } }
    }
    /// Running keys in the order they started, so everything that walks them is deterministic.
    private var runningOrder: [Key] = []
    package var limit: Int
    package var isPaused = false

    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Adds requests to the end of the queue, skipping keys already pending or running; returns their turn.
    @discardableResult
    package mutating func enqueue(_ items: [(key: Key, request: ImageRequest)]) -> Int {
        lastTurn += 1
        for item in items where requests[item.key] == nil && running[item.key] == nil {
            requests[item.key] = (item.request, lastTurn)
            pending.append(item.key)
        }
        return lastTurn
    }

    /// Lets requests of turns up to `turn` start.
    package mutating func beginTurn(_ turn: Int) {
        currentTurn = max(currentTurn, turn)
    }

    /// Removes keys: pending ones are forgotten, running ones are returned for cancelling.
    package mutating func remove(_ keys: [Key]) -> [Handle] {
        keys.compactMap { key in
            dropPending(key)
            return running.removeValue(forKey: key) ?? nil
        }
    }

    private mutating func dropPending(_ key: Key) {
        if requests.removeValue(forKey: key) != nil, let index = pending.firstIndex(of: key) {
            pending.remove(at: index)
        }
    }

    /// Makes `items` the whole wish list, in a new turn; returns running requests neither listed nor kept.
    package mutating func replace(with items: [(key: Key, request: ImageRequest)], keeping: Set<Key> = []) -> [Handle] {
        let wanted = Set(items.map(\.key))
        pending.removeAll()
        requests.removeAll()
        let cancelled = runningOrder.filter { !wanted.contains($0) && !keeping.contains($0) }
            .compactMap { running.removeValue(forKey: $0) ?? nil }
        enqueue(items)
        return cancelled
    }

    /// Forgets everything; returns the running handles for cancelling.
    package mutating func removeAll() -> [Handle] {
        pending.removeAll()
        requests.removeAll()
        defer { running.removeAll() }
        return runningHandles
    }

    /// Whether requests wait for a turn that has not begun.
    package var hasWaitingTurn: Bool { lastTurn > currentTurn && !pending.isEmpty }

    /// Takes the next requests to start, marking them running (their handles come later, through `attach`).
    package mutating func next() -> [(key: Key, request: ImageRequest)] {
        var started: [(key: Key, request: ImageRequest)] = []
        while !isPaused, running.count < limit, let key = pending.first {
            guard let entry = requests[key] else {
                pending.removeFirst()
                continue
            }
            guard entry.turn <= currentTurn else { break }
            pending.removeFirst()
            requests[key] = nil
            running[key] = .some(nil)
            runningOrder.append(key)
            started.append((key, entry.request))
        }
        return started
    }

    /// Takes over a request running elsewhere, beyond the limit; `false` when the key is already running here.
    package mutating func adopt(_ key: Key, handle: Handle) -> Bool {
        guard running[key] == nil else { return false }
        dropPending(key)
        running[key] = handle
        runningOrder.append(key)
        return true
    }

    /// Records the handle of a started request; `false` if the key was removed meanwhile.
    package mutating func attach(_ handle: Handle, to key: Key) -> Bool {
        guard running[key] != nil else { return false }
        running[key] = handle
        return true
    }

    /// A running request finished or was skipped, if `isCurrent` says the entry is that one.
    package mutating func finished(_ key: Key, isCurrent: (Handle?) -> Bool) {
        guard let entry = running[key], isCurrent(entry) else { return }
        running[key] = nil
    }

    package var runningHandles: [Handle] { runningOrder.compactMap { running[$0] ?? nil } }
}
