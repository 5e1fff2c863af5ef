// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the task graph's table of stages and operations.

import Testing

@testable import Lookahead

@Suite struct NodeTableTests {
    @Test func valuesAreFoundUnderTheirIdentifiersUntilRemoved() {
        var table = NodeTable<String>()
        let a = table.insert("a")
        let b = table.insert("b")
        #expect(table[a] == "a" && table[b] == "b" && table.count == 2)
        table[a]! += "!"
        #expect(table[a] == "a!")
        #expect(table.remove(a) == "a!")
        #expect(table[a] == nil && !table.contains(a) && table.count == 1)
        #expect(table.remove(a) == nil, "removed once")
    }

    @Test func anIdentifierOfARemovedValueNeverFindsTheValueInItsSlot() {
        var table = NodeTable<Int>()
        let old = table.insert(1)
        table.remove(old)
        let new = table.insert(2)
        #expect(new != old)
        #expect(table[old] == nil && !table.contains(old))
        table[old]? += 3  // changing through a stale identifier changes nothing
        #expect(table[old] == nil && table[new] == 2 && table.count == 1)
    }

    @Test func aValueAssignedThroughAnUnknownIdentifierIsGoneAtTheNextChangeThroughOne() {
        var table = NodeTable<String>()
        let a = table.insert("a")
        let stale = a + (1 << 32)  // the same slot under another serial
        table[stale]?.append("!")
        #expect(table[a] == "a" && table[stale] == nil)
        // Assigned, not changed through optional chaining: the value lands in the empty slot that unknown
        // identifiers address, which the next change through an unknown identifier empties again.
        table[stale] = "stray"
        table[12_345]?.append("?")
        #expect(table[stale] == nil && table[12_345] == nil && table[a] == "a" && table.count == 1)
    }

    @Test func identifiersGrowInTheOrderOfInsertionWhateverSlotTheyTake() {
        var table = NodeTable<Int>()
        let first = table.insert(0)
        let second = table.insert(1)
        table.remove(first)
        let third = table.insert(2)  // takes the first's slot
        #expect(second < third)
        #expect(table.ids == [second, third])
        #expect(table.ids.map { table[$0] } == [1, 2])
    }

    @Test func aCopyIsIndependent() {
        var table = NodeTable<[Int]>()
        let id = table.insert([1])
        var copy = table
        copy[id]!.append(2)
        let other = copy.insert([3])
        #expect(table[id] == [1] && !table.contains(other) && table.count == 1)
        #expect(copy[id] == [1, 2] && copy[other] == [3] && copy.count == 2)
    }

    @Test func growingKeepsEveryValue() {
        var table = NodeTable<String>()
        let ids = (0..<100).map { table.insert("\($0)") }
        for (n, id) in ids.enumerated() where n % 3 == 0 { table.remove(id) }
        let more = (100..<150).map { table.insert("\($0)") }
        for (n, id) in (ids + more).enumerated() {
            #expect(table[id] == (n < 100 && n % 3 == 0 ? nil : "\(n)"))
        }
        #expect(table.count == 150 - 34)
        #expect(table.ids == (ids + more).enumerated().filter { $0.offset >= 100 || $0.offset % 3 != 0 }.map(\.element))
    }
}
