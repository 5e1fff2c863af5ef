// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench disk-scale`: a disk cache of 100,000 entries: opening it, its index's memory,
// hits against a cache of 1,000, and how long a size sweep can hold a read up.

import ArgumentParser
import Foundation
@_spi(Benchmarks) import Lookahead
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

struct DiskScaleBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disk-scale",
        abstract: "A disk cache of --entries entries of --size bytes: open time, index bytes per entry, hit time "
            + "against a cache of 1,000, and the longest a read waits while a size sweep runs.",
        discussion: """
            Fills a folder through DiskCache.storeData (about --entries × --size bytes on disk; 100,000 × 30 KiB is \
            about 3 GB), then: opens it anew and times until the index is loaded (flush() returns), measuring the \
            memory the index takes (not file-backed, after malloc_trim); times random hits over all entries \
            against random hits in a cache of 1,000 entries, and later hits of 1,000 entries of each (verified \
            before, as a list's second look at its images is), each beside open + read + close of the same files; \
            then opens it with a size limit below what it holds, so opening sweeps, and measures the longest any \
            read on another thread waited meanwhile. The folder is removed at the end.
            """
    )

    @Option(help: "Entries in the large cache.")
    var entries = 100_000

    @Option(help: "Entry size in bytes.")
    var size = 30 * 1024

    @Option(help: "Folder to fill (removed at the end unless --keep); by default one in the temporary directory.")
    var folder: String?

    @Flag(help: "Keep the folder, and reuse a folder filled by an earlier run instead of filling it again.")
    var keep = false

    func run() throws {
        let root = URL(fileURLWithPath: folder ?? NSTemporaryDirectory() + "lookahead-disk-scale-\(getpid())")
        defer { if !keep { try? FileManager.default.removeItem(at: root) } }
        let large = root.appendingPathComponent("large")
        let small = root.appendingPathComponent("small")
        let payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let limit = Int(Double(entries * (size + 64)) * 1.25)
        print("lookahead-bench disk-scale — \(entries) entries of \(size / 1024) KiB, load \(loadAverage())")

        let clock = ContinuousClock()
        let filled = keep && FileManager.default.fileExists(atPath: root.appendingPathComponent("filled").path)
        let fillTime = clock.measure {
            guard !filled else { return }
            let cache = DiskCache(directory: large, sizeLimit: limit)
            for index in 0..<entries {
                cache.storeData(payload, for: Self.key(index))
                // Less than DiskCache.pendingWriteLimit waits at a time: past it, stores would be skipped.
                if index % 512 == 511 { cache.flush() }
            }
            cache.flush()
        }
        let smallCache = DiskCache(directory: small, sizeLimit: limit)
        for index in 0..<1000 { smallCache.storeData(payload, for: Self.key(index)) }
        smallCache.flush()
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent("filled").path, contents: nil)
        print(filled ? "reused the folder filled before" : String(format: "filled in %.1f s", fillTime.seconds))

        // Open by counting the folder (a first open, or one after a crash): its saved index removed. Its flush
        // saves the index again.
        unlink(large.path + "/.index")
        let countTime = clock.measure {
            let cache = DiskCache(directory: large, sizeLimit: limit)
            cache.flush()
        }
        // Open: until the index is loaded, from the index the last flush saved.
        let heapBefore = Self.heapInUse()
        var opened: DiskCache?
        let openTime = clock.measure {
            let cache = DiskCache(directory: large, sizeLimit: limit)
            cache.flush()
            opened = cache
        }
        let heapAfter = Self.heapInUse()
        guard let cache = opened else { return }
        let residentPerEntry = Double(heapAfter - heapBefore) / Double(entries)
        let bytesPerEntry = Double(cache.indexFootprint) / Double(entries)
        print(
            String(
                format: "open: %.0f ms to load the saved index of %d entries (%@); %.0f ms to count the folder "
                    + "instead, and save its index",
                openTime.seconds * 1000,
                entries,
                cache.indexWasLoadedFromSnapshot ? "loaded" : "NOT loaded: counted",
                countTime.seconds * 1000
            )
        )
        print(
            String(
                format: "index: %.0f bytes per entry in its table; the process grew %.0f bytes per entry (the "
                    + "allocator's share and the count's garbage included)",
                bytesPerEntry,
                residentPerEntry
            )
        )

        // Hits: random entries of the large cache against random entries of the small one.
        var random = SystemRandomNumberGenerator()
        let hits = 20_000
        let largeKeys = (0..<hits).map { _ in Self.key(Int.random(in: 0..<entries, using: &random)) }
        let smallKeys = (0..<hits).map { _ in Self.key(Int.random(in: 0..<1000, using: &random)) }
        // The kernel's caches warmed for every file both sides read, untimed, by plain reads: the cache's own
        // first read of an entry in the process (its checksum verified) stays in its figure, as a user pays it.
        let largePaths = largeKeys.map { cache.filePath(for: $0) }
        let smallPaths = smallKeys.map { smallCache.filePath(for: $0) }
        for path in largePaths + smallPaths { Self.readWhole(path) }
        // Each run times both on the same keys, in turn first: neither warms what the other reads next.
        var largeSamples: [Double] = []
        var smallSamples: [Double] = []
        var largeRaw: [Double] = []
        var smallRaw: [Double] = []
        for run in 0..<5 {
            let slice = (run * hits / 5)..<((run + 1) * hits / 5)
            /// Seconds per read of the slice.
            func perRead(_ body: () -> Void) -> Double { clock.measure(body).seconds / Double(slice.count) }
            func cacheHits() {
                smallSamples.append(
                    perRead { for key in smallKeys[slice] { precondition(smallCache.cachedData(for: key) != nil) } }
                )
                largeSamples.append(
                    perRead { for key in largeKeys[slice] { precondition(cache.cachedData(for: key) != nil) } }
                )
            }
            // The floor: open + read + close of the same files, into a fresh buffer each, as a hit returns fresh
            // bytes.
            func rawReads() {
                smallRaw.append(perRead { for path in smallPaths[slice] { Self.readWhole(path) } })
                largeRaw.append(perRead { for path in largePaths[slice] { Self.readWhole(path) } })
            }
            if run.isMultiple(of: 2) {
                cacheHits()
                rawReads()
            } else {
                rawReads()
                cacheHits()
            }
        }
        let largeHit = largeSamples.sorted()[2]
        let smallHit = smallSamples.sorted()[2]
        let largeFloor = largeRaw.sorted()[2]
        let smallFloor = smallRaw.sorted()[2]
        print(
            String(
                format: "hit: %.2f µs at %d entries, %.2f µs at 1,000: %.2f×; open + read + close of the same files: "
                    + "%.2f µs and %.2f µs: %.2f×",
                largeHit * 1e6,
                entries,
                smallHit * 1e6,
                largeHit / smallHit,
                largeFloor * 1e6,
                smallFloor * 1e6,
                largeFloor / smallFloor
            )
        )
        // Later hits: at 100,000 entries most of the hits above are an entry's first read in the process, which
        // verifies its checksum, and at 1,000 few are. The same 1,000 keys of each cache, all read once untimed
        // (verified and trusted since: fewer than the cache trusts at once), then timed again: what the index's
        // size alone costs a hit. A cache of its own on the large folder, its index loaded, so that every one of
        // them stays trusted. Read twice untimed: a read that sets an old entry's modification time (once a minute)
        // leaves it to be verified on the next.
        let laterLarge = Array(largeKeys.suffix(1000))
        let laterSmall = (0..<1000).map { Self.key($0) }
        let trusting = DiskCache(directory: large, sizeLimit: limit)
        trusting.flush()
        for _ in 0..<2 {
            for key in laterLarge { precondition(trusting.cachedData(for: key) != nil) }
            for key in laterSmall { precondition(smallCache.cachedData(for: key) != nil) }
        }
        let laterLargePaths = laterLarge.map { trusting.filePath(for: $0) }
        let laterSmallPaths = laterSmall.map { smallCache.filePath(for: $0) }
        // Hits and raw reads of the same files, each run in a different order.
        let timings: [() -> Void] = [
            { for key in laterLarge { precondition(trusting.cachedData(for: key) != nil) } },
            { for key in laterSmall { precondition(smallCache.cachedData(for: key) != nil) } },
            { for path in laterLargePaths { Self.readWhole(path) } },
            { for path in laterSmallPaths { Self.readWhole(path) } },
        ]
        var later: [[Double]] = Array(repeating: [], count: timings.count)
        for run in 0..<6 {
            for index in timings.indices {
                let which = (index + run) % timings.count
                later[which].append(clock.measure(timings[which]).seconds / 1000)
            }
        }
        let laterMedians = later.map { samples in
            let sorted = samples.sorted()
            return (sorted[2] + sorted[3]) / 2
        }
        let laterLargeHit = laterMedians[0]
        let laterSmallHit = laterMedians[1]
        print(
            String(
                format: "later hit (each entry verified before): %.2f µs at %d entries, %.2f µs at 1,000: %.2f×; "
                    + "open + read + close of the same files: %.2f µs and %.2f µs: %.2f×",
                laterLargeHit * 1e6,
                entries,
                laterSmallHit * 1e6,
                laterLargeHit / laterSmallHit,
                laterMedians[2] * 1e6,
                laterMedians[3] * 1e6,
                laterMedians[2] / laterMedians[3]
            )
        )
        opened = nil

        // A sweep: open with a limit below the total, and read on another thread while it runs.
        let longest = Atomic<Int>(0)
        let longestElsewhere = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let sweepLimit = entries * (size + 64) * 9 / 10
        let reader = Thread {
            var generator = SystemRandomNumberGenerator()
            while !stop.load(ordering: .relaxed) {
                let key = Self.key(Int.random(in: 0..<1000, using: &generator))
                // The same read from a cache the sweep does not touch: what the scheduler and the disk alone
                // make a read wait on this machine.
                let start = clock.now
                blackHole(smallCache.cachedData(for: key)?.count ?? 0)
                let middle = clock.now
                blackHole(sweepingCache.withLock { $0 }?.cachedData(for: key)?.count ?? 0)
                let waited = Int((clock.now - middle).seconds * 1e6)
                let baseline = Int((middle - start).seconds * 1e6)
                if waited > longest.load(ordering: .relaxed) { longest.store(waited, ordering: .relaxed) }
                if baseline > longestElsewhere.load(ordering: .relaxed) {
                    longestElsewhere.store(baseline, ordering: .relaxed)
                }
                reads.add(1, ordering: .relaxed)
            }
        }
        reader.start()
        let sweepTime = clock.measure {
            let sweeping = DiskCache(directory: large, sizeLimit: sweepLimit)
            sweepingCache.withLock { $0 = sweeping }
            sweeping.flush()
        }
        stop.store(true, ordering: .relaxed)
        while !reader.isFinished { usleep(1000) }
        sweepingCache.withLock { $0 = nil }
        print(
            String(
                format:
                    "sweep: opening over the limit (%d%% of the entries kept) took %.0f ms; the longest of %d reads "
                    + "meanwhile took %.1f ms (%.1f ms from a cache the sweep does not touch)",
                80 * 9 / 10,
                sweepTime.seconds * 1000,
                reads.load(ordering: .relaxed),
                Double(longest.load(ordering: .relaxed)) / 1000,
                Double(longestElsewhere.load(ordering: .relaxed)) / 1000
            )
        )
        print("load after: \(loadAverage())")
        BenchFigure(
            id: "disk-scale",
            title: "Disk cache of \(entries) entries: opening it",
            unit: "ms",
            lookahead: openTime.seconds * 1000,
            peers: [.init(name: "goal", value: 300)],
            goal: "open ≤ 300 ms, ≤ 100 B of index per entry, hit ≤ 1.2× at 1,000, no read held > 10 ms by a sweep",
            goalMet: openTime.seconds <= 0.3 && bytesPerEntry <= 100 && largeHit <= 1.2 * smallHit
                && longest.load(ordering: .relaxed) <= 10_000,
            note: String(
                format: "counting the folder instead %.0f ms; index %.0f B/entry; hit %.2f× the 1,000-entry cache's "
                    + "(open + read + close %.2f×; a later hit of an entry verified before %.2f×); longest read "
                    + "during a sweep %.1f ms (%.1f ms from an untouched cache); ",
                countTime.seconds * 1000,
                bytesPerEntry,
                largeHit / smallHit,
                largeFloor / smallFloor,
                laterLargeHit / laterSmallHit,
                Double(longest.load(ordering: .relaxed)) / 1000,
                Double(longestElsewhere.load(ordering: .relaxed)) / 1000
            ) + loadNote()
        ).print()
    }

    /// Reads a whole file into new memory, as a hit does.
    private static func readWhole(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        precondition(descriptor >= 0)
        defer { close(descriptor) }
        var info = stat()
        fstat(descriptor, &info)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(info.st_size), alignment: 16)
        defer { buffer.deallocate() }
        blackHole(read(descriptor, buffer.baseAddress, buffer.count))
    }

    private static func key(_ index: Int) -> String { "https://example.com/scale/\(index).jpg?w=200&h=200" }

    /// Anonymous resident bytes (the heap, mostly) once the allocator has given back what it can.
    private static func heapInUse() -> Int {
        ResidentMemory.trim()
        return ResidentMemory.anonymousBytes() ?? 0
    }
}

/// The cache the sweep runs in, for the reader thread.
private let sweepingCache = Mutex<DiskCache?>(nil)
