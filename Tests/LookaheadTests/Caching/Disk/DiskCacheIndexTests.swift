// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the disk cache's in-memory index, driven synchronously.

import Testing

@testable import Lookahead

/// The entry file name of a short label: the index keeps entry names only.
private func n(_ label: String) -> String { DiskCacheFile.name(for: label) }

@Suite struct DiskCacheIndexTests {
    @Test func aNameMadeFromADigestIsTheNameItsHexDigitsSpell() {
        for key in ["", "a", "https://example.com/images/1.jpg"] {
            let digest = DiskCacheFile.keyDigest(for: key)
            let name = DiskCacheIndex.Name(digest: digest)
            let hex = digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            #expect(DiskCacheIndex.Name(hex) == name)
            #expect(name.string == hex)
            // What a read opens and checks the header against: the same name, spelled on the stack.
            #expect(DiskCacheFile.keyName(for: key) == name)
            #expect(name.withCString { String(cString: $0) } == hex)
        }
    }

    @Test func sweepRemovesLeastRecentlyUsedDownToTheLowMark() {
        var index = DiskCacheIndex()
        for name in ["a", "b", "c", "d"] { index.insert(n(name), size: 100) }
        index.touch(DiskCacheIndex.Name(n("a"))!)
        #expect(index.sweep(limit: 400, lowMark: 200).isEmpty)  // at the limit: nothing to do
        index.insert(n("e"), size: 100)  // 500 > 400
        #expect(index.sweep(limit: 400, lowMark: 200) == ["b", "c", "d"].map(n))
        #expect(index.totalSize == 200)
        #expect(index.namesByAge == ["a", "e"].map(n))
    }

    @Test func replacingAnEntryCountsItsNewSize() {
        var index = DiskCacheIndex()
        index.insert(n("a"), size: 100)
        index.insert(n("a"), size: 30)
        #expect(index.totalSize == 30)
        #expect(index.count == 1)
        index.remove(n("a"))
        #expect(index.totalSize == 0)
    }

    @Test func scannedEntriesAreOlderThanIndexedOnesAndOrderedByModificationTime() {
        var index = DiskCacheIndex()
        index.insert(n("new"), size: 10)
        index.merge(scanned: [(n("late"), 5, 200), (n("early"), 7, 100), (n("new"), 10, 300)])
        #expect(index.namesByAge == ["early", "late", "new"].map(n))
        #expect(DiskCacheIndex.Name(n("early"))?.string == n("early"), "a name comes back as it went in")
        #expect(index.totalSize == 22)
    }
}
