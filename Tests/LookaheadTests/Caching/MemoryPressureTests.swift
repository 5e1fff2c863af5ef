// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — memory pressure: what the cache gives back, the readings that signal it on Linux, and the one
// source per process that every cache follows by default.

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

    @Test func stallInformationIsPressureOnceWhenALevelIsReached() {
        func psi(some: Double, full: Double) -> String {
            """
            some avg10=\(some) avg60=1.00 avg300=0.50 total=123456
            full avg10=\(full) avg60=0.00 avg300=0.00 total=6543
            """
        }
        var monitor = PressureStallMemory()
        #expect(monitor.observe(psi(some: 9.99, full: 0)) == nil, "below a tenth of the time")
        #expect(monitor.observe(psi(some: 12.5, full: 2)) == .warning, "some task waited a tenth of the time")
        #expect(monitor.observe(psi(some: 30, full: 5)) == nil, "the same level is reported once")
        #expect(monitor.observe(psi(some: 60, full: 10)) == .critical, "every task waited a tenth of the time")
        #expect(monitor.observe(psi(some: 60, full: 40)) == nil)
        #expect(monitor.observe(psi(some: 1, full: 0)) == nil, "the pressure eased")
        #expect(monitor.observe(psi(some: 11, full: 0)) == .warning, "and is reported again when it returns")
        #expect(monitor.observe("some avg10=abc\nfull") == nil, "unreadable text is no pressure")
    }

    @Test func theFilesAreTheProcessCgroupsElseTheSystemsStallInformation() {
        let cgroup = "/sys/fs/cgroup/user.slice/app.scope/"
        let everything = LinuxMemoryPressure.files(procSelfCgroup: "0::/user.slice/app.scope\n") { _ in true }
        #expect(everything == .init(events: cgroup + "memory.events", stall: cgroup + "memory.pressure"))
        let hybrid = "4:memory:/app\n1:cpu:/\n0::/\n"
        let systemOnly = LinuxMemoryPressure.files(procSelfCgroup: hybrid) { $0 == "/proc/pressure/memory" }
        #expect(systemOnly == .init(events: nil, stall: "/proc/pressure/memory"), "a cgroup v1 machine: PSI only")
        let none = LinuxMemoryPressure.files(procSelfCgroup: nil) { _ in false }
        #expect(none == .init(events: nil, stall: nil))
        #expect(LinuxMemoryPressure(files: none).poll(every: .seconds(2)) { _ in } == nil, "nothing to read")
    }

    @Test func aReadingOfRealFilesTakesTheMoreSeverePressure() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pressure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = folder.appendingPathComponent("memory.events")
        let stall = folder.appendingPathComponent("memory.pressure")
        func write(high: Int, max: Int, some: Double) throws {
            let counters = "low 0\nhigh \(high)\nmax \(max)\noom 0\noom_kill 0\n"
            try counters.write(to: events, atomically: true, encoding: .utf8)
            let psi = "some avg10=\(some) avg60=0 avg300=0 total=1\nfull avg10=0.00 avg60=0 avg300=0 total=0\n"
            try psi.write(to: stall, atomically: true, encoding: .utf8)
        }
        var monitor = LinuxMemoryPressure(files: .init(events: events.path, stall: stall.path))
        try write(high: 0, max: 0, some: 0)
        #expect(monitor.read() == nil, "the baseline")
        try write(high: 0, max: 0, some: 15)
        #expect(monitor.read() == .warning, "from the stall information")
        try write(high: 1, max: 1, some: 15)
        #expect(monitor.read() == .critical, "the counters outrank it")
        try FileManager.default.removeItem(at: folder)
        #expect(monitor.read() == nil, "files gone: no pressure, no crash")
    }

    @Test func everyFollowingCacheIsRelievedAndTheSourceStartsOnce() {
        let starts = Locked(0)
        let source = Locked<(@Sendable (MemoryPressure) -> Void)?>(nil)
        let hub = SystemMemoryPressure { handler in
            starts.withLock { $0 += 1 }
            source.withLock { $0 = handler }
            return nil
        }
        func cache(_ hub: SystemMemoryPressure?) -> MemoryCache {
            let cache = MemoryCache(costLimit: 1 << 20, followsSystemMemoryPressure: false)
            hub?.follow(cache)
            let image = Bitmap(width: 8, height: 8, red: 1, green: 2, blue: 3).platformImage
            cache.store(image, for: ImageCacheKey(imageID: "a"))
            return cache
        }
        let first = cache(hub)
        let second = cache(hub)
        let alone = cache(nil)
        do { _ = cache(hub) }  // a follower that is gone before the pressure
        #expect(starts.withLock { $0 } == 1, "one source for every follower")
        #expect(hub.isFollowed(first) && hub.isFollowed(second) && !hub.isFollowed(alone))
        source.withLock { $0 }?(.critical)
        #expect(first.totalCount == 0 && second.totalCount == 0, "the followers emptied")
        #expect(alone.totalCount == 1, "a cache that does not follow keeps its images")
    }

    @Test func aCacheFollowsTheSystemByDefault() {
        let cache = MemoryCache()
        let byHand = MemoryCache(followsSystemMemoryPressure: false)
        #expect(SystemMemoryPressure.shared.isFollowed(cache))
        #expect(!SystemMemoryPressure.shared.isFollowed(byHand))
    }

    @Test func eachPlatformSignalHasOnePressure() {
        #expect(SystemMemoryPressure.pressure(for: .applicationMemoryWarning) == .critical, "UIKit's warning empties")
        #expect(SystemMemoryPressure.pressure(for: .applicationEnteredBackground) == .background)
        #expect(SystemMemoryPressure.pressure(for: .kernelWarning) == .warning)
        #expect(SystemMemoryPressure.pressure(for: .kernelCritical) == .critical)
    }
}
