// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — DiskCache.maximumAge: entries unused for too long are removed, at open, on a hit and by a sweep.

import Foundation
import Testing

@_spi(Benchmarks) @testable import Lookahead

@Suite struct DiskCacheExpiryTests {
    let folder = TemporaryDirectory("lookahead-expiry")
    private let day: Double = 86_400

    /// A clock the test moves (seconds since 1970).
    private final class Clock: Sendable {
        private let seconds = Locked(Date().timeIntervalSince1970)
        var now: Double { seconds.withLock { $0 } }
        func advance(by interval: Double) { seconds.withLock { $0 += interval } }
    }

    private func data(_ seed: Int) -> Data { Data(repeating: UInt8(seed), count: 500) }

    private func cache(_ clock: Clock, maximumAge: Duration? = .seconds(7 * 86_400)) -> DiskCache {
        let cache = DiskCache(
            directory: folder.url,
            maximumAge: maximumAge,
            now: { Date(timeIntervalSince1970: clock.now) }
        )
        cache.flush()  // the index is loaded
        return cache
    }

    private func fileExists(_ key: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.path + "/" + DiskCacheFile.name(for: key))
    }

    @Test func anEntryUnusedForLongerThanTheMaximumAgeIsAMissAndIsRemoved() {
        let clock = Clock()
        let cache = cache(clock)
        cache.storeData(data(1), for: "old")
        cache.storeData(data(2), for: "used")
        cache.flush()
        clock.advance(by: 4 * day)
        #expect(cache.cachedData(for: "used") == data(2))  // a use restarts its age
        clock.advance(by: 4 * day)
        #expect(cache.cachedData(for: "old") == nil, "8 days unused")
        cache.flush()
        #expect(!fileExists("old"))
        #expect(cache.cachedData(for: "used") == data(2), "used 4 days ago")
        #expect(cache.totalCount == 1)
    }

    @Test func expiredEntriesAreRemovedWhenTheCacheOpens() throws {
        let clock = Clock()
        do {
            let writer = cache(clock)
            writer.storeData(data(1), for: "old")
            writer.storeData(data(2), for: "recent")
            writer.flush()
        }
        // Without a saved index, the file times are what a later launch knows of the entries' last use.
        DiskCacheIndexSnapshot.remove(directory: folder.path)
        let old = folder.path + "/" + DiskCacheFile.name(for: "old")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -10 * day)],
            ofItemAtPath: old
        )
        let reopened = cache(clock)
        #expect(!fileExists("old"))
        #expect(reopened.totalCount == 1)
        #expect(reopened.cachedData(for: "recent") == data(2))
    }

    @Test func entriesExpiredSinceTheIndexWasSavedAreRemovedWhenTheCacheOpens() throws {
        let clock = Clock()
        do {
            let writer = cache(clock)
            writer.storeData(data(1), for: "old")
            clock.advance(by: 5 * day)
            writer.storeData(data(2), for: "recent")
            writer.flush()
        }
        clock.advance(by: 4 * day)  // "old" unused for 9 days, "recent" for 4
        let reopened = cache(clock)
        #expect(reopened.indexWasLoadedFromSnapshot)
        #expect(!fileExists("old"))
        #expect(reopened.totalCount == 1)
        #expect(reopened.cachedData(for: "recent") == data(2))
    }

    @Test func aStoreSweepsExpiredEntriesAtMostOnceAnHour() {
        let clock = Clock()
        let cache = cache(clock)
        cache.storeData(data(1), for: "a")
        cache.storeData(data(2), for: "b")
        cache.flush()
        clock.advance(by: 8 * day)
        // The first store after the opening sweep's hour removes both expired entries without a read.
        cache.storeData(data(3), for: "c")
        cache.flush()
        #expect(!fileExists("a") && !fileExists("b") && fileExists("c"))
        #expect(cache.totalCount == 1)
        // A sweep runs at most once an hour: "x" expires ten minutes after one, and stays until the next.
        cache.storeData(data(6), for: "x")
        clock.advance(by: 7 * day - 1_800)
        cache.storeData(data(7), for: "y")  // a sweep (the last was 7 days ago); "x" is not expired yet
        clock.advance(by: 2_400)
        cache.storeData(data(8), for: "z")  // 40 minutes after the last sweep: none
        cache.flush()
        #expect(fileExists("x"))
        clock.advance(by: 1_800)
        cache.storeData(data(9), for: "w")  // 70 minutes after: a sweep
        cache.flush()
        #expect(!fileExists("x") && fileExists("y") && fileExists("z") && fileExists("w"))
    }

    @Test func withoutAMaximumAgeNothingExpires() {
        let clock = Clock()
        let cache = cache(clock, maximumAge: nil)
        cache.storeData(data(1), for: "kept")
        cache.flush()
        clock.advance(by: 400 * day)
        cache.storeData(data(2), for: "other")
        #expect(cache.cachedData(for: "kept") == data(1))
        #expect(DiskCache(directory: folder.url).maximumAge == nil)
    }
}
