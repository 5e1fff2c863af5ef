// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

extension DiskCacheIndex {
    /// A map from entry names to entries, smaller than a `Dictionary`: dense arrays found through 4-byte slots. Names
    /// are digests of keys a server may choose, so each table draws its hash multipliers at random.
    struct Table: Sequence {
        private(set) var names: [Name] = []
        private var entries: [Entry] = []
        /// Linear probing; a slot holds a position in `names` plus one, 0 when empty.
        private var slots: [UInt32] = []
        /// 64 minus the base-2 logarithm of the slot count.
        private var shift: UInt64 = 64
        private let multipliers = (UInt64.random(in: 0...UInt64.max) | 1, UInt64.random(in: 0...UInt64.max) | 1)

        init() {}

        var count: Int { names.count }
        var underestimatedCount: Int { names.count }

        /// The bytes the arrays hold, allocated capacity included.
        var footprint: Int {
            names.capacity * MemoryLayout<Name>.stride + entries.capacity * MemoryLayout<Entry>.stride
                + slots.capacity * MemoryLayout<UInt32>.stride
        }

        /// The position of a name's entry, for ``subscript(at:)``; `nil` when absent.
        func index(forKey key: Name) -> Int? { find(key).position }

        /// The entry at a position (`0..<count`); positions change when an entry is removed.
        subscript(at position: Int) -> Entry {
            get { entries[position] }
            set { entries[position] = newValue }
        }

        subscript(key: Name) -> Entry? {
            get { find(key).position.map { entries[$0] } }
            set {
                if let newValue { updateValue(newValue, forKey: key) } else { removeValue(forKey: key) }
            }
        }

        @discardableResult
        mutating func updateValue(_ entry: Entry, forKey key: Name) -> Entry? {
            var found = find(key)
            if let position = found.position {
                defer { entries[position] = entry }
                return entries[position]
            }
            if (names.count + 1) * 4 > slots.count * 3 {
                grow(toHold: names.count + 1)
                found = find(key)
            }
            if names.count == names.capacity {
                // Grows by half, not double: the arrays are most of the table's memory.
                let capacity = names.count + names.count / 2 + 16
                names.reserveCapacity(capacity)
                entries.reserveCapacity(capacity)
            }
            names.append(key)
            entries.append(entry)
            slots[found.slot] = UInt32(names.count)
            return nil
        }

        /// Removes a name's entry and returns it. The last entry moves into its position.
        @discardableResult
        mutating func removeValue(forKey key: Name) -> Entry? {
            let found = find(key)
            guard let position = found.position else { return nil }
            let removed = entries[position]
            emptySlot(found.slot)
            let last = names.count - 1
            if position != last {
                var slot = home(names[last])
                while slots[slot] != UInt32(last + 1) { slot = (slot + 1) & mask }
                slots[slot] = UInt32(position + 1)
                names[position] = names[last]
                entries[position] = entries[last]
            }
            names.removeLast()
            entries.removeLast()
            return removed
        }

        mutating func removeAll() { self = Table() }

        mutating func reserveCapacity(_ capacity: Int) {
            if capacity > names.capacity {
                names.reserveCapacity(capacity)
                entries.reserveCapacity(capacity)
            }
            if capacity * 4 > slots.count * 3 { grow(toHold: capacity) }
        }

        func makeIterator() -> some IteratorProtocol<(key: Name, value: Entry)> {
            zip(names, entries).lazy.map { (key: $0, value: $1) }.makeIterator()
        }

        private var mask: Int { slots.count - 1 }

        /// The slot a name's probe starts at.
        private func home(_ key: Name) -> Int {
            Int(truncatingIfNeeded: key.mixed(multipliers.0, multipliers.1) >> shift)
        }

        /// The slot holding a name, or the empty slot where it would go.
        private func find(_ key: Name) -> (slot: Int, position: Int?) {
            guard !slots.isEmpty else { return (0, nil) }
            var slot = home(key)
            while true {
                let value = slots[slot]
                if value == 0 { return (slot, nil) }
                if names[Int(value) - 1] == key { return (slot, Int(value) - 1) }
                slot = (slot + 1) & mask
            }
        }

        /// Empties a slot, moving back the entries after it that probed past it (no tombstones).
        private mutating func emptySlot(_ slot: Int) {
            var hole = slot
            var next = (hole + 1) & mask
            while slots[next] != 0 {
                let start = home(names[Int(slots[next]) - 1])
                // The entry at `next` may fill the hole unless its probe starts after the hole.
                if (next - start) & mask >= (next - hole) & mask {
                    slots[hole] = slots[next]
                    hole = next
                }
                next = (next + 1) & mask
            }
            slots[hole] = 0
        }

        /// A power of two of slots, at most three quarters full with `capacity` entries; every entry placed again.
        private mutating func grow(toHold capacity: Int) {
            var count = 16
            while capacity * 4 > count * 3 { count *= 2 }
            slots = [UInt32](repeating: 0, count: count)
            shift = 64 - UInt64(count.trailingZeroBitCount)
            for (position, name) in names.enumerated() {
                var slot = home(name)
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = UInt32(position + 1)
            }
        }
    }
}
