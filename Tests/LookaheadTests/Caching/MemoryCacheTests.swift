// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — MemoryCache and its LRU storage.

import Testing

@testable import Lookahead

@Suite struct MemoryCacheTests {
    /// An image costing `width * 4` bytes (one row).
    private func image(width: Int) -> PlatformImage {
        Bitmap(width: width, height: 1, red: 1, green: 2, blue: 3).platformImage
    }
    private func key(_ name: String) -> ImageCacheKey { ImageCacheKey(imageID: "https://example.com/\(name)") }

    @Test func storesAndReturnsImages() {
        let cache = MemoryCache(costLimit: 1000)
        cache.store(image(width: 10), for: key("a"))
        #expect(cache[key("a")]?.makeBitmap() == image(width: 10).makeBitmap())
        #expect(cache[key("b")] == nil)
        #expect(cache.totalCount == 1)
        #expect(cache.totalCost == 40)
    }

    @Test func costLimitIsNeverExceededAndEvictsLeastRecentlyUsed() {
        let cache = MemoryCache(costLimit: 100, entryCostLimit: 100)
        cache.store(image(width: 10), for: key("a"))  // 40
        cache.store(image(width: 10), for: key("b"))  // 80
        _ = cache[key("a")]  // a is now the most recent
        cache.store(image(width: 5), for: key("c"))  // 100: exactly at the limit
        #expect(cache.totalCost == 100)
        #expect(cache.totalCount == 3)
        cache.store(image(width: 1), for: key("d"))  // 104 → evict b, the least recent
        #expect(cache[key("b")] == nil)
        #expect(cache[key("a")] != nil)
        #expect(cache.totalCost == 64)
        #expect(cache.totalCost <= cache.costLimit)
    }

    @Test func countLimitEvictsOldest() {
        let cache = MemoryCache(costLimit: 10_000, countLimit: 2)
        cache.store(image(width: 1), for: key("a"))
        cache.store(image(width: 1), for: key("b"))
        cache.store(image(width: 1), for: key("c"))
        #expect(cache.totalCount == 2)
        #expect(cache[key("a")] == nil)
        #expect(cache.keysByRecency == [key("c"), key("b")])
    }

    @Test func readsRefreshRecency() {
        let cache = MemoryCache(costLimit: 10_000)
        for name in ["a", "b", "c"] { cache.store(image(width: 1), for: key(name)) }
        _ = cache[key("a")]
        #expect(cache.keysByRecency == [key("a"), key("c"), key("b")])
    }

    @Test func entryCostCapRejectsHugeImages() {
        let cache = MemoryCache(costLimit: 1000, entryCostLimit: 100)
        #expect(cache.store(image(width: 26), for: key("big")) == false)  // 104 bytes
        #expect(cache.store(image(width: 25), for: key("ok")) == true)  // 100 bytes
        #expect(cache[key("big")] == nil)
        #expect(cache.totalCount == 1)
    }

    @Test func aRejectedReplacementRemovesTheStaleImage() {
        let cache = MemoryCache(costLimit: 1000, entryCostLimit: 100)
        cache.store(image(width: 10), for: key("a"))
        #expect(cache.store(image(width: 30), for: key("a")) == false)
        #expect(cache[key("a")] == nil)
        #expect(cache.totalCost == 0)
    }

    @Test func replacingAnEntryUpdatesTheCost() {
        let cache = MemoryCache(costLimit: 1000)
        cache.store(image(width: 10), for: key("a"))
        cache.store(image(width: 20), for: key("a"))
        #expect(cache.totalCount == 1)
        #expect(cache.totalCost == 80)
    }

    @Test func timeToLiveUsesTheInjectedClock() {
        let clock = ManualClock()
        let cache = MemoryCache(costLimit: 1000, timeToLive: .seconds(10), clock: clock)
        cache.store(image(width: 1), for: key("a"))
        clock.advance(by: .seconds(9))
        #expect(cache[key("a")] != nil)
        cache.store(image(width: 1), for: key("b"))
        clock.advance(by: .seconds(1))
        #expect(cache[key("a")] == nil)  // stored at 0, expired at 10
        #expect(cache[key("b")] != nil)  // stored at 9, expires at 19
        clock.advance(by: .seconds(9))
        cache.removeExpired()
        #expect(cache.totalCount == 0)
        #expect(cache.totalCost == 0)
    }

    @Test func removeAllAndTrim() {
        let cache = MemoryCache(costLimit: 1000)
        for name in ["a", "b", "c", "d"] { cache.store(image(width: 10), for: key(name)) }
        cache.trim(toCost: 80)
        #expect(cache.totalCost == 80)
        #expect(cache.keysByRecency == [key("d"), key("c")])
        cache.removeImage(for: key("d"))
        #expect(cache.keysByRecency == [key("c")])
        cache.removeAll()
        #expect(cache.totalCount == 0)
        #expect(cache.totalCost == 0)
        cache.store(image(width: 10), for: key("e"))
        #expect(cache.totalCount == 1)
    }

    @Test func loweringTheLimitTrimsAtOnce() {
        let cache = MemoryCache(costLimit: 1000, entryCostLimit: 1000)
        for name in ["a", "b", "c"] { cache.store(image(width: 10), for: key(name)) }
        cache.costLimit = 40
        #expect(cache.totalCost == 40)
        #expect(cache.keysByRecency == [key("c")])
    }

    @Test func storageStaysConsistentUnderRandomOperations() {
        var storage = LRUStorage<Int, Int>(costLimit: 50, countLimit: 8)
        var generator = SplitMix64(seed: 7)
        var model: [Int] = []  // keys, most recent first
        var costs: [Int: Int] = [:]
        for _ in 0..<5000 {
            let key = Int(generator.next() % 12)
            switch generator.next() % 3 {
            case 0:
                let cost = Int(generator.next() % 12)
                storage.setValue(key, forKey: key, cost: cost, expiresAt: nil)
                model.removeAll { $0 == key }
                model.insert(key, at: 0)
                costs[key] = cost
                while model.reduce(0, { $0 + costs[$1]! }) > 50 || model.count > 8 {
                    model.removeLast()
                }
            case 1:
                let value = storage.value(forKey: key, now: .zero)
                #expect(value == (model.contains(key) ? key : nil))
                if model.contains(key) {
                    model.removeAll { $0 == key }
                    model.insert(key, at: 0)
                }
            default:
                storage.removeValue(forKey: key)
                model.removeAll { $0 == key }
            }
            #expect(storage.keysByRecency == model)
            #expect(storage.totalCost == model.reduce(0) { $0 + costs[$1]! })
        }
    }

    // MARK: - Pins

    @Test func aPinnedImageIsEvictedOnlyAfterEveryOther() {
        let cache = MemoryCache(costLimit: 120, entryCostLimit: 120)
        cache.store(image(width: 10), for: key("shown"))  // 40
        cache.pin(key("shown"))
        cache.store(image(width: 10), for: key("a"))
        cache.store(image(width: 10), for: key("b"))
        // "shown" is the least recently used, yet pinned: the next store evicts "a" instead.
        cache.store(image(width: 10), for: key("c"))
        #expect(cache.keysByRecency == [key("c"), key("b"), key("shown")])
        #expect(cache.isPinned(key("shown")))
        // Unpinned, it is the least recently used again, and goes first.
        cache.unpin(key("shown"))
        cache.store(image(width: 10), for: key("d"))
        #expect(cache.keysByRecency == [key("d"), key("c"), key("b")])
        #expect(cache.totalCost <= cache.costLimit)
    }

    @Test func aPinMadeBeforeTheImageIsStoredHoldsOnceItIs() {
        let cache = MemoryCache(costLimit: 80, entryCostLimit: 80)
        cache.pin(key("shown"))
        cache.store(image(width: 10), for: key("shown"))
        cache.store(image(width: 10), for: key("a"))
        cache.store(image(width: 10), for: key("b"))
        #expect(cache.keysByRecency == [key("b"), key("shown")])
        // Two holders pin it; one letting go leaves it pinned.
        cache.pin(key("shown"))
        cache.unpin(key("shown"))
        #expect(cache.isPinned(key("shown")))
        cache.unpin(key("shown"))
        #expect(!cache.isPinned(key("shown")))
    }

    @Test func withEveryImagePinnedTheLimitStillHolds() {
        let cache = MemoryCache(costLimit: 80, entryCostLimit: 80)
        for name in ["a", "b"] {
            cache.store(image(width: 10), for: key(name))
            cache.pin(key(name))
        }
        // No room without a pinned image going: the new one, the only one not pinned, is what goes.
        #expect(!cache.store(image(width: 10), for: key("c")))
        #expect(cache.keysByRecency == [key("b"), key("a")])
        // A pinned image's own replacement goes in, and the oldest pinned one makes room for a bigger one.
        #expect(cache.store(image(width: 15), for: key("b")))
        #expect(cache.keysByRecency == [key("b")])
        #expect(cache.totalCost == 60)
    }

    @Test func pinsStayConsistentUnderRandomOperations() {
        var storage = LRUStorage<Int, Int>(costLimit: 50, countLimit: 8)
        var generator = SplitMix64(seed: 11)
        var model: [Int] = []  // keys, most recent first
        var costs: [Int: Int] = [:]
        var pins: [Int: Int] = [:]
        func overLimits() -> Bool { model.reduce(0) { $0 + costs[$1]! } > 50 || model.count > 8 }
        for _ in 0..<5000 {
            let key = Int(generator.next() % 12)
            switch generator.next() % 5 {
            case 0, 1:
                let cost = Int(generator.next() % 12)
                storage.setValue(key, forKey: key, cost: cost, expiresAt: nil)
                model.removeAll { $0 == key }
                model.insert(key, at: 0)
                costs[key] = cost
                while overLimits() {
                    let victim = model.lastIndex { pins[$0] == nil } ?? model.count - 1
                    model.remove(at: victim)
                }
            case 2:
                storage.pin(key)
                pins[key, default: 0] += 1
            case 3:
                storage.unpin(key)
                if let count = pins[key] { pins[key] = count > 1 ? count - 1 : nil }
            default:
                storage.removeValue(forKey: key)
                model.removeAll { $0 == key }
            }
            #expect(storage.keysByRecency == model)
            for stored in model { #expect(storage.isPinned(stored) == (pins[stored] != nil)) }
        }
    }
}
