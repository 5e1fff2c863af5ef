// Lookahead — PrefetchQueue: the prefetcher's bookkeeping as a value-type state machine.

import DequeModule

/// What to prefetch next, what is running, and what to cancel. Keys are deduplicated: a key already pending
/// or running is not added again. At most `limit` run at once; none start while paused.
package struct PrefetchQueue<Key: Hashable, Handle> {
    package private(set) var pending: Deque<Key> = []
    private var requests: [Key: ImageRequest] = [:]
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

    /// Adds requests to the end of the queue, in order, skipping keys already pending or running.
    package mutating func enqueue(_ items: [(key: Key, request: ImageRequest)]) {
        for item in items where requests[item.key] == nil && running[item.key] == nil {
            requests[item.key] = item.request
            pending.append(item.key)
        }
    }

    /// Removes keys: pending ones are forgotten, running ones are returned for cancelling.
    package mutating func remove(_ keys: [Key]) -> [Handle] {
        var cancelled: [Handle] = []
        for key in keys {
            if requests.removeValue(forKey: key) != nil, let index = pending.firstIndex(of: key) {
                pending.remove(at: index)
            }
            if let handle = running.removeValue(forKey: key), let handle { cancelled.append(handle) }
        }
        return cancelled
    }

    /// Makes `items` the whole wish list, in order: pending requests become exactly those not already running;
    /// running requests neither listed nor in `keeping` are returned for cancelling.
    package mutating func replace(with items: [(key: Key, request: ImageRequest)], keeping: Set<Key> = []) -> [Handle] {
        let wanted = Set(items.map(\.key))
        pending.removeAll()
        requests.removeAll()
        var cancelled: [Handle] = []
        for key in runningOrder where !wanted.contains(key) && !keeping.contains(key) {
            if let handle = running.removeValue(forKey: key), let handle { cancelled.append(handle) }
        }
        enqueue(items)
        return cancelled
    }

    /// Forgets everything; returns the running handles for cancelling.
    package mutating func removeAll() -> [Handle] {
        pending.removeAll()
        requests.removeAll()
        defer { running.removeAll() }
        return runningOrder.compactMap { running[$0] ?? nil }
    }

    /// Takes the next requests to start, marking them running (their handles come later, through `attach`).
    package mutating func next() -> [(key: Key, request: ImageRequest)] {
        var started: [(key: Key, request: ImageRequest)] = []
        while !isPaused, running.count < limit, let key = pending.popFirst() {
            guard let request = requests.removeValue(forKey: key) else { continue }
            running[key] = .some(nil)
            runningOrder.append(key)
            started.append((key, request))
        }
        return started
    }

    /// Takes over a request already running elsewhere (a reused cell's load), beyond the limit; `false` when
    /// the key is already running here.
    package mutating func adopt(_ key: Key, handle: Handle) -> Bool {
        guard running[key] == nil else { return false }
        if requests.removeValue(forKey: key) != nil, let index = pending.firstIndex(of: key) {
            pending.remove(at: index)
        }
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

    /// A running request finished (or was skipped): its slot is free. `isCurrent` tells whether the running
    /// entry is the one that finished, not a later start of the same key after a stop.
    package mutating func finished(_ key: Key, isCurrent: (Handle?) -> Bool) {
        guard let entry = running[key], isCurrent(entry) else { return }
        running[key] = nil
    }

    /// The handles of running requests.
    package var runningHandles: [Handle] { runningOrder.compactMap { running[$0] ?? nil } }
}
