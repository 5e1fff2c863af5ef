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
        let setup = Setup(
            root: root,
            large: root.appendingPathComponent("large"),
            small: root.appendingPathComponent("small"),
            payload: Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
            limit: Int(Double(entries * (size + 64)) * 1.25)
        )
        print("lookahead-bench disk-scale — \(entries) entries of \(size / 1024) KiB, load \(loadAverage())")
        let smallCache = fill(setup)
        let loaded = measureLoaded(setup, smallCache: smallCache)
        let sweep = sweepPass(setup, smallCache: smallCache)
        print("load after: \(loadAverage())")
        report(open: loaded.open, hits: loaded.hits, later: loaded.later, sweep: sweep)
    }

    /// Where the caches live and what they hold.
    private struct Setup {
        var root: URL
        /// The folder of the large cache (`--entries` entries) and of the small one (1,000).
        var large: URL
        var small: URL
        /// Every entry's bytes.
        var payload: Data
        /// The size limit of both caches: room for every entry.
        var limit: Int
    }

    /// Opening the large cache: by counting its folder, and from its saved index.
    private struct OpenFigures {
        var countTime: Duration
        var openTime: Duration
        var bytesPerEntry: Double
    }

    /// Seconds per hit at `--entries` entries and at 1,000, and per open + read + close of the same files.
    private struct HitFigures {
        var large: Double
        var small: Double
        var largeFloor: Double
        var smallFloor: Double
    }

    /// The longest read while a sweep ran, in microseconds, beside the same reads from an untouched cache.
    private struct SweepFigures {
        var time: Duration
        var reads: Int
        var longest: Int
        var longestElsewhere: Int
    }

    /// Fills the large cache (unless `--keep` found it filled) and the small one; returns the small one.
    private func fill(_ setup: Setup) -> DiskCache {
        let clock = ContinuousClock()
        let marker = setup.root.appendingPathComponent("filled").path
        let filled = keep && FileManager.default.fileExists(atPath: marker)
        let fillTime = clock.measure {
            guard !filled else { return }
            let cache = DiskCache(directory: setup.large, sizeLimit: setup.limit)
            for index in 0..<entries {
                cache.storeData(setup.payload, for: Self.key(index))
                // Less than DiskCache.pendingWriteLimit waits at a time: past it, stores would be skipped.
                if index % 512 == 511 { cache.flush() }
            }
            cache.flush()
        }
        let smallCache = DiskCache(directory: setup.small, sizeLimit: setup.limit)
        for index in 0..<1000 { smallCache.storeData(setup.payload, for: Self.key(index)) }
        smallCache.flush()
        _ = FileManager.default.createFile(atPath: marker, contents: nil)
        print(filled ? "reused the folder filled before" : String(format: "filled in %.1f s", fillTime.seconds))
        return smallCache
    }

    /// Opens the large cache and times its hits. The cache is let go on return, before the sweep opens the folder.
    private func measureLoaded(_ setup: Setup, smallCache: DiskCache) -> (
        open: OpenFigures, hits: HitFigures, later: HitFigures
    ) {
        let (cache, open) = openPass(setup)
        let (hits, largeKeys) = hitPass(large: cache, small: smallCache)
        let later = laterHitPass(setup, largeKeys: largeKeys, smallCache: smallCache)
        return (open, hits, later)
    }

    /// Opens the large cache by counting its folder, then from the index that saved; prints both and the index's
    /// memory. Returns the cache opened from the index.
    private func openPass(_ setup: Setup) -> (DiskCache, OpenFigures) {
        let clock = ContinuousClock()
        // Open by counting the folder (a first open, or one after a crash): its saved index removed. Its flush
        // saves the index again.
        unlink(setup.large.path + "/.index")
        let countTime = clock.measure {
            let cache = DiskCache(directory: setup.large, sizeLimit: setup.limit)
            cache.flush()
        }
        // Open: until the index is loaded, from the index the last flush saved.
        let heapBefore = Self.heapInUse()
        let start = clock.now
        let cache = DiskCache(directory: setup.large, sizeLimit: setup.limit)
        cache.flush()
        let openTime = clock.now - start
        let heapAfter = Self.heapInUse()
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
        return (cache, OpenFigures(countTime: countTime, openTime: openTime, bytesPerEntry: bytesPerEntry))
    }

    /// Hits: random entries of the large cache against random entries of the small one, each beside open + read +
    /// close of the same files. Returns the figures and the large cache's keys.
    private func hitPass(large cache: DiskCache, small smallCache: DiskCache) -> (HitFigures, [String]) {
        let clock = ContinuousClock()
        var random = SystemRandomNumberGenerator()
        let hits = 20_000
        let largeKeys = (0..<hits).map { _ in Self.key(Int.random(in: 0..<entries, using: &random)) }
        let smallKeys = (0..<hits).map { _ in Self.key(Int.random(in: 0..<1000, using: &random)) }
        // The kernel's caches warmed for every file both sides read, untimed, by plain reads: the cache's own
        // first read of an entry in the process (its checksum verified) stays in its figure, as a user pays it.
        let largePaths = largeKeys.map { cache.filePath(for: $0) }
        let smallPaths = smallKeys.map { smallCache.filePath(for: $0) }
        for path in largePaths + smallPaths { Self.readWhole(path) }
        // Each run times both on the same keys, in turn first: neither warms what the other reads next. In order:
        // small hits, large hits, small raw reads, large raw reads.
        var samples: [[Double]] = Array(repeating: [], count: 4)
        for run in 0..<5 {
            let slice = (run * hits / 5)..<((run + 1) * hits / 5)
            /// Seconds per read of the slice.
            func perRead(_ body: () -> Void) -> Double { clock.measure(body).seconds / Double(slice.count) }
            func cacheHits() {
                samples[0].append(
                    perRead { for key in smallKeys[slice] { precondition(smallCache.cachedData(for: key) != nil) } }
                )
                samples[1].append(
                    perRead { for key in largeKeys[slice] { precondition(cache.cachedData(for: key) != nil) } }
                )
            }
            // The floor: open + read + close of the same files, into a fresh buffer each, as a hit returns fresh
            // bytes.
            func rawReads() {
                samples[2].append(perRead { for path in smallPaths[slice] { Self.readWhole(path) } })
                samples[3].append(perRead { for path in largePaths[slice] { Self.readWhole(path) } })
            }
            if run.isMultiple(of: 2) {
                cacheHits()
                rawReads()
            } else {
                rawReads()
                cacheHits()
            }
        }
        let medians = samples.map { $0.sorted()[2] }
        let figures = HitFigures(large: medians[1], small: medians[0], largeFloor: medians[3], smallFloor: medians[2])
        printHits("hit", figures)
        return (figures, largeKeys)
    }

    /// Later hits: at 100,000 entries most of the hits above are an entry's first read in the process, which
    /// verifies its checksum, and at 1,000 few are. The same 1,000 keys of each cache, all read once untimed
    /// (verified and trusted since: fewer than the cache trusts at once), then timed again: what the index's
    /// size alone costs a hit. A cache of its own on the large folder, its index loaded, so that every one of
    /// them stays trusted. Read twice untimed: a read that sets an old entry's modification time (once a minute)
    /// leaves it to be verified on the next.
    private func laterHitPass(_ setup: Setup, largeKeys: [String], smallCache: DiskCache) -> HitFigures {
        let clock = ContinuousClock()
        let laterLarge = Array(largeKeys.suffix(1000))
        let laterSmall = (0..<1000).map { Self.key($0) }
        let trusting = DiskCache(directory: setup.large, sizeLimit: setup.limit)
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
        let medians = later.map { samples in
            let sorted = samples.sorted()
            return (sorted[2] + sorted[3]) / 2
        }
        let figures = HitFigures(large: medians[0], small: medians[1], largeFloor: medians[2], smallFloor: medians[3])
        printHits("later hit (each entry verified before)", figures)
        return figures
    }

    /// The line of a hit pass: `label: … µs at N entries, … µs at 1,000: …×; open + read + close …`.
    private func printHits(_ label: String, _ figures: HitFigures) {
        print(
            String(
                format: "%@: %.2f µs at %d entries, %.2f µs at 1,000: %.2f×; open + read + close of the same files: "
                    + "%.2f µs and %.2f µs: %.2f×",
                label,
                figures.large * 1e6,
                entries,
                figures.small * 1e6,
                figures.large / figures.small,
                figures.largeFloor * 1e6,
                figures.smallFloor * 1e6,
                figures.largeFloor / figures.smallFloor
            )
        )
    }

    /// A sweep: open with a limit below the total, and read on another thread while it runs.
    private func sweepPass(_ setup: Setup, smallCache: DiskCache) -> SweepFigures {
        let clock = ContinuousClock()
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
            let sweeping = DiskCache(directory: setup.large, sizeLimit: sweepLimit)
            sweepingCache.withLock { $0 = sweeping }
            sweeping.flush()
        }
        stop.store(true, ordering: .relaxed)
        while !reader.isFinished { usleep(1000) }
        sweepingCache.withLock { $0 = nil }
        let figures = SweepFigures(
            time: sweepTime,
            reads: reads.load(ordering: .relaxed),
            longest: longest.load(ordering: .relaxed),
            longestElsewhere: longestElsewhere.load(ordering: .relaxed)
        )
        print(
            String(
                format:
                    "sweep: opening over the limit (%d%% of the entries kept) took %.0f ms; the longest of %d reads "
                    + "meanwhile took %.1f ms (%.1f ms from a cache the sweep does not touch)",
                80 * 9 / 10,
                figures.time.seconds * 1000,
                figures.reads,
                Double(figures.longest) / 1000,
                Double(figures.longestElsewhere) / 1000
            )
        )
        return figures
    }

    /// The figure line.
    private func report(open: OpenFigures, hits: HitFigures, later: HitFigures, sweep: SweepFigures) {
        BenchFigure(
            id: "disk-scale",
            title: "Disk cache of \(entries) entries: opening it",
            unit: "ms",
            lookahead: open.openTime.seconds * 1000,
            peers: [.init(name: "goal", value: 300)],
            goal: "open ≤ 300 ms, ≤ 100 B of index per entry, hit ≤ 1.2× at 1,000, no read held > 10 ms by a sweep",
            goalMet: open.openTime.seconds <= 0.3 && open.bytesPerEntry <= 100 && hits.large <= 1.2 * hits.small
                && sweep.longest <= 10_000,
            note: String(
                format: "counting the folder instead %.0f ms; index %.0f B/entry; hit %.2f× the 1,000-entry cache's "
                    + "(open + read + close %.2f×; a later hit of an entry verified before %.2f×); longest read "
                    + "during a sweep %.1f ms (%.1f ms from an untouched cache); ",
                open.countTime.seconds * 1000,
                open.bytesPerEntry,
                hits.large / hits.small,
                hits.largeFloor / hits.smallFloor,
                later.large / later.small,
                Double(sweep.longest) / 1000,
                Double(sweep.longestElsewhere) / 1000
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
