// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the disk cache's saved index: loaded at open only when it describes the folder as it is.

import Foundation
import Testing

@_spi(Benchmarks) @testable import Lookahead

@Suite struct DiskCacheSnapshotTests {
    let folder = TemporaryDirectory("lookahead-disk-snapshot")

    private func data(_ seed: Int, count: Int = 1000) -> Data {
        var generator = SplitMix64(seed: UInt64(seed))
        return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    }

    private var snapshotPath: String { folder.path + "/" + DiskCacheIndexSnapshot.fileName }

    /// Writes a valid entry with another cache and moves its file into the folder, as a program that knows no
    /// ledger would: the folder's generation does not move.
    private func putEntryWithoutTheLedger(_ value: Data, for key: String) {
        let elsewhere = TemporaryDirectory("lookahead-disk-snapshot-other")
        let other = DiskCache(directory: elsewhere.url)
        other.storeData(value, for: key)
        other.flush()
        let name = DiskCacheFile.name(for: key)
        #expect(rename(elsewhere.path + "/" + name, folder.path + "/" + name) == 0)
    }

    /// Four entries written oldest first, then `key-0` read: by use, `key-1` is the least recently used; by
    /// modification time (what a count of the folder sees), `key-0`.
    private func fillAndReadTheOldest(limit: Int) {
        let cache = DiskCache(directory: folder.url, sizeLimit: limit, trimRatio: 1)
        for n in 0..<4 {
            cache.storeData(data(n), for: "key-\(n)")
            cache.flush()
        }
        #expect(cache.cachedData(for: "key-0") == data(0))
        cache.flush()
    }

    /// Which of the first two entries a store over the limit evicts from a cache opened anew.
    private func evictedAfterReopening(limit: Int) -> (evicted: String?, fromSnapshot: Bool) {
        let cache = DiskCache(directory: folder.url, sizeLimit: limit, trimRatio: 1)
        cache.flush()
        let fromSnapshot = cache.indexWasLoadedFromSnapshot
        cache.storeData(data(4), for: "key-4")
        cache.flush()
        let evicted = ["key-0", "key-1"].filter { !cache.containsData(for: $0) }
        #expect(evicted.count == 1)
        return (evicted.first, fromSnapshot)
    }

    @Test func anOpenLoadsTheSavedIndexAndKeepsTheOrderOfUse() throws {
        let limit = DiskCacheFile.fileSize(dataCount: 1000) * 4
        fillAndReadTheOldest(limit: limit)
        #expect(FileManager.default.fileExists(atPath: snapshotPath))
        let reopened = evictedAfterReopening(limit: limit)
        #expect(reopened.fromSnapshot)
        #expect(reopened.evicted == "key-1")
    }

    @Test func withoutTheSavedIndexAnOpenCountsTheFolderAndOrdersByModificationTime() throws {
        let limit = DiskCacheFile.fileSize(dataCount: 1000) * 4
        fillAndReadTheOldest(limit: limit)
        DiskCacheIndexSnapshot.remove(directory: folder.path)
        let reopened = evictedAfterReopening(limit: limit)
        #expect(!reopened.fromSnapshot)
        #expect(reopened.evicted == "key-0")
    }

    @Test(arguments: [0, 7, 8, 20, 30, 40, 47, 48, 60, 85, 127])
    func aDamagedSavedIndexIsIgnored(flippedByte: Int) throws {
        let limit = DiskCacheFile.fileSize(dataCount: 1000) * 4
        fillAndReadTheOldest(limit: limit)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: snapshotPath))
        bytes[flippedByte] ^= 0x10
        try bytes.write(to: URL(fileURLWithPath: snapshotPath))
        let reopened = evictedAfterReopening(limit: limit)
        #expect(!reopened.fromSnapshot)
        #expect(reopened.evicted == "key-0")
    }

    @Test func aTruncatedSavedIndexIsIgnored() throws {
        let limit = DiskCacheFile.fileSize(dataCount: 1000) * 4
        fillAndReadTheOldest(limit: limit)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: snapshotPath))
        for length in [0, 47, 48, bytes.count - 40, bytes.count - 1] {
            try bytes.prefix(length).write(to: URL(fileURLWithPath: snapshotPath))
            let cache = DiskCache(directory: folder.url, sizeLimit: limit)
            cache.flush()
            #expect(!cache.indexWasLoadedFromSnapshot, "length \(length)")
            #expect(cache.totalCount == 4)
        }
    }

    @Test func aSavedIndexOfAnEarlierGenerationIsIgnored() throws {
        do {
            let cache = DiskCache(directory: folder.url)
            for n in 0..<3 { cache.storeData(data(n), for: "key-\(n)") }
            cache.flush()
        }
        // A process killed in the middle of replacing an entry: it advanced the generation, then renamed a larger
        // file into place, and never saved an index.
        try DiskCacheLedger(directory: folder.path).withLock { held in
            held.values?.generation &+= 1
            held.save()
        }
        putEntryWithoutTheLedger(data(9, count: 5000), for: "key-1")

        let cache = DiskCache(directory: folder.url)
        cache.flush()
        #expect(!cache.indexWasLoadedFromSnapshot)
        #expect(cache.totalSize == folder.bytes(where: DiskCacheFile.isEntryName))
        #expect(cache.cachedData(for: "key-1") == data(9, count: 5000))
    }

    @Test func anEntryFileAddedWithoutTheLedgerMakesTheOpenCount() throws {
        do {
            let cache = DiskCache(directory: folder.url)
            for n in 0..<3 { cache.storeData(data(n), for: "key-\(n)") }
            cache.flush()
        }
        putEntryWithoutTheLedger(data(7), for: "added")

        let cache = DiskCache(directory: folder.url)
        cache.flush()
        #expect(!cache.indexWasLoadedFromSnapshot)
        #expect(cache.totalCount == 4)
        #expect(cache.cachedData(for: "added") == data(7))
    }

    @Test func anOpenFromTheSavedIndexRemovesTemporaryFilesOfDeadProcesses() throws {
        do {
            let cache = DiskCache(directory: folder.url)
            cache.storeData(data(1), for: "key")
            cache.flush()
        }
        // A writer killed after writing its temporary file, before the change that renames it: no generation moved.
        let stale = folder.path + "/.tmp-999999999-1"
        #expect(FileManager.default.createFile(atPath: stale, contents: data(2)))
        let cache = DiskCache(directory: folder.url)
        cache.flush()
        #expect(cache.indexWasLoadedFromSnapshot)
        #expect(!FileManager.default.fileExists(atPath: stale))
    }

    @Test func theSnapshotFormatRoundTripsAndRejectsEveryDamagedByte() throws {
        let names = (0..<3).map { DiskCacheIndex.Name(DiskCacheFile.name(for: "key-\($0)"))! }
        let records = names.enumerated().map { offset, name in
            DiskCacheIndexSnapshot.Record(
                name: name,
                size: UInt32(1000 + offset),
                touchedAt: UInt32(1_700_000_000 + offset)
            )
        }
        let snapshot = DiskCacheIndexSnapshot(generation: 42, totalSize: 3003, records: records)
        let bytes = snapshot.encoded()
        #expect(bytes.count == DiskCacheIndexSnapshot.headerSize + 3 * DiskCacheIndexSnapshot.recordSize)
        #expect(bytes.withUnsafeBytes { DiskCacheIndexSnapshot(decoding: $0) } == snapshot)
        // Every byte is checked, the reserved ones too (the checksum covers them).
        for offset in bytes.indices {
            var damaged = bytes
            damaged[offset] ^= 0x01
            #expect(damaged.withUnsafeBytes { DiskCacheIndexSnapshot(decoding: $0) } == nil, "byte \(offset)")
        }
    }

    @Test func anIndexRebuiltFromItsSnapshotHasTheSameEntriesInTheSameOrder() {
        var index = DiskCacheIndex()
        for n in 0..<5 { index.insert(DiskCacheFile.name(for: "key-\(n)"), size: 100 * (n + 1), touchedAt: Double(n)) }
        index.touch(DiskCacheIndex.Name(DiskCacheFile.name(for: "key-1"))!)
        let snapshot = DiskCacheIndexSnapshot(generation: 1, unsorted: index.unsortedSnapshotRecords)
        let rebuilt = DiskCacheIndex(snapshot: snapshot)
        #expect(rebuilt.namesByAge == index.namesByAge)
        #expect(rebuilt.totalSize == index.totalSize)
        #expect(rebuilt.entry(DiskCacheFile.name(for: "key-3"))?.touchedAt == 3)
    }
}
