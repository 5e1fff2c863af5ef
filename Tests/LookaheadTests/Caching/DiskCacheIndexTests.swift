// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the disk cache's in-memory index, driven synchronously.

import Testing

@testable import Lookahead

@Suite struct DiskCacheIndexTests {
    @Test func sweepRemovesLeastRecentlyUsedDownToTheLowMark() {
        var index = DiskCacheIndex()
        for name in ["a", "b", "c", "d"] { index.insert(name, size: 100) }
        index.touch("a")
        #expect(index.sweep(limit: 400, lowMark: 200).isEmpty)  // at the limit: nothing to do
        index.insert("e", size: 100)  // 500 > 400
        #expect(index.sweep(limit: 400, lowMark: 200) == ["b", "c", "d"])
        #expect(index.totalSize == 200)
        #expect(index.namesByAge == ["a", "e"])
    }

    @Test func replacingAnEntryCountsItsNewSize() {
        var index = DiskCacheIndex()
        index.insert("a", size: 100)
        index.insert("a", size: 30)
        #expect(index.totalSize == 30)
        #expect(index.count == 1)
        index.remove("a")
        #expect(index.totalSize == 0)
    }

    @Test func scannedEntriesAreOlderThanIndexedOnesAndOrderedByModificationTime() {
        var index = DiskCacheIndex()
        index.insert("new", size: 10)
        index.merge(scanned: [("late", 5, 200), ("early", 7, 100), ("new", 10, 300)])
        #expect(index.namesByAge == ["early", "late", "new"])
        #expect(index.totalSize == 22)
    }
}
