// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// A least-recently-used store with a cost limit, a count limit and optional expiry. A dictionary maps keys to slots;
/// entries and the recency list are arrays by slot, so a hit touches only integers. Not thread safe.
struct LRUStorage<Key: Hashable, Value> {
    private struct Entry {
        var key: Key
        var cost: Int
    }

    private var entries: [Entry?] = []
    private var values: [Value?] = []
    private var expiries: [Duration?] = []
    private var newer: [Int] = []
    private var older: [Int] = []
    private var freeSlots: [Int] = []
    private var index: [Key: Int] = [:]
    /// How many holders pin each key (``pin(_:)``), stored or not, and the count of each slot's key.
    private var pins: [Key: Int] = [:]
    private var pinCounts: [Int] = []
    private var newest = -1
    private var oldest = -1

    private(set) var totalCost = 0
    var costLimit: Int { didSet { trim(toCost: costLimit, count: countLimit) } }
    var countLimit: Int { didSet { trim(toCost: costLimit, count: countLimit) } }

    init(costLimit: Int, countLimit: Int) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    var count: Int { index.count }

    /// Keys from most to least recently used.
    var keysByRecency: [Key] {
        sequence(first: newest) { older[$0] }.prefix { $0 >= 0 }.compactMap { entries[$0]?.key }
    }

    /// Returns the value and marks it most recently used; an expired entry is removed. `now` is read only for an
    /// entry that expires.
    mutating func value(forKey key: Key, now: @autoclosure () -> Duration?) -> Value? {
        value(forKey: key, now: now()) { $0 }
    }

    /// ``value(forKey:now:)``, returning only the part of the value `project` gives.
    @inline(__always)
    mutating func value<Part>(forKey key: Key, now: @autoclosure () -> Duration?, _ project: (Value) -> Part) -> Part? {
        guard let slot = index[key] else { return nil }
        if let expiresAt = expiries[slot], let now = now(), expiresAt <= now {
            removeSlot(slot)
            return nil
        }
        if slot != newest {
            unlink(slot)
            linkAtFront(slot)
        }
        return values.withUnsafeBufferPointer { $0[slot].map(project) }
    }

    /// Inserts or replaces a value, then evicts until the limits hold; `false` if not kept (too costly: none replaced).
    @discardableResult
    mutating func setValue(_ value: Value, forKey key: Key, cost: Int, expiresAt: Duration?) -> Bool {
        var evicted: [Value] = []
        return setValue(value, forKey: key, cost: cost, expiresAt: expiresAt, evicted: &evicted)
    }

    /// ``setValue(_:forKey:cost:expiresAt:)``, handing the values it replaces or evicts to the caller.
    mutating func setValue(_ value: Value, forKey key: Key, cost: Int, expiresAt: Duration?, evicted: inout [Value])
        -> Bool
    {
        guard cost <= costLimit, countLimit > 0 else { return false }
        if let slot = index[key], let old = removeSlot(slot) { evicted.append(old) }
        if freeSlots.isEmpty {
            freeSlots.append(entries.count)
            entries.append(nil)
            values.append(nil)
            expiries.append(nil)
            pinCounts.append(0)
            newer.append(-1)
            older.append(-1)
        }
        let slot = freeSlots.removeLast()
        entries[slot] = Entry(key: key, cost: cost)
        values[slot] = value
        expiries[slot] = expiresAt
        pinCounts[slot] = pins.isEmpty ? 0 : pins[key] ?? 0
        linkAtFront(slot)
        index[key] = slot
        totalCost += cost
        evict(toCost: costLimit, count: countLimit) { evicted.append($0) }
        // With every older entry pinned, the new one may be what had to go.
        return index[key] != nil
    }

    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? { index[key].flatMap { removeSlot($0) } }

    /// Removes every entry; pins stay.
    mutating func removeAll() {
        let pins = pins
        self = LRUStorage(costLimit: costLimit, countLimit: countLimit)
        self.pins = pins
    }

    /// Evicts least recently used entries until the total cost is at most `cost` and the count at most `count`.
    mutating func trim(toCost cost: Int, count: Int = .max) { evict(toCost: cost, count: count) { _ in } }

    /// Pins a key: its entry, now or once stored, is evicted after every entry that is not pinned.
    mutating func pin(_ key: Key) {
        pins[key, default: 0] += 1
        if let slot = index[key] { pinCounts[slot] += 1 }
    }

    /// Undoes one ``pin(_:)`` of a key.
    mutating func unpin(_ key: Key) {
        guard let count = pins[key] else { return }
        pins[key] = count > 1 ? count - 1 : nil
        if let slot = index[key], pinCounts[slot] > 0 { pinCounts[slot] -= 1 }
    }

    func isPinned(_ key: Key) -> Bool { index[key].map { pinCounts[$0] > 0 } ?? false }

    /// Removes least recently used entries, those not pinned first, until the limits hold.
    private mutating func evict(toCost cost: Int, count: Int, _ evicted: (Value) -> Void) {
        while oldest >= 0, totalCost > cost || index.count > count {
            if let value = removeSlot(oldestUnpinned ?? oldest) { evicted(value) }
        }
    }

    /// The least recently used entry that is not pinned, if any.
    private var oldestUnpinned: Int? {
        var slot = oldest
        while slot >= 0, pinCounts[slot] > 0 { slot = newer[slot] }
        return slot >= 0 ? slot : nil
    }

    mutating func removeExpired(now: Duration) {
        var slot = oldest
        while slot >= 0 {
            let next = newer[slot]
            if let expiresAt = expiries[slot], expiresAt <= now { removeSlot(slot) }
            slot = next
        }
    }

    private mutating func linkAtFront(_ slot: Int) {
        older[slot] = newest
        newer[slot] = -1
        if newest >= 0 { newer[newest] = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let newerSlot = newer[slot]
        let olderSlot = older[slot]
        if newerSlot >= 0 { older[newerSlot] = olderSlot } else { newest = olderSlot }
        if olderSlot >= 0 { newer[olderSlot] = newerSlot } else { oldest = newerSlot }
    }

    @discardableResult
    private mutating func removeSlot(_ slot: Int) -> Value? {
        unlink(slot)
        let value = values[slot].take()
        expiries[slot] = nil
        pinCounts[slot] = 0
        freeSlots.append(slot)
        if let entry = entries[slot].take() {
            index[entry.key] = nil
            totalCost -= entry.cost
        }
        return value
    }
}
