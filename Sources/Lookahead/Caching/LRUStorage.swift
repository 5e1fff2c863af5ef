// Lookahead — LRUStorage: the value-type core of the memory cache (cost, count, age; O(1) everything).

/// A least-recently-used store with a cost limit, a count limit and optional expiry.
///
/// A dictionary maps keys to slots in an array of nodes that form a doubly linked list, most recent first.
/// Lookups, insertions and removals are O(1); eviction takes from the tail. Not thread safe: ``MemoryCache``
/// wraps it in a `Mutex`, and tests drive it directly.
struct LRUStorage<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var expiresAt: Duration?
        var newer: Int
        var older: Int
    }

    private var nodes: [Node?] = []
    private var freeSlots: [Int] = []
    private var index: [Key: Int] = [:]
    private var newest = -1
    private var oldest = -1

    /// The sum of the costs of all entries.
    private(set) var totalCost = 0
    /// The limit `totalCost` is kept at or under.
    var costLimit: Int { didSet { trim(toCost: costLimit, count: countLimit) } }
    /// The limit on the number of entries.
    var countLimit: Int { didSet { trim(toCost: costLimit, count: countLimit) } }

    init(costLimit: Int, countLimit: Int) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    /// The number of entries.
    var count: Int { index.count }

    /// Keys from most to least recently used (for tests and diagnostics).
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var slot = newest
        while slot >= 0, let node = nodes[slot] {
            keys.append(node.key)
            slot = node.older
        }
        return keys
    }

    /// Returns the value and marks it most recently used; an expired entry is removed and `nil` returned.
    mutating func value(forKey key: Key, now: Duration) -> Value? {
        guard let slot = index[key], let node = nodes[slot] else { return nil }
        if let expiresAt = node.expiresAt, expiresAt <= now {
            removeSlot(slot)
            return nil
        }
        moveToFront(slot)
        return node.value
    }

    /// Returns the value without changing recency or removing expired entries.
    func peek(key: Key) -> Value? {
        index[key].flatMap { nodes[$0]?.value }
    }

    /// Inserts or replaces a value, then evicts the least recently used entries until the limits hold.
    /// An entry whose cost alone exceeds `costLimit` is not stored (and replaces nothing).
    @discardableResult
    mutating func setValue(_ value: Value, forKey key: Key, cost: Int, expiresAt: Duration?) -> Bool {
        guard cost <= costLimit, countLimit > 0 else {
            return false
        }
        if let slot = index[key] {
            removeSlot(slot)
        }
        let node = Node(key: key, value: value, cost: cost, expiresAt: expiresAt, newer: -1, older: newest)
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        if newest >= 0 { nodes[newest]!.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        index[key] = slot
        totalCost += cost
        trim(toCost: costLimit, count: countLimit)
        return true
    }

    /// Removes a value; returns it if it was there.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        return removeSlot(slot).value
    }

    /// Removes everything.
    mutating func removeAll() {
        nodes.removeAll()
        freeSlots.removeAll()
        index.removeAll()
        newest = -1
        oldest = -1
        totalCost = 0
    }

    /// Evicts least recently used entries until the total cost is at most `cost` and the count at most `count`.
    mutating func trim(toCost cost: Int, count: Int = .max) {
        while oldest >= 0, totalCost > cost || index.count > count {
            removeSlot(oldest)
        }
    }

    /// Removes expired entries.
    mutating func removeExpired(now: Duration) {
        var slot = oldest
        while slot >= 0, let node = nodes[slot] {
            let next = node.newer
            if let expiresAt = node.expiresAt, expiresAt <= now { removeSlot(slot) }
            slot = next
        }
    }

    // MARK: - List

    private mutating func moveToFront(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        nodes[slot]!.older = newest
        nodes[slot]!.newer = -1
        if newest >= 0 { nodes[newest]!.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let node = nodes[slot]!
        if node.newer >= 0 { nodes[node.newer]!.older = node.older } else { newest = node.older }
        if node.older >= 0 { nodes[node.older]!.newer = node.newer } else { oldest = node.newer }
    }

    @discardableResult
    private mutating func removeSlot(_ slot: Int) -> Node {
        unlink(slot)
        let node = nodes[slot]!
        nodes[slot] = nil
        freeSlots.append(slot)
        index[node.key] = nil
        totalCost -= node.cost
        return node
    }
}
