// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — memory pressure: what the cache gives back, and the cgroup v2 counters that signal it.

import Foundation
import Testing

@testable import Lookahead

@Suite struct MemoryPressureTests {
    private func filledCache() -> MemoryCache {
        let cache = MemoryCache(costLimit: 1 << 20, entryCostLimit: 1 << 20)
        for n in 0..<10 {
            let image = Bitmap(width: 100, height: 1, red: 1, green: 2, blue: 3).platformImage
            cache.store(image, for: ImageCacheKey(imageID: "https://example.com/\(n)"))
        }
        return cache
    }

    @Test func aWarningKeepsHalfTheBackgroundATenthAndCriticalNothing() {
        let warned = filledCache()
        let cost = warned.totalCost
        warned.relieve(.warning)
        #expect(warned.totalCost <= cost / 2 && warned.totalCost > 0)
        #expect(warned.keysByRecency.first == ImageCacheKey(imageID: "https://example.com/9"), "the recent stay")
        let background = filledCache()
        background.relieve(.background)
        #expect(background.totalCost <= cost / 10)
        let critical = filledCache()
        critical.relieve(.critical)
        #expect(critical.totalCount == 0)
    }

    @Test func risingCgroupCountersAreThePressure() {
        var monitor = CgroupMemoryPressure()
        let quiet = "low 0\nhigh 3\nmax 0\noom 0\noom_kill 0\n"
        #expect(monitor.observe(quiet) == nil, "the first reading is the baseline")
        #expect(monitor.observe(quiet) == nil, "nothing rose")
        #expect(monitor.observe("low 0\nhigh 4\nmax 0\noom 0\noom_kill 0\n") == .warning)
        #expect(monitor.observe("low 0\nhigh 4\nmax 1\noom 0\noom_kill 0\n") == .critical)
        #expect(monitor.observe("low 0\nhigh 5\nmax 1\noom 0\noom_kill 1\n") == .critical, "an OOM kill outranks high")
        #expect(monitor.observe("garbage") == nil, "unreadable text is no pressure")
    }

    @Test func pollingAFileThatIsNotThereIsNil() {
        #expect(CgroupMemoryPressure.poll(path: "/nonexistent/memory.events") { _ in } == nil)
    }
}
