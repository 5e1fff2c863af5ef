// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench engine`: memory-cache hits, request start + cancel, JPEG decoding, and
// prefetch start-then-stop pairs.

import ArgumentParser
import Foundation
@_spi(Benchmarks) import Lookahead
import LookaheadBenchmarkSupport
import LookaheadFixtures
import Synchronization

struct EngineBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine",
        abstract: "Memory-cache lookups against NSCache, request start + cancel, and JPEG decode throughput."
    )

    @Option(help: "Measured runs per scenario (the median and p95 are reported).")
    var runs = 15

    /// The scenarios, in the order they run.
    enum Scenario: String, CaseIterable, ExpressibleByArgument {
        case hit, start, graph, decode
        case prefetchRace = "prefetch-race"
    }

    @Option(help: "Run one scenario only, e.g. under perf.")
    var only: Scenario?

    func run() async throws {
        print(
            "lookahead-bench engine — \(ProcessInfo.processInfo.activeProcessorCount) cores, median and p95 of \(runs) runs"
        )
        print("")
        if only == nil || only == .hit { cacheLookups() }
        if only == nil || only == .start { await startAndCancel() }
        if only == nil || only == .graph { graphAlone() }
        if only == nil || only == .decode { try decoding() }
        if only == nil || only == .prefetchRace { await prefetchStartThenStop() }
    }

    // MARK: - Memory cache

    /// The memory-cache hits measured, in ascending order of what each leaves out.
    private struct Lookups {
        /// `ImageRequest(url:)` + `cachedImage(for:)`, and the same with thumbnail options.
        var withRequest: Measurement
        var withThumbnail: Measurement
        /// `cachedImage(for:)` of a request built before.
        var lookahead: Measurement
        /// A URL's string in a standard dictionary, and an NSCache hit.
        var floor: Measurement
        var peer: Measurement
    }

    /// Memory-cache hits per run.
    private static let lookupCount = 100_000

    private func cacheLookups() {
        let count = 1000
        let image = Bitmap(width: 8, height: 8, red: 1, green: 2, blue: 3)
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = TaskGraphBenchmarkDriver.NeverAnsweringLoader()
            $0.memoryCache = MemoryCache(costLimit: 64 << 20, countLimit: 10_000)
        }
        let requests = (0..<count).map { ImageRequest(url: URL(string: "https://example.com/images/\($0).jpg")) }
        for request in requests { pipeline.storeCachedImage(image, for: request) }
        let nsCache = NSCache<NSString, ImageBox>()
        nsCache.countLimit = 10_000
        let keys = (0..<count).map { NSString(string: "https://example.com/images/\($0).jpg") }
        for key in keys { nsCache.setObject(ImageBox(image), forKey: key) }
        let ours = lookaheadHits(pipeline, requests: requests, image: image)
        let hitCount = Self.lookupCount
        let peer = measure("NSCache object(forKey:) hit", operations: hitCount, runs: runs) {
            var hits = 0
            for index in 0..<hitCount where nsCache.object(forKey: keys[index % count]) != nil { hits += 1 }
            precondition(hits == hitCount)
            blackHole(hits)
        }
        let lookups = Lookups(
            withRequest: ours.withRequest,
            withThumbnail: ours.withThumbnail,
            lookahead: ours.lookahead,
            floor: ours.floor,
            peer: peer
        )
        printLookups(lookups)
        reportLookups(lookups)
    }

    /// Times Lookahead's hits: with the request built, with thumbnail options, and built before; and between them
    /// the floor. NSCache is left to the caller.
    private func lookaheadHits(_ pipeline: ImagePipeline, requests: [ImageRequest], image: Bitmap) -> (
        withRequest: Measurement, withThumbnail: Measurement, lookahead: Measurement, floor: Measurement
    ) {
        let (count, lookups) = (requests.count, Self.lookupCount)
        // What a list pays per cell per frame: the request built from the model's URL (its key hashed) and the
        // lookup. Apps keep URLs, not requests.
        let urls = requests.map { $0.url! }
        let withRequest = measure("ImageRequest(url:) + cachedImage(for:) hit", operations: lookups, runs: runs) {
            var hits = 0
            for index in 0..<lookups where pipeline.cachedImage(for: ImageRequest(url: urls[index % count])) != nil {
                hits += 1
            }
            precondition(hits == lookups)
            blackHole(hits)
        }
        // The same for a list of thumbnails: the request carries the cells' thumbnail options.
        let thumbnail = ThumbnailOptions(maximumPixelSize: 200)
        for url in urls { pipeline.storeCachedImage(image, for: ImageRequest(url: url, thumbnail: thumbnail)) }
        let withThumbnail = measure("ImageRequest(url:thumbnail:) + cachedImage(for:)", operations: lookups, runs: runs)
        {
            var hits = 0
            for index in 0..<lookups
            where pipeline.cachedImage(for: ImageRequest(url: urls[index % count], thumbnail: thumbnail)) != nil {
                hits += 1
            }
            precondition(hits == lookups)
            blackHole(hits)
        }
        let floor = floorHits(urls: urls, lookups: lookups)
        let lookahead = measure("cachedImage(for:) hit, request built before", operations: lookups, runs: runs) {
            var hits = 0
            for index in 0..<lookups where pipeline.cachedImage(for: requests[index % count]) != nil { hits += 1 }
            precondition(hits == lookups)
            blackHole(hits)
        }
        return (withRequest, withThumbnail, lookahead, floor)
    }

    /// The floor of any cache keyed by a URL's string with a seeded hash: the string, hashed once, found in a
    /// standard dictionary (no lock, no recency update).
    private func floorHits(urls: [URL], lookups: Int) -> Measurement {
        let count = urls.count
        let table = Dictionary(uniqueKeysWithValues: urls.enumerated().map { ($1.absoluteString, $0) })
        return measure("floor: absoluteString + [String: Int] lookup", operations: lookups, runs: runs) {
            var hits = 0
            for index in 0..<lookups where table[urls[index % count].absoluteString] != nil { hits += 1 }
            precondition(hits == lookups)
            blackHole(hits)
        }
    }

    private func printLookups(_ lookups: Lookups) {
        print("Memory cache, 1,000 entries, 100,000 hits per run")
        print(row(lookups.withRequest, unit: "ns/op", scale: 1e9))
        print(row(lookups.withThumbnail, unit: "ns/op", scale: 1e9))
        print(row(lookups.lookahead, unit: "ns/op", scale: 1e9))
        print(row(lookups.floor, unit: "ns/op", scale: 1e9))
        print(row(lookups.peer, unit: "ns/op", scale: 1e9))
        print(
            String(
                format:
                    "  → a hit with its request built takes %.2f× the time of an NSCache hit (%.2f× without), %.2f× the floor",
                lookups.withRequest.median / lookups.peer.median,
                lookups.lookahead.median / lookups.peer.median,
                lookups.withRequest.median / lookups.floor.median
            )
        )
        print("")
    }

    private func reportLookups(_ lookups: Lookups) {
        let hit = lookups.withRequest.median * 1e9
        BenchFigure(
            id: "memory-hit",
            title: "Memory-cache hit, ImageRequest(url:) included",
            unit: "ns",
            lookahead: hit,
            peers: [
                .init(name: "NSCache object(forKey:)", value: lookups.peer.median * 1e9),
                .init(name: "floor: absoluteString + [String: Int]", value: lookups.floor.median * 1e9),
                .init(name: "goal", value: 100),
            ],
            goal: "≤ 100 ns and ≤ 1/5 of NSCache",
            goalMet: hit <= 100 && hit * 5 <= lookups.peer.median * 1e9,
            note: String(
                format:
                    "request built before: %.0f ns; with thumbnail options: %.0f ns; %.2f× the floor; median of %d runs; ",
                lookups.lookahead.median * 1e9,
                lookups.withThumbnail.median * 1e9,
                lookups.withRequest.median / lookups.floor.median,
                runs
            ) + loadNote()
        ).print()
    }

    // MARK: - Start + cancel

    private func startAndCancel() async {
        let operations = 2000
        let (pipeline, requests) = TaskGraphBenchmarkDriver.startAndCancelFixture(count: operations)
        let measurement = await measureAsync("imageTask(with:) + cancel()", operations: operations, runs: runs) {
            for request in requests {
                let task = pipeline.imageTask(with: request)
                task.cancel()
            }
            // Let the cancelled loads unwind before the next run.
            await Task.yield()
        }
        // The floor of any start that hands its work to another thread: a task made on the cooperative pool and
        // cancelled at once, which wakes an idle worker as a start does.
        let handoff = await measureAsync("floor: Task { } + cancel()", operations: operations, runs: runs) {
            for _ in 0..<operations {
                let task = Task<Void, Never>(priority: .high) {}
                task.cancel()
            }
            await Task.yield()
        }
        print("Request start + cancel (a loader that waits until cancelled), \(operations) per run")
        print(row(measurement, unit: "µs/op", scale: 1e6))
        print(row(handoff, unit: "µs/op", scale: 1e6))
        print("")
        let cost = measurement.median * 1e6
        BenchFigure(
            id: "start-cancel",
            title: "Cache-miss request start + cancel",
            unit: "µs",
            lookahead: cost,
            peers: [
                .init(name: "floor: Task { } + cancel()", value: handoff.median * 1e6), .init(name: "goal", value: 3),
            ],
            goal: "≤ 3 µs (Nuke's create + cancel: 3.9 µs on its own machine)",
            goalMet: cost <= 3,
            note: String(
                format: "wall time, median of %d runs; %.2f× the floor of a hand-off to the cooperative pool; ",
                runs,
                measurement.median / handoff.median
            ) + loadNote()
        ).print()
    }

    // MARK: - The task graph alone

    /// What the task graph's part of a start + cancel costs, without the pipeline's lock, its task objects or any
    /// hand-off: a plain request is one stage, a thumbnail one too.
    private func graphAlone() {
        let operations = 2000
        let plain = (0..<operations).map { ImageRequest(url: URL(string: "https://example.com/graph/\($0).jpg")) }
        let thumbnails = (0..<operations).map {
            ImageRequest(
                url: URL(string: "https://example.com/graph/\($0).jpg"),
                thumbnail: ThumbnailOptions(maximumPixelSize: 200)
            )
        }
        var driver = TaskGraphBenchmarkDriver()
        var left = 0
        let plainRuns = measure("graph: submit + cancel, plain request", operations: operations, runs: runs) {
            left += driver.startAndCancel(plain)
        }
        let thumbnailRuns = measure("graph: submit + cancel, thumbnail", operations: operations, runs: runs) {
            left += driver.startAndCancel(thumbnails)
        }
        print("The task graph alone (no lock, task objects or hand-off), \(operations) per run; \(left) stages left")
        print(row(plainRuns, unit: "ns/op", scale: 1e9))
        print(row(thumbnailRuns, unit: "ns/op", scale: 1e9))
        print("")
    }

    // MARK: - Prefetch start, then stop at once

    /// A caller's `startPrefetching` followed at once by `stopPrefetching` for the same URL, 1,000 times, while
    /// the prefetcher's queue drains on the other core: downloads that began although nobody wanted them. The
    /// goal is none. Called from a plain thread, and from a thread running a run loop as an app's main thread
    /// does, each pair in its own pass of the loop.
    private func prefetchStartThenStop() async {
        let pairs = 1000
        let rounds = 5
        var counts: (plain: [Int], runLoop: [Int]) = ([], [])
        for round in 0..<rounds {
            for onRunLoop in [false, true] {
                let loader = CountingLoader()
                let pipeline = ImagePipeline {
                    $0.diskCache = nil
                    $0.dataLoader = loader
                }
                let prefetcher = ImagePrefetcher(pipeline: pipeline, maxConcurrentRequestCount: 2)
                let urls = (0..<pairs).map {
                    URL(string: "https://example.com/prefetch/\(round)/\(onRunLoop)/\($0).jpg")!
                }
                let pair: @Sendable (URL) -> Void = { url in
                    prefetcher.startPrefetching(with: [url])
                    prefetcher.stopPrefetching(with: [url])
                }
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    Thread.detachNewThread {
                        guard onRunLoop else {
                            for url in urls { pair(url) }
                            return continuation.resume()
                        }
                        let remaining = Mutex(urls.count)
                        for url in urls {
                            RunLoop.current.perform(inModes: [.common]) {
                                pair(url)
                                remaining.withLock { $0 -= 1 }
                            }
                        }
                        // Passes go on until every pair and every turn they scheduled has run.
                        let timer = Timer(timeInterval: 3600, repeats: false) { _ in }
                        RunLoop.current.add(timer, forMode: .default)
                        let settle = Date(timeIntervalSinceNow: 1)
                        while remaining.withLock({ $0 }) > 0 || Date() < settle {
                            _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
                        }
                        timer.invalidate()
                        continuation.resume()
                    }
                }
                // The prefetcher's queue runs every turn it was given within this time, even on a loaded machine.
                try? await Task.sleep(for: .seconds(1))
                if onRunLoop { counts.runLoop.append(loader.count) } else { counts.plain.append(loader.count) }
            }
        }
        func list(_ values: [Int]) -> String { values.map(String.init).joined(separator: ", ") }
        print("Prefetch start, then stop at once: \(pairs) pairs per round, \(rounds) rounds; downloads started")
        print("  from a plain thread:        \(list(counts.plain))")
        print("  from a run loop's passes:   \(list(counts.runLoop)); " + loadNote())
        print("")
    }

    // MARK: - Decoding

    private func decoding() throws {
        let width = 4000
        let height = 3000
        let data = Data(try FixtureImages.jpeg(number: 7, width: width, height: height, quality: 90))
        let decoder = ImageDecoders.JPEG()
        let megapixels = Double(width * height) / 1e6
        let decodeRuns = max(5, runs / 2)
        let full = measure("JPEG 4000×3000 full decode", operations: 1, runs: decodeRuns, warmUp: 1) {
            blackHole(try! decoder.decode(data, context: .init()))
        }
        let thumbnail = measure("JPEG 4000×3000 → 256 px (DCT scaling)", operations: 1, runs: decodeRuns, warmUp: 1) {
            blackHole(try! decoder.decode(data, context: .init(thumbnail: .init(maximumPixelSize: 256))))
        }
        print("JPEG decoding with libjpeg-turbo, \(data.count / 1024) KiB, \(megapixels) megapixels")
        print(row(full, unit: "ms   ", scale: 1e3) + String(format: "   %.1f MP/s", megapixels / full.median))
        print(
            row(thumbnail, unit: "ms   ", scale: 1e3)
                + String(format: "   %.1f MP/s of source", megapixels / thumbnail.median)
        )
    }
}

/// A loader that counts the downloads it was asked for and never answers until cancelled.
final class CountingLoader: DataLoading {
    private let started = Mutex(0)
    var count: Int { started.withLock { $0 } }

    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        started.withLock { $0 += 1 }
        try await Task.sleep(for: .seconds(3600))
        throw CancellationError()
    }
}

final class ImageBox: Sendable {
    let image: Bitmap
    init(_ image: Bitmap) { self.image = image }
}
