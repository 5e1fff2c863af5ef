// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the disk cache index's compact table against a Dictionary doing the same.

import Testing

@testable import Lookahead

@Suite struct DiskCacheIndexTableTests {
    private func name(_ number: Int) -> DiskCacheIndex.Name {
        DiskCacheIndex.Name(DiskCacheFile.name(for: "key-\(number)"))!
    }

    @Test(arguments: [1, 2, 3])
    func randomInsertsReplacementsAndRemovalsMatchADictionary(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var table = DiskCacheIndex.Table()
        var model: [DiskCacheIndex.Name: DiskCacheIndex.Entry] = [:]
        // Few distinct names, so most operations hit an existing entry and probe sequences collide and wrap.
        for step in 0..<20_000 {
            let key = name(Int(generator.next() % 300))
            switch generator.next() % 3 {
            case 0, 1:
                let entry = DiskCacheIndex.Entry(size: step, tick: UInt64(step))
                #expect(table.updateValue(entry, forKey: key) == model.updateValue(entry, forKey: key))
            default:
                #expect(table.removeValue(forKey: key) == model.removeValue(forKey: key))
            }
            if step % 997 == 0 {
                #expect(table.count == model.count)
                for number in 0..<300 { #expect(table[name(number)] == model[name(number)], "step \(step)") }
            }
        }
        #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) == model)
    }

    @Test func positionsLeadToTheirEntriesAfterRemovalsMoveThem() {
        var table = DiskCacheIndex.Table()
        for number in 0..<100 { table[name(number)] = DiskCacheIndex.Entry(size: number, tick: 0) }
        for number in stride(from: 0, to: 100, by: 3) { table[name(number)] = nil }
        for number in 0..<100 {
            let position = table.index(forKey: name(number))
            #expect((position == nil) == (number % 3 == 0))
            if let position { #expect(table[at: position].size == number) }
        }
    }

    @Test func aHundredThousandEntriesTakeUnderAHundredBytesEach() {
        var table = DiskCacheIndex.Table()
        for number in 0..<100_000 { table[name(number)] = DiskCacheIndex.Entry(size: 1, tick: 0) }
        #expect(table.footprint < 100 * 100_000)
        var reserved = DiskCacheIndex.Table()
        reserved.reserveCapacity(100_000)
        for number in 0..<100_000 { reserved[name(number)] = DiskCacheIndex.Entry(size: 1, tick: 0) }
        #expect(reserved.footprint < 60 * 100_000)
    }
}
