// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — DiskCache on real files: persistence, limits, corruption, a folder changed from outside.

import Foundation
import Testing

@testable import Lookahead

@Suite struct DiskCacheTests {
    let folder = TemporaryDirectory("lookahead-disk")

    private func data(_ seed: Int, count: Int = 1000) -> Data {
        var generator = SplitMix64(seed: UInt64(seed))
        return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    }

    private func isEntryFile(_ name: String) -> Bool { name.count == 64 }

    @Test func storedDataIsReadableAtOnceAndAfterTheWrite() {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(data(1), for: "https://example.com/1.jpg")
        #expect(cache.cachedData(for: "https://example.com/1.jpg") == data(1))  // staged
        cache.flush()
        #expect(FileManager.default.fileExists(atPath: cache.filePath(for: "https://example.com/1.jpg")))
        #expect(cache.cachedData(for: "https://example.com/1.jpg") == data(1))  // from the file
        #expect(cache.cachedData(for: "https://example.com/2.jpg") == nil)
    }

    @Test func persistsAcrossInstances() {
        do {
            let cache = DiskCache(directory: folder.url)
            for n in 0..<20 { cache.storeData(data(n), for: "key-\(n)") }
            cache.flush()
        }
        let reopened = DiskCache(directory: folder.url)
        reopened.flush()  // the index is loaded on the cache's queue
        #expect(reopened.totalCount == 20)
        #expect(!reopened.isReadOnly)
        for n in 0..<20 { #expect(reopened.cachedData(for: "key-\(n)") == data(n)) }
    }

    @Test func fileNamesAreHashesSoKeysCannotEscapeTheFolder() {
        let cache = DiskCache(directory: folder.url)
        let key = "../../../../tmp/escape"
        cache.storeData(data(1), for: key)
        cache.flush()
        let path = cache.filePath(for: key)
        #expect(URL(fileURLWithPath: path).deletingLastPathComponent().standardized == folder.url.standardized)
        #expect(URL(fileURLWithPath: path).lastPathComponent.count == 64)
        #expect(cache.cachedData(for: key) == data(1))
    }

    @Test func sweepRemovesTheLeastRecentlyReadFirst() {
        let entry = DiskCacheFile.fileSize(dataCount: 1000)
        let cache = DiskCache(directory: folder.url, sizeLimit: entry * 4, trimRatio: 0.75)
        for n in 0..<4 { cache.storeData(data(n), for: "key-\(n)") }
        cache.flush()
        _ = cache.cachedData(for: "key-0")  // now 1 is the least recently used
        cache.storeData(data(4), for: "key-4")  // 5 entries > limit → trim to 3
        cache.flush()
        #expect(cache.totalCount == 3)
        #expect(cache.containsData(for: "key-0"))
        #expect(!cache.containsData(for: "key-1"))
        #expect(!cache.containsData(for: "key-2"))
        #expect(cache.containsData(for: "key-4"))
        #expect(!FileManager.default.fileExists(atPath: cache.filePath(for: "key-1")))
    }

    @Test func aHitRecordsRecencyOnDiskAtMostOncePerInterval() throws {
        do {
            let writer = DiskCache(directory: folder.url)
            writer.storeData(data(1), for: "stale")
            writer.storeData(data(2), for: "fresh")
            writer.flush()
        }
        let files = FileManager.default
        func modified(_ key: String) throws -> Date {
            let path = folder.path + "/" + DiskCacheFile.name(for: key)
            return try #require(try files.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        }
        func setModified(_ key: String, _ date: Date) throws {
            let path = folder.path + "/" + DiskCacheFile.name(for: key)
            try files.setAttributes([.modificationDate: date], ofItemAtPath: path)
        }
        // One entry last read an hour ago, one 30 s ago (within the interval); a relaunch reads those times.
        let hourAgo = Date(timeIntervalSinceNow: -3600)
        let halfMinuteAgo = Date(timeIntervalSinceNow: -30)
        try setModified("stale", hourAgo)
        try setModified("fresh", halfMinuteAgo)
        // A relaunch that counts the folder (its saved index is gone) orders entries by those times.
        DiskCacheIndexSnapshot.remove(directory: folder.path)
        let cache = DiskCache(directory: folder.url)
        cache.flush()  // the index is loaded, with the modification times
        #expect(cache.cachedData(for: "stale") == data(1))
        #expect(cache.cachedData(for: "fresh") == data(2))
        // The stale entry is touched, so its recency survives a relaunch; the fresh one keeps its time.
        #expect(try modified("stale") > Date(timeIntervalSinceNow: -60))
        #expect(abs(try modified("fresh").timeIntervalSince(halfMinuteAgo)) < 1)
        // The index remembers the touch: another hit within the minute makes no syscall for it, even though
        // the file's time was put back meanwhile.
        try setModified("stale", hourAgo)
        #expect(cache.cachedData(for: "stale") == data(1))
        #expect(abs(try modified("stale").timeIntervalSince(hourAgo)) < 1)
    }

    @Test func theLimitHoldsThroughoutALongWriteLoop() {
        let limit = 50_000
        let cache = DiskCache(directory: folder.url, sizeLimit: limit)
        var generator = SplitMix64(seed: 9)
        for n in 0..<400 {
            cache.storeData(data(n, count: 200 + Int(generator.next() % 3000)), for: "key-\(n)")
            #expect(cache.totalSize <= limit)
            if n % 50 == 0 {
                cache.flush()
                #expect(folder.bytes(where: isEntryFile) <= limit)
            }
        }
        cache.flush()
        #expect(folder.bytes(where: isEntryFile) == cache.totalSize)
        #expect(cache.cachedData(for: "key-399") != nil)
    }

    @Test func aFlippedByteIsAMissAndTheEntryIsRemoved() throws {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(data(7, count: 5000), for: "key")
        cache.flush()
        let path = cache.filePath(for: "key")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count - 100] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(cache.cachedData(for: "key") == nil)
        cache.flush()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!cache.containsData(for: "key"))
    }

    @Test(arguments: [0, 10, 52, 60, 3000]) func aTruncatedFileIsAMiss(length: Int) throws {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(data(3, count: 4000), for: "key")
        cache.flush()
        let path = cache.filePath(for: "key")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(length).write(to: URL(fileURLWithPath: path))
        #expect(cache.cachedData(for: "key") == nil)
    }

    @Test(arguments: [1, 4096]) func aFileWithBytesAppendedIsAMissAndTheEntryIsRemoved(extra: Int) throws {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(data(5, count: 4000), for: "key")
        cache.flush()
        // A hit first, so the index knows the file's size; then the file grows behind the cache's back.
        #expect(cache.cachedData(for: "key") == data(5, count: 4000))
        let path = cache.filePath(for: "key")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.append(Data(repeating: 0xAB, count: extra))
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(cache.cachedData(for: "key") == nil)
        cache.flush()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFileForAnotherKeyIsAMiss() throws {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(data(1), for: "a")
        cache.storeData(data(2), for: "b")
        cache.flush()
        // Put a's file where b's belongs: same format, valid checksum, wrong key.
        try FileManager.default.removeItem(atPath: cache.filePath(for: "b"))
        try FileManager.default.copyItem(atPath: cache.filePath(for: "a"), toPath: cache.filePath(for: "b"))
        #expect(cache.cachedData(for: "b") == nil)
        #expect(cache.cachedData(for: "a") == data(1))
    }

    @Test func aFileDeletedFromOutsideIsAMiss() throws {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(data(1), for: "key")
        cache.flush()
        try FileManager.default.removeItem(atPath: cache.filePath(for: "key"))
        #expect(cache.cachedData(for: "key") == nil)
        #expect(cache.totalCount == 0)
    }

    @Test func aFolderDeletedFromOutsideIsRecreatedOnTheNextWrite() throws {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(data(1), for: "old")
        cache.flush()
        try FileManager.default.removeItem(at: folder.url)
        #expect(cache.cachedData(for: "old") == nil)
        cache.storeData(data(2), for: "new")
        cache.flush()
        #expect(FileManager.default.fileExists(atPath: cache.filePath(for: "new")))
        #expect(cache.writeFailure == nil)
        #expect(cache.cachedData(for: "new") == data(2))  // read in the new folder, not the deleted one
        let reopened = DiskCache(
            directory: folder.url.appendingPathComponent("..").appendingPathComponent(folder.url.lastPathComponent)
        )
        reopened.flush()
        #expect(reopened.cachedData(for: "new") == data(2))
    }

    @Test func aFolderDeletedAndCreatedAgainByAnotherCacheIsReadWhereItIsNow() throws {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(data(1), for: "key")
        cache.flush()
        #expect(cache.cachedData(for: "key") == data(1))
        try FileManager.default.removeItem(at: folder.url)
        // Another cache makes the folder again and stores the key anew: the first one reads the new file, though
        // the folder it opened is gone.
        let other = DiskCache(directory: folder.url)
        other.storeData(data(2, count: 1500), for: "key")
        other.flush()
        #expect(cache.cachedData(for: "key") == data(2, count: 1500))
        #expect(cache.cachedData(for: "key") == data(2, count: 1500))
    }

    @Test func twoCachesOnOneFolderBothWriteAndReadEachOthersEntries() {
        let first = DiskCache(directory: folder.url)
        first.storeData(data(1), for: "shared")
        first.flush()
        let second = DiskCache(directory: folder.url)
        second.flush()
        #expect(!second.isReadOnly)
        #expect(second.cachedData(for: "shared") == data(1))  // found when it opened
        // Each sees what the other adds after it opened, though its index did not know it.
        first.storeData(data(2), for: "from-first")
        first.flush()
        second.storeData(data(3), for: "from-second")
        second.flush()
        #expect(second.cachedData(for: "from-first") == data(2))
        #expect(first.cachedData(for: "from-second") == data(3))
        // A removal by one is a miss for the other.
        second.removeData(for: "shared")
        second.flush()
        #expect(first.cachedData(for: "shared") == nil)
        let reopened = DiskCache(directory: folder.url)
        reopened.flush()
        #expect(reopened.totalCount == 2)
    }

    @Test func aMissCostsNoFileLookupUntilAnotherCacheWrites() throws {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(data(1), for: "known")
        cache.flush()
        // An entry file the index does not know, put there without the folder's ledger: not looked for.
        let file = Data(DiskCacheFile.header(keyDigest: DiskCacheFile.keyDigest(for: "planted"), data: data(2)))
        try (file + data(2)).write(to: URL(fileURLWithPath: cache.filePath(for: "planted")))
        #expect(cache.cachedData(for: "planted") == nil)
        // Once another cache has changed the folder, misses look at the disk.
        let other = DiskCache(directory: folder.url)
        other.storeData(data(3), for: "other")
        other.flush()
        #expect(cache.cachedData(for: "planted") == data(2))
        #expect(cache.cachedData(for: "other") == data(3))
    }

    @Test func cachesSharingAFolderKeepItsSizeLimitTogether() {
        // Each entry takes 1056 bytes; the limit holds 20, a sweep trims to 16.
        let limit = 20 * 1056
        let first = DiskCache(directory: folder.url, sizeLimit: limit)
        let second = DiskCache(directory: folder.url, sizeLimit: limit)
        first.flush()
        second.flush()
        for n in 0..<60 {
            let cache = n.isMultiple(of: 2) ? first : second
            cache.storeData(data(n), for: "key-\(n)")
            cache.flush()
            #expect(onDiskSize() <= limit, "after entry \(n): \(onDiskSize()) bytes on disk")
        }
        // The newest entries survive whichever cache wrote them; the oldest went.
        #expect(first.cachedData(for: "key-59") == data(59))
        #expect(second.cachedData(for: "key-58") == data(58))
        #expect(first.cachedData(for: "key-0") == nil)
        let reopened = DiskCache(directory: folder.url, sizeLimit: limit)
        reopened.flush()
        #expect(reopened.totalSize == onDiskSize())
    }

    private func onDiskSize() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter(isEntryFile).reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.path + "/" + name)
            return total + ((attributes?[.size] as? Int) ?? 0)
        }
    }

    /// A removal's file goes on the cache's queue. Until then the entry is a miss, even when another cache changed
    /// the folder meanwhile (so a key missing from the index is looked for on disk), and it is not counted again.
    @Test(arguments: [false, true])
    func aRemovedEntryIsAMissBeforeItsFileIsGone(removesAll: Bool) {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(data(0), for: "key-0")
        cache.flush()
        cache.writes.holdingQueues {
            if removesAll { cache.removeAll() } else { cache.removeData(for: "key-0") }
            let other = DiskCache(directory: folder.url)
            other.storeData(data(1), for: "key-1")
            other.flush()
            #expect(FileManager.default.fileExists(atPath: cache.filePath(for: "key-0")), "the removal waits")
            #expect(cache.cachedData(for: "key-0") == nil)
        }
        cache.flush()
        #expect(!FileManager.default.fileExists(atPath: cache.filePath(for: "key-0")))
        #expect(cache.cachedData(for: "key-0") == nil)
    }

    @Test func removeDataAndRemoveAll() {
        let cache = DiskCache(directory: folder.url)
        for n in 0..<5 { cache.storeData(data(n), for: "key-\(n)") }
        cache.removeData(for: "key-0")
        #expect(cache.cachedData(for: "key-0") == nil)
        cache.flush()
        #expect(!FileManager.default.fileExists(atPath: cache.filePath(for: "key-0")))
        cache.removeAll()
        cache.flush()
        #expect(cache.totalCount == 0)
        #expect(folder.bytes(where: isEntryFile) == 0)
        // A store right after removeAll survives it.
        cache.removeAll()
        cache.storeData(data(9), for: "after")
        cache.flush()
        #expect(cache.cachedData(for: "after") == data(9))
    }

    /// While the writes are behind, stores wait in memory; past `pendingWriteLimit` bytes they are skipped, and a
    /// skipped store of a key leaves no older version of it to be served.
    @Test func storesPastThePendingWriteLimitAreSkippedUntilTheWritesCatchUp() {
        let cache = DiskCache(directory: folder.url, pendingWriteLimit: 1500)
        cache.storeData(data(0), for: "old")
        cache.flush()
        cache.writes.holdingQueues {
            cache.storeData(data(1), for: "first")
            cache.storeData(data(2), for: "second")  // 2000 bytes would wait
            cache.storeData(data(3), for: "old")
            #expect(cache.cachedData(for: "first") == data(1))
            #expect(cache.cachedData(for: "second") == nil)
            #expect(cache.cachedData(for: "old") == nil, "not the version the skipped store replaces")
        }
        cache.flush()
        cache.storeData(data(4), for: "after")
        cache.flush()
        let reopened = DiskCache(directory: folder.url)
        #expect(reopened.cachedData(for: "first") == data(1))
        #expect(reopened.cachedData(for: "second") == nil)
        #expect(reopened.cachedData(for: "old") == nil)
        #expect(reopened.cachedData(for: "after") == data(4))
    }

    /// Writes wait for a queue that yields to other work; `flush()` does the waiting ones itself.
    @Test func flushWritesWhatWaitsForTheWriteQueue() {
        let cache = DiskCache(directory: folder.url)
        cache.writes.holdingWriteQueue {
            for n in 0..<3 { cache.storeData(data(n), for: "key-\(n)") }
            cache.removeData(for: "key-1")
            #expect(cache.cachedData(for: "key-0") == data(0))
            cache.flush()
            #expect(FileManager.default.fileExists(atPath: cache.filePath(for: "key-0")))
            #expect(!FileManager.default.fileExists(atPath: cache.filePath(for: "key-1")))
            #expect(FileManager.default.fileExists(atPath: cache.filePath(for: "key-2")))
        }
        cache.flush()
        let reopened = DiskCache(directory: folder.url)
        #expect(reopened.cachedData(for: "key-0") == data(0))
        #expect(reopened.cachedData(for: "key-1") == nil)
        #expect(reopened.cachedData(for: "key-2") == data(2))
        #expect(reopened.totalCount == 2)
    }

    /// A write the write queue leaves waiting is done by the drain on the cache's own queue, with no `flush()`.
    @Test func aWriteTheWriteQueueLeavesWaitingIsDoneByTheDrain() {
        let cache = DiskCache(directory: folder.url)
        cache.flush()
        cache.writes.setDelay(.milliseconds(0))
        let changing = DispatchSemaphore(value: 0)
        cache.setDuringChange { changing.signal() }
        cache.writes.holdingWriteQueue {
            cache.storeData(data(4), for: "key")
            // The write queue runs nothing and nobody flushes: only the drain can make this change. The timeout
            // only keeps a broken drain from hanging the run.
            #expect(changing.wait(timeout: .now() + 60) == .success)
        }
        cache.setDuringChange(nil)
        cache.flush()
        #expect(DiskCache(directory: folder.url).cachedData(for: "key") == data(4))
    }

    /// A cache whose writes only holds keep back: the drain that would write them anyway comes an hour later.
    private func cacheForHolds(quietTime: DispatchTimeInterval) -> DiskCache {
        let cache = DiskCache(directory: folder.url)
        cache.flush()
        cache.writes.setDelay(.seconds(3600))
        cache.writes.setIdleDelay(quietTime)
        return cache
    }

    /// While work holds the writes back (a pipeline's decodes), a store waits in memory, still served to reads;
    /// when the last hold ends, the write queue writes it.
    @Test func aStoreWaitsUntilTheLastHoldOnTheWritesEnds() {
        let cache = cacheForHolds(quietTime: .milliseconds(0))
        let path = cache.filePath(for: "key")
        cache.holdWrites()
        cache.holdWrites()
        cache.storeData(data(5), for: "key")
        cache.writes.waitForWriteQueue()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(cache.cachedData(for: "key") == data(5))
        cache.releaseWrites()
        cache.writes.waitForWriteQueue()
        #expect(!FileManager.default.fileExists(atPath: path))
        cache.releaseWrites()
        cache.writes.waitForWriteQueue()
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(DiskCache(directory: folder.url).cachedData(for: "key") == data(5))
    }

    /// A store made just after the last hold ended waits for the quiet time after it, so the writes do not take a
    /// core in a short gap between decodes; `flush()` still writes it at once.
    @Test func aStoreJustAfterTheLastHoldWaitsForTheQuietTime() {
        let cache = cacheForHolds(quietTime: .seconds(3600))
        cache.holdWrites()
        cache.releaseWrites()
        cache.storeData(data(7), for: "key")
        cache.writes.waitForWriteQueue()
        #expect(!FileManager.default.fileExists(atPath: cache.filePath(for: "key")))
        cache.flush()
        #expect(DiskCache(directory: folder.url).cachedData(for: "key") == data(7))
    }

    /// A hold does not keep `flush()` from writing what waits.
    @Test func flushWritesWhatAHoldKeepsBack() {
        let cache = DiskCache(directory: folder.url)
        cache.writes.setDelay(.seconds(3600))
        cache.holdWrites()
        cache.storeData(data(6), for: "key")
        cache.flush()
        #expect(FileManager.default.fileExists(atPath: cache.filePath(for: "key")))
        cache.releaseWrites()
        #expect(DiskCache(directory: folder.url).cachedData(for: "key") == data(6))
    }

    /// A miss while this cache's own write holds the folder sees the ledger's generation moved by that write, not
    /// by another cache: later misses still trust the index. Another cache's write is still noticed.
    @Test func aMissDuringItsOwnWriteKeepsTrustingTheIndex() {
        let cache = DiskCache(directory: folder.url)
        cache.flush()
        let reached = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        cache.setDuringChange {
            reached.signal()
            release.wait()
        }
        cache.storeData(data(1), for: "key-1")
        reached.wait()
        cache.setDuringChange(nil)
        #expect(cache.cachedData(for: "absent") == nil)
        #expect(!cache.othersMayHaveWritten)
        release.signal()
        cache.flush()
        #expect(!cache.othersMayHaveWritten)

        let other = DiskCache(directory: folder.url)
        other.storeData(data(2), for: "key-2")
        other.flush()
        #expect(cache.cachedData(for: "key-2") == data(2))
        #expect(cache.othersMayHaveWritten)
    }

    @Test func anEntryLargerThanThePendingWriteLimitIsStoredWhenNothingElseWaits() {
        let cache = DiskCache(directory: folder.url, pendingWriteLimit: 100)
        cache.writes.holdingQueues {
            cache.storeData(data(1), for: "big")
            #expect(cache.cachedData(for: "big") == data(1))
        }
        cache.flush()
        #expect(DiskCache(directory: folder.url).cachedData(for: "big") == data(1))
    }

    @Test func entriesLargerThanTheLimitAreNotStored() {
        let cache = DiskCache(directory: folder.url, sizeLimit: 1000)
        cache.storeData(data(1, count: 2000), for: "big")
        cache.flush()
        #expect(cache.totalCount == 0)
        #expect(cache.cachedData(for: "big") == nil)
    }
}
