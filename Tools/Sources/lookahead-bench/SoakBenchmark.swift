// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench soak`: the headless gallery flung over 10,000 rows, resident memory against
// the memory cache's limit.

import ArgumentParser
import Foundation
@_spi(Benchmarks) @_spi(Simulation) import Lookahead
import LookaheadFixtures
@_spi(Simulation) import LookaheadGallery

struct SoakBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract:
            "The headless gallery flung over 10,000 rows at several image sizes: max RSS against the memory "
            + "cache's limit; fails if the cache's cost ever exceeds its limit.",
        discussion: """
            For each size, a fresh process (this one, re-run with that size alone) scrolls the headless gallery \
            — the real ListImageSlots, ImageSlots and pipeline, a memory cache limited to --cache-mb — over \
            --rows rows of /images/{n}.jpg at size × size pixels, with seeded flings all over the list, each \
            followed by pauses and a slow drag. The fixture server runs in a child process (--in-process-server \
            keeps it in this one, its encoded-image cache and buffers then count too). RSS (/proc/self/statm) \
            and the cache's total cost are sampled every --sample-ms. Per size: max RSS, the limit, max RSS − \
            limit, the max cost, RSS by quarter of the run, and RSS after the pipeline is released and \
            malloc_trim(0) runs; memory that is not file-backed by kind (glibc's heaps, thread stacks, other \
            mappings, from /proc/self/smaps) before the pipeline, at the end and after. The goal is max RSS ≤ limit + 48 MB. Exit status 1 if the cost ever exceeded \
            the limit. Try MALLOC_ARENA_MAX=2 in the environment, or --trim-ms, to see the allocator's share.
            """
    )

    @Option(help: "Image sizes in pixels (square), comma-separated.")
    var sizes = "200,480,1024"

    @Option(help: "Rows in the list.")
    var rows = 10_000

    @Option(help: "Flings in the script.")
    var flings = 30

    @Option(help: "Frames of each pause after a fling and after a drag.")
    var holdFrames = 40

    @Option(help: "Milliseconds per frame.")
    var frameMs = 4

    @Option(help: "The memory cache's cost limit in MiB.")
    var cacheMb = 64

    @Option(help: "Sampling interval in milliseconds.")
    var sampleMs = 100

    @Option(help: "Call malloc_trim(0) this often, in milliseconds (an experiment); 0 never.")
    var trimMs = 0

    @Option(help: "The share of the memory cache the visible and prefetched rows may take; 0 turns the bound off.")
    var memoryBudgetFraction: Double = 0.75

    @Option(help: "Latency before each image at the fixture server, in milliseconds.")
    var latencyMs = 0

    @Option(
        help:
            "Run the task churn instead: this many image tasks with random cancels, priority changes, reloads and duplicates, over an in-process fixture server."
    )
    var tasks = 0

    @Flag(help: "Run the fixture server in this process instead of a child.")
    var inProcessServer = false

    @Flag(help: "Run every size in this process, one after the other, instead of one process per size.")
    var singleProcess = false

    func validate() throws {
        guard !parsedSizes.isEmpty, rows > 8, cacheMb > 0, sampleMs > 0, frameMs > 0 else {
            throw ValidationError("--sizes must list sizes; --rows > 8; --cache-mb, --sample-ms, --frame-ms > 0")
        }
        guard (0...1).contains(memoryBudgetFraction) else {
            throw ValidationError("--memory-budget-fraction must be from 0 (off) to 1")
        }
    }

    private var parsedSizes: [Int] {
        sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 > 0 }
    }

    func run() async throws {
        if tasks > 0 { return try await TaskChurnBenchmark.run(tasks: tasks, cacheMb: cacheMb) }
        let sizes = parsedSizes
        if sizes.count > 1, !singleProcess {
            try runChildren(sizes)
            return
        }
        let budget = memoryBudgetFraction > 0 ? "\(memoryBudgetFraction) of the cache" : "off"
        print(
            "lookahead-bench soak — \(rows) rows, \(flings) flings, \(frameMs) ms frames, cache limit \(cacheMb) MiB, "
                + "server \(inProcessServer ? "in process" : "in a child process"), MALLOC_ARENA_MAX="
                + "\(ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] ?? "unset"), "
                + "malloc_trim \(trimMs > 0 ? "every \(trimMs) ms" : "off"), prefetch window memory budget \(budget), "
                + "load \(loadAverage())"
        )
        var failed = false
        for size in sizes {
            failed = try await soak(size: size) || failed
        }
        if failed { throw ExitCode(1) }
    }

    /// Runs this program once per size, so each size starts from a fresh heap.
    private func runChildren(_ sizes: [Int]) throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if let index = arguments.firstIndex(of: "--sizes"), index + 1 < arguments.count {
            arguments.removeSubrange(index...(index + 1))
        }
        arguments.removeAll { $0.hasPrefix("--sizes=") }
        var failed = false
        for size in sizes {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = arguments + ["--sizes", "\(size)"]
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus != 0 { failed = true }
        }
        if failed { throw ExitCode(1) }
    }

    /// One size: returns whether the cache went over its limit.
    private func soak(size: Int) async throws -> Bool {
        let server = try await startServer()
        let urls = (1...rows).map { URL(string: server.base.absoluteString + "/images/\($0).jpg?w=\(size)&h=\(size)")! }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookahead-soak-\(ProcessInfo.processInfo.processIdentifier)-\(size)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = MemoryCache(costLimit: cacheMb << 20)
        let log = GalleryLog(destination: .none, isQuiet: true)
        var run = await scroll(urls: urls, folder: folder, cache: cache, log: log, server: server.child)
        // The gallery and the pipeline are released by now.
        cache.removeAll()
        ResidentMemory.trim()
        run.memory.residentAfter = ResidentMemory.bytes() ?? 0
        run.memory.regionsAfter = ResidentMemory.anonymousRegions()
        server.child?.stop()
        await server.inProcess?.stop()

        printRun(size: size, run, counters: log.snapshot)
        printMemory(run)
        report(size: size, run)
        return run.figures.overLimit > 0
    }

    /// The fixture server, in a child process or in this one.
    private struct Server {
        var base: URL
        var child: FixtureServerProcess?
        var inProcess: FixtureServer?
    }

    private func startServer() async throws -> Server {
        if inProcessServer {
            let server = try await FixtureServer.start(
                configuration: .init { $0.latency = .milliseconds(latencyMs) }
            )
            return Server(base: server.baseURL, inProcess: server)
        }
        let server = try await FixtureServerProcess.start(latencyMilliseconds: latencyMs)
        return Server(base: server.baseURL, child: server)
    }

    private typealias Regions = [(kind: String, resident: Int, mappings: Int)]

    /// Resident memory at the points the run looks at: before the pipeline, at the end with the cache full, and
    /// with the gallery and pipeline released and the cache empty.
    private struct Memory {
        var residentBefore = 0
        var anonymousBefore = 0
        var regionsBefore: Regions = []
        var residentFull = 0
        var residentFullTrimmed = 0
        var regionsFull: Regions = []
        var cachedAtEnd = 0
        var keptAtEnd = 0
        var serverResident: Int?
        var residentAfter = 0
        var regionsAfter: Regions = []
    }

    /// One size's run.
    private struct Run {
        var summary: HeadlessGallery.Summary
        var elapsed: Double
        var prefetchLimit: Int?
        var figures: MemorySampler.Figures
        var memory: Memory
    }

    /// Scrolls the headless gallery over `urls`, sampling memory, and measures the end with the cache full. The
    /// gallery and its pipeline are released on return.
    private func scroll(
        urls: [URL],
        folder: URL,
        cache: MemoryCache,
        log: GalleryLog,
        server child: FixtureServerProcess?
    ) async -> Run {
        var memory = Memory(
            residentBefore: ResidentMemory.bytes() ?? 0,
            anonymousBefore: ResidentMemory.anonymousBytes() ?? 0,
            regionsBefore: ResidentMemory.anonymousRegions()
        )
        let diskCache = DiskCache(directory: folder, sizeLimit: 200 << 20)
        let pipeline = ImagePipeline {
            $0.memoryCache = cache
            $0.diskCache = diskCache
            $0.eventHandler = log.pipelineEvent
        }
        var settings = HeadlessGallery.Settings(
            rowCount: urls.count,
            viewportRows: 8,
            frameDuration: .milliseconds(frameMs)
        )
        settings.loaderConfiguration.memoryBudgetFraction = memoryBudgetFraction > 0 ? memoryBudgetFraction : nil
        let clock = ContinuousClock()
        let start = clock.now
        let gallery = HeadlessGallery(pipeline: pipeline, urls: urls, log: log, settings: settings)
        let sampler = MemorySampler(
            cache: cache,
            diskCache: diskCache,
            pipeline: pipeline,
            slots: gallery.loader,
            interval: .milliseconds(sampleMs),
            trimInterval: trimMs > 0 ? .milliseconds(trimMs) : nil
        )
        let summary = await HeadlessGallery.run(
            gallery,
            script: .soak(rowCount: urls.count, viewportRows: 8, flings: flings, holdFrames: holdFrames)
        )
        let elapsed = (clock.now - start).seconds
        let figures = await sampler.stop()
        pipeline.invalidate()
        await pipeline.flush()
        // The allocator's share: what malloc_trim gives back while the cache is still full.
        memory.residentFull = ResidentMemory.bytes() ?? 0
        ResidentMemory.trim()
        memory.residentFullTrimmed = ResidentMemory.bytes() ?? 0
        memory.regionsFull = ResidentMemory.anonymousRegions()
        memory.cachedAtEnd = cache.totalCost
        memory.keptAtEnd = MemoryCache.bytesKeptForReuse
        memory.serverResident = child?.residentBytes
        return Run(
            summary: summary,
            elapsed: elapsed,
            prefetchLimit: gallery.loader.prefetchLimit,
            figures: figures,
            memory: memory
        )
    }

    private static func mib(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / Double(1 << 20)) }

    /// The run's first lines: what it did, max RSS against the limit, and the peak of memory not file-backed.
    private func printRun(size: Int, _ run: Run, counters: GalleryLog.Counters) {
        let mib = Self.mib
        let (figures, memory, limit) = (run.figures, run.memory, cacheMb << 20)
        let over = figures.maximumResident - limit
        print("")
        print(
            "\(size) px: \(run.summary.frames) frames in \(String(format: "%.1f", run.elapsed)) s, "
                + "\(counters.downloadsFinished) downloads (\(counters.bytes >> 20) MiB), "
                + "\(counters.downloadsFailed + counters.decodesFailed) failed, \(counters.diskHits) disk hits, "
                + "\(run.summary.memoryHits) rows from memory, \(figures.samples) samples; prefetch window bounded to "
                + (run.prefetchLimit.map { "\($0) rows by the memory cache" } ?? "nothing")
        )
        print(
            "  max RSS \(mib(figures.maximumResident)) MiB, limit \(mib(limit)) MiB, max RSS − limit "
                + "\(over >= 0 ? "+" : "")\(mib(over)) MiB (goal ≤ +48), max cache cost \(mib(figures.maximumCost)) MiB"
                + (figures.overLimit > 0 ? " — OVER THE LIMIT in \(figures.overLimit) samples" : "")
        )
        print(
            "  RSS before the pipeline \(mib(memory.residentBefore)) MiB (\(mib(memory.anonymousBefore)) MiB not "
                + "file-backed); max RSS not file-backed \(mib(figures.maximumAnonymous)) MiB, − limit − its value "
                + "before: \(mib(figures.maximumAnonymous - memory.anonymousBefore - limit)) MiB; bodies waiting for "
                + "the disk cache \(mib(figures.waitingAtMaximumAnonymous)) MiB then, at most "
                + "\(mib(figures.maximumWaiting)) MiB"
        )
        printPeak(figures)
    }

    /// What memory held at the peak of memory not file-backed.
    private func printPeak(_ figures: MemorySampler.Figures) {
        let mib = Self.mib
        print(
            "  at that peak: cache cost \(mib(figures.costAtMaximumAnonymous)) MiB, evicted pixels kept for reuse "
                + "\(mib(figures.keptAtMaximumAnonymous)) MiB (at most \(mib(figures.maximumKept))), decodes running "
                + "\(figures.decodingAtMaximumAnonymous) (at most \(figures.maximumDecoding))"
                + (figures.allocatorAtMaximumAnonymous.map {
                    "; malloc: \(mib($0.inUse)) MiB in use, \(mib($0.free)) MiB free in its heaps (most in one arena: "
                        + $0.freeByHeap.prefix(3).map(mib).joined(separator: ", ") + " MiB)"
                } ?? "")
                + "; rows on screen whose image the cache evicted \(figures.shownButEvictedAtMaximumAnonymous.count) "
                + "(\(mib(figures.shownButEvictedAtMaximumAnonymous.cost)) MiB; at most "
                + "\(mib(figures.maximumShownButEvicted)) MiB); most in use beyond cache and reuse "
                + "\(mib(figures.maximumUnexplained.bytes)) MiB at sample \(figures.maximumUnexplained.sample) with "
                + "\(figures.maximumUnexplained.decoding) decodes running, "
                + "\(mib(figures.maximumUnexplained.waiting)) MiB waiting for the disk cache"
        )
    }

    /// RSS over the run and at its end, and memory not file-backed by kind.
    private func printMemory(_ run: Run) {
        let mib = Self.mib
        let (figures, memory) = (run.figures, run.memory)
        let quarters = (1...4).map { quarter -> String in
            let slice = figures.resident.prefix(max(1, figures.resident.count * quarter / 4))
                .suffix(max(1, figures.resident.count / 4))
            return mib(slice.max() ?? 0)
        }
        let serverText = memory.serverResident.map { "; fixture server (child) RSS \(mib($0)) MiB" } ?? ""
        let byQuarter = quarters.joined(separator: " / ")
        let atEnd =
            "\(mib(memory.residentFull)) MiB with \(mib(memory.cachedAtEnd)) MiB cached and "
            + "\(mib(memory.keptAtEnd)) MiB kept for reuse"
        let trimmed = "\(mib(memory.residentFullTrimmed)) MiB after malloc_trim(0)"
        let released = "\(mib(memory.residentAfter)) MiB with the gallery and pipeline released and the cache empty"
        print(
            "  max RSS by quarter of the run: \(byQuarter) MiB; at the end \(atEnd), \(trimmed), \(released)\(serverText)"
        )
        func regions(_ list: Regions) -> String {
            list.map { "\($0.kind) \(mib($0.resident)) MiB (\($0.mappings))" }.joined(separator: ", ")
        }
        print("  not file-backed, by kind (mappings): before the pipeline \(regions(memory.regionsBefore))")
        print("    with the cache full, trimmed: \(regions(memory.regionsFull))")
        print(
            "    with the gallery and pipeline released and the cache empty, trimmed: \(regions(memory.regionsAfter))"
        )
    }

    /// The size's figure.
    private func report(size: Int, _ run: Run) {
        let limit = cacheMb << 20
        BenchFigure(
            id: "soak-\(size)",
            title: "10,000-row fling soak at \(size) px: max RSS",
            unit: "MiB",
            lookahead: Double(run.figures.maximumResident) / Double(1 << 20),
            peers: [
                .init(name: "memory-cache limit + 48 MiB", value: Double(limit + (48 << 20)) / Double(1 << 20)),
                .init(name: "RSS before the pipeline", value: Double(run.memory.residentBefore) / Double(1 << 20)),
            ],
            goal: "max RSS ≤ cache limit + 48 MiB; cache cost never over its limit",
            goalMet: run.figures.maximumResident <= limit + (48 << 20) && run.figures.overLimit == 0,
            note: "cache limit \(cacheMb) MiB, max cache cost \(Self.mib(run.figures.maximumCost)) MiB; " + loadNote()
        ).print()
    }
}
