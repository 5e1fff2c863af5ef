// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Values under identifiers the table hands out, kept in place: a lookup is an index, not a hash, and reading or
/// changing one field of a value copies nothing else (the subscript is an addressor, not a getter).
///
/// An identifier holds the slot in its low 32 bits and a serial number above them, so identifiers grow in the order
/// values were inserted and one of a removed value never finds the value that reuses its slot. The serial wraps
/// after 2³¹ insertions (identifiers stay positive); the graph keeps no identifier of a removed value that long.
///
/// Slot 0 is never handed out: an unknown identifier addresses it, and finds it empty. So change values through
/// optional chaining (`table[id]?.field = x`, or `!` where the value must exist), and take them out with
/// ``remove(_:)``. A value assigned through an unknown identifier is dropped at the next change through one.
///
/// A value type: the storage is copied before a change when another table shares it.
struct NodeTable<Value> {
    private var storage = Storage(capacity: 8)
    private var freeSlots: [Int] = []
    private var serial = 0
    /// The number of values.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Stores a value under a new identifier.
    mutating func insert(_ value: consuming Value) -> Int {
        serial += 1
        count += 1
        let slot: Int
        if let free = freeSlots.popLast() {
            makeUnique(capacity: storage.capacity)
            slot = free
        } else {
            makeUnique(capacity: storage.used < storage.capacity ? storage.capacity : storage.capacity * 2)
            slot = storage.used
            (storage.ids + slot).initialize(to: 0)
            (storage.values + slot).initialize(to: nil)
            storage.used += 1
        }
        let id = (serial & 0x7FFF_FFFF) << 32 | slot
        storage.ids[slot] = id
        // The slot holds `nil`, which owns nothing: initialised over, not assigned (an assignment copies the value
        // out to a temporary first).
        (storage.values + slot).initialize(to: consume value)
        return id
    }

    /// The value under `id`; `nil` for an identifier not (or no longer) in the table.
    subscript(id: Int) -> Value? {
        unsafeAddress {
            assert(storage.values[0] == nil, "a value was set under an unknown identifier")
            return UnsafePointer(storage.values + slot(of: id))
        }
        unsafeMutableAddress {
            makeUnique(capacity: storage.capacity)
            let slot = slot(of: id)
            // Only a write through an unknown identifier can have filled slot 0: empty it when it is addressed
            // again, and leave it alone otherwise (writing `nil` copies a whole value's worth of bytes).
            if slot == 0, storage.values[0] != nil { storage.values[0] = nil }
            return storage.values + slot
        }
    }

    func contains(_ id: Int) -> Bool {
        slot(of: id) != 0
    }

    /// Removes and returns the value under `id`.
    @discardableResult
    mutating func remove(_ id: Int) -> Value? {
        let slot = slot(of: id)
        guard slot != 0 else { return nil }
        makeUnique(capacity: storage.capacity)
        storage.ids[slot] = 0
        freeSlots.append(slot)
        count -= 1
        return storage.values[slot].take()
    }

    /// Every identifier, in the order values were inserted.
    var ids: [Int] {
        (1..<storage.used).compactMap { storage.ids[$0] == 0 ? nil : storage.ids[$0] }.sorted()
    }

    /// The slot holding the value under `id`; 0 when there is none.
    private func slot(of id: Int) -> Int {
        let slot = id & 0xFFFF_FFFF
        return slot < storage.used && storage.ids[slot] == id ? slot : 0
    }

    private mutating func makeUnique(capacity: Int) {
        if isKnownUniquelyReferenced(&storage) {
            if capacity > storage.capacity { storage = storage.moved(capacity: capacity) }
        } else {
            storage = storage.copied(capacity: capacity)
        }
    }

    /// Slots `0..<used` are initialised; slot 0 is the empty one unknown identifiers address.
    private final class Storage {
        let capacity: Int
        var used = 1
        let ids: UnsafeMutablePointer<Int>
        let values: UnsafeMutablePointer<Value?>

        init(capacity: Int) {
            self.capacity = capacity
            ids = .allocate(capacity: capacity)
            values = .allocate(capacity: capacity)
            ids.initialize(to: 0)
            values.initialize(to: nil)
        }

        /// A copy with room for `capacity` slots.
        func copied(capacity: Int) -> Storage {
            let copy = Storage(capacity: capacity, used: used)
            copy.ids.initialize(from: ids, count: used)
            copy.values.initialize(from: values, count: used)
            return copy
        }

        /// This storage's slots moved into one with room for `capacity`; this one is left empty.
        func moved(capacity: Int) -> Storage {
            let moved = Storage(capacity: capacity, used: used)
            moved.ids.moveInitialize(from: ids, count: used)
            moved.values.moveInitialize(from: values, count: used)
            used = 0
            return moved
        }

        private init(capacity: Int, used: Int) {
            self.capacity = capacity
            self.used = used
            ids = .allocate(capacity: capacity)
            values = .allocate(capacity: capacity)
        }

        deinit {
            ids.deinitialize(count: used)
            values.deinitialize(count: used)
            ids.deallocate()
            values.deallocate()
        }
    }
}

// SAFETY: the storage is only changed through `makeUnique`, when no other table shares it, as Array's is; a table
// is as safe to send as its values.
extension NodeTable: @unchecked Sendable where Value: Sendable {}
