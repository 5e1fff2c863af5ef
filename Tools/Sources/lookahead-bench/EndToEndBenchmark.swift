// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench e2e`: a list's worth of images over loopback HTTP through one pipeline,
// against `curl --parallel` on the same URLs in the same run.

import ArgumentParser
import Foundation
import Lookahead
import LookaheadFixtures
import Synchronization

struct EndToEndBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "e2e",
        abstract:
            "N images over loopback through one ImagePipeline (default configuration) against `curl --parallel` "
            + "with as many downloads at once, on the same URLs: cold, warm-disk and warm-memory passes.",
        discussion: """
            Starts the fixture server in this process (or uses --base-url, whose media API must list at least \
            --count items) and loads /media/{width}/cover-{n}.jpg for n = 1…count. Lookahead starts every task at \
            once and awaits them all, as a list's prefetch would. Passes: cold (a new pipeline on an empty disk \
            cache folder), warm-disk (a new pipeline on the same folder, empty memory cache), warm-memory (the \
            cold pipeline again), cold data only (pipeline.data(for:): no decoding, the disk cache written), and data \
            with no disk cache (the transport alone). curl has no cache: it \
            runs once per repetition and its time is the same for every pass. Each pass runs --runs times; the \
            median is printed. Connections: TCP connections the fixture server saw (n/a with --base-url), and \
            curl's %{num_connects} summed. A second in-process server with --latency-ms before every image \
            repeats the cold pass. The last line is `e2e: lookahead X s, curl Y s, ratio R` (cold pass, R = \
            Lookahead's time ÷ curl's, lower is better).
            """
    )

    @Option(help: "Images to load.")
    var count = 200

    @Option(
        help: "Width of each image in pixels (/media/{width}/cover-n.jpg); by default the one closest to --target-kb."
    )
    var width: Int?

    @Option(help: "The mean image size the width is chosen for, in kB.")
    var targetKb = 50

    /// The generated pictures are smooth: at quality 85 a 50 kB one is about a megapixel, at 100 far fewer pixels,
    /// closer to a camera photo of that size. Photos are served at quality 85, as image CDNs do.
    @Option(help: "JPEG quality of the in-process server's pictures: 85 for photos, 100 for generated ones by default.")
    var jpegQuality: Int?

    @Option(
        help:
            "Camera photos for the in-process server's covers (a folder of JPEGs), or none for generated pictures; by default the mate-backgrounds photos when installed (scripts/photos)."
    )
    var photos: String?

    @Option(help: "Repetitions of every pass; the median is reported.")
    var runs = 5

    @Option(help: "Use this fixture server (http://host:port) instead of starting one in this process.")
    var baseURL: String?

    @Option(help: "Latency before every image of the latency variant, in milliseconds; 0 skips the variant.")
    var latencyMs = 50

    @Option(help: "The curl executable.")
    var curl = "/usr/bin/curl"

    @Option(help: "curl's --parallel-max: the downloads Lookahead's default configuration runs at once.")
    var parallel = ImagePipeline.Configuration().dataLoadingConcurrency

    /// One pass of one repetition.
    struct Sample {
        var seconds: Double
        var bytes: Int
        var connections: Int?
        var failures: Int
        /// What this process used during the pass, the in-process server included; nothing for curl's runs.
        var usage = ProcessUsage.none
        /// CPU seconds of the pass.
        var cpu: Double { usage.cpu }
        /// For a pass with a disk cache: the time and CPU until its writes were done as well (`flush()`).
        var written: (seconds: Double, cpu: Double)?
    }

    func validate() throws {
        guard count > 0, runs > 0, (width ?? 16) >= 16, (width ?? 16) <= 2048 else {
            throw ValidationError("--count and --runs must be positive, --width in 16…2048")
        }
    }

    func run() async throws {
        let (server, base) = try await startServer()
        let width: Int
        if let given = self.width { width = given } else { width = try await probeWidth(base: base) }
        let urls = Self.urls(base: base, width: width, count: count)
        let curlRunner = try CurlBaseline(executable: curl, maximumParallel: parallel, urls: urls)
        defer { curlRunner.remove() }
        try await printHeader(server: server, base: base, width: width, curlRunner: curlRunner)

        let table = try await measure(urls: urls, server: server, curlRunner: curlRunner)
        Self.printTable(table, title: "no added latency")
        let decode = try await Self.decodeFloor(urls, runs: runs)
        print(
            String(
                format: "  decoding the %d bodies alone, on all %d cores at once: %.3f s — the cold pass's floor here",
                urls.count,
                ProcessInfo.processInfo.activeProcessorCount,
                decode.seconds
            )
        )
        if latencyMs > 0, baseURL == nil { try await latencyVariant(width: width) }
        let peer = try await thumbnailPeer(urls: urls, server: server)
        let formats = baseURL == nil ? try await negotiatedFormats(width: width) : nil

        print("")
        reportCold(table, decodeFloor: decode.seconds, decodeUsage: decode.usage)
        if let peer { reportPeer(peer) }
        if let formats { reportFormats(formats) }
        await server?.stop()
    }

    /// The server of `--base-url`, or one started in this process.
    private func startServer() async throws -> (FixtureServer?, URL) {
        if let baseURL {
            guard let url = URL(string: baseURL) else { throw ValidationError("--base-url is not a URL") }
            return (nil, url)
        }
        let started = try await FixtureServer.start(configuration: serverConfiguration())
        return (started, started.baseURL)
    }

    /// Runs curl once, untimed (the server encodes every picture once, and both clients then get them from its
    /// cache), then prints what the run measures and curl's start-up time.
    private func printHeader(server: FixtureServer?, base: URL, width: Int, curlRunner: CurlBaseline) async throws {
        let warmUp = try await curlRunner.run()
        guard warmUp.failures == 0 else { throw BenchFailure(description: "\(warmUp.failures) URLs failed in curl") }
        let startup = try await curlRunner.startupSeconds()
        let photosFolder = FixtureServer.photosFolder(option: photos)
        let quality =
            baseURL == nil
            ? "\(photosFolder == nil ? "generated pictures" : "camera photos"), JPEG quality \(serverConfiguration().jpegQuality)"
            : "as served"
        print(
            "lookahead-bench e2e — \(count) images, \(width) px wide (\(quality)), mean \(warmUp.bytes / count / 1000) kB "
                + "(\(warmUp.bytes) bytes), \(server == nil ? "server \(base.absoluteString)" : "in-process fixture server"), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores, median of \(runs) runs, load \(loadAverage())"
        )
        print(
            String(format: "curl process start-up (curl --version): %.1f ms, included in curl's times", startup * 1000)
        )
        print("")
    }

    /// The cold pass again, on a second in-process server that waits `--latency-ms` before every image.
    private func latencyVariant(width: Int) async throws {
        var slowConfiguration = serverConfiguration()
        slowConfiguration.latency = .milliseconds(latencyMs)
        let slow = try await FixtureServer.start(configuration: slowConfiguration)
        let slowURLs = Self.urls(base: slow.baseURL, width: width, count: count)
        let slowCurl = try CurlBaseline(executable: curl, maximumParallel: parallel, urls: slowURLs)
        defer { slowCurl.remove() }
        _ = try await slowCurl.run()
        let latencyTable = try await measure(urls: slowURLs, server: slow, curlRunner: slowCurl, coldOnly: true)
        print("")
        Self.printTable(latencyTable, title: "\(latencyMs) ms before every image (both clients, same server)")
        await slow.stop()
    }

    /// The in-process fixture server's configuration: photos when there are, else generated pictures.
    func serverConfiguration() -> FixtureServer.Configuration {
        let folder = FixtureServer.photosFolder(option: photos)
        return .init {
            $0.mediaCount = max(240, count)
            $0.photosFolder = folder
            $0.jpegQuality = jpegQuality ?? (folder == nil ? 100 : 85)
        }
    }

    /// The width whose pictures come closest to the target size on average, over the first 12 items.
    private func probeWidth(base: URL) async throws -> Int {
        let target = Double(targetKb * 1000)
        var best = (width: 480, distance: Double.infinity)
        for width in [160, 240, 320, 400, 480, 560, 640, 720, 800, 960, 1024, 1280, 1600, 2048] {
            let probe = try CurlBaseline(
                executable: curl,
                maximumParallel: parallel,
                urls: Self.urls(base: base, width: width, count: min(12, count))
            )
            defer { probe.remove() }
            let mean = Double(try await probe.run().bytes) / Double(min(12, count))
            if abs(mean - target) < best.distance { best = (width, abs(mean - target)) }
            if mean > target { break }
        }
        return best.width
    }

    static func urls(base: URL, width: Int, count: Int) -> [URL] {
        (1...count).map { URL(string: base.absoluteString + "/media/\(width)/cover-\($0).jpg")! }
    }

    // MARK: - Passes

    struct Table {
        var lookahead: [String: [Sample]] = [:]
        var curl: [Sample] = []
    }

    static let passes = ["cold", "cold, data only", "data, no disk cache", "warm-disk", "warm-memory"]

    private func measure(urls: [URL], server: FixtureServer?, curlRunner: CurlBaseline, coldOnly: Bool = false)
        async throws -> Table
    {
        var table = Table()
        func record(_ pass: String, _ sample: Sample) { table.lookahead[pass, default: []].append(sample) }
        // The cache folders are removed once every run is done, not between runs: a file system without a journal
        // (ext4 here) scans the inodes deleted in the last seconds before it makes a file, and a cold pass after
        // the last run's 400 deletions would pay for the bench's own clean-up.
        var folders: [URL] = []
        defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
        for _ in 0..<runs {
            server?.resetCounters()
            let curlRun = try await curlRunner.run()
            table.curl.append(
                Sample(
                    seconds: curlRun.seconds,
                    bytes: curlRun.bytes,
                    connections: curlRun.connections,
                    failures: curlRun.failures
                )
            )

            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("lookahead-e2e-\(ProcessInfo.processInfo.processIdentifier)-\(UUID())")
            folders.append(folder)
            for (pass, sample) in await Self.coldPasses(urls, server: server, folder: folder, coldOnly: coldOnly) {
                record(pass, sample)
            }
            guard !coldOnly else { continue }
            let dataFolder = folder.appendingPathExtension("data")
            folders.append(dataFolder)
            for (pass, sample) in await Self.dataPasses(urls, server: server, folder: dataFolder) {
                record(pass, sample)
            }
        }
        return table
    }

    /// One run's passes on the disk cache in `folder`: cold (until the writes are done as well), warm-memory (the
    /// same pipeline again) and warm-disk (a new pipeline on the folder); only the cold one with `coldOnly`.
    private static func coldPasses(_ urls: [URL], server: FixtureServer?, folder: URL, coldOnly: Bool) async -> [(
        String, Sample
    )] {
        var samples: [(String, Sample)] = []
        do {
            let counter = ByteCounter()
            let pipeline = makePipeline(folder: folder, counter: counter)
            let clock = ContinuousClock()
            let (start, cpuBefore) = (clock.now, processCPU())
            var cold = await loadImages(urls, pipeline: pipeline, server: server, counter: counter)
            await pipeline.flush()
            cold.written = ((clock.now - start).seconds, processCPU() - cpuBefore)
            samples.append(("cold", cold))
            if !coldOnly {
                samples.append(
                    ("warm-memory", await loadImages(urls, pipeline: pipeline, server: server, counter: counter))
                )
            }
        }
        guard !coldOnly else { return samples }
        let counter = ByteCounter()
        let pipeline = makePipeline(folder: folder, counter: counter)
        samples.append(("warm-disk", await loadImages(urls, pipeline: pipeline, server: server, counter: counter)))
        return samples
    }

    /// One run's data passes: cold data only (written to the disk cache in `folder`, not decoded), and the
    /// transport alone (nothing written to disk, nothing decoded).
    private static func dataPasses(_ urls: [URL], server: FixtureServer?, folder: URL) async -> [(String, Sample)] {
        var samples: [(String, Sample)] = []
        do {
            let counter = ByteCounter()
            let pipeline = makePipeline(folder: folder, counter: counter)
            samples.append(
                ("cold, data only", await loadData(urls, pipeline: pipeline, server: server, counter: counter))
            )
            await pipeline.flush()
        }
        do {
            let counter = ByteCounter()
            let pipeline = makePipeline(folder: nil, counter: counter)
            samples.append(
                ("data, no disk cache", await loadData(urls, pipeline: pipeline, server: server, counter: counter))
            )
        }
        return samples
    }

    /// The default configuration, but for a disk cache in `folder` (none for `nil`) and an event handler that
    /// counts bytes.
    private static func makePipeline(folder: URL?, counter: ByteCounter) -> ImagePipeline {
        ImagePipeline {
            $0.diskCache = folder.map { DiskCache(directory: $0) }
            $0.eventHandler = { event in
                if case .dataLoadFinished(_, let byteCount) = event { counter.add(byteCount) }
            }
        }
    }

    /// Starts one task per URL at once, then awaits them all.
    static func loadImages(_ urls: [URL], pipeline: ImagePipeline, server: FixtureServer?, counter: ByteCounter)
        async -> Sample
    {
        await timedPass(server: server, counter: counter) {
            let tasks = urls.map { pipeline.imageTask(with: ImageRequest(url: $0)) }
            var failures = 0
            for task in tasks {
                do {
                    blackHole(try await task.response.image.width)
                } catch {
                    failures += 1
                }
            }
            return failures
        }
    }

    /// Times one pass (`body` returns its failures) with the server's and the byte counter's counts reset.
    static func timedPass(server: FixtureServer?, counter: ByteCounter, _ body: () async -> Int) async -> Sample {
        server?.resetCounters()
        counter.reset()
        let clock = ContinuousClock()
        let before = ProcessUsage.now()
        let start = clock.now
        let failures = await body()
        let seconds = (clock.now - start).seconds
        return Sample(
            seconds: seconds,
            bytes: counter.total,
            connections: server?.connectionCount,
            failures: failures,
            usage: ProcessUsage.now() - before
        )
    }

    /// The time decoding alone takes: every URL's body decoded with the default decoders, as many at once as
    /// there are cores, the images kept until all are done (median of `runs`). No pipeline, cache or transport.
    private static func decodeFloor(_ urls: [URL], runs: Int) async throws -> (seconds: Double, usage: ProcessUsage) {
        let loader = ImagePipeline { $0.diskCache = nil }
        var loaded: [Data] = []
        for url in urls { loaded.append(try await loader.data(for: ImageRequest(url: url)).data) }
        let bodies = loaded
        let decoders = ImagePipeline.Configuration().decoders
        let clock = ContinuousClock()
        var usages: [ProcessUsage] = []
        let samples = (0..<runs).map { _ in
            let before = ProcessUsage.now()
            defer { usages.append(ProcessUsage.now() - before) }
            return clock.measure {
                // The images are kept, as the memory cache keeps them: each decode writes fresh pages.
                let kept = Mutex<[Bitmap]>([])
                DispatchQueue.concurrentPerform(iterations: bodies.count) { index in
                    if let image = try? ImageDecoders.decode(bodies[index], with: decoders, context: .init()).get()
                        .image
                    {
                        kept.withLock { $0.append(image) }
                    }
                }
                kept.withLock { blackHole($0.count) }
            }
            .seconds
        }
        return (samples.sorted()[samples.count / 2], usages.sorted { $0.cpu < $1.cpu }[usages.count / 2])
    }

    /// Loads every URL's data at once (no decoding), then awaits them all.
    private static func loadData(_ urls: [URL], pipeline: ImagePipeline, server: FixtureServer?, counter: ByteCounter)
        async -> Sample
    {
        await timedPass(server: server, counter: counter) {
            await withTaskGroup(of: Bool.self) { group in
                for url in urls {
                    group.addTask {
                        do {
                            _ = try await pipeline.data(for: ImageRequest(url: url))
                            return true
                        } catch {
                            return false
                        }
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 0 : 1) }
            }
        }
    }

    // MARK: - Output

    private static func printTable(_ table: Table, title: String) {
        print("\(title):")
        print("  pass                  lookahead        curl    ratio   bytes lookahead / curl   connections L / curl")
        let curlSeconds = table.curl.median(\.seconds)
        let curlBytes = table.curl.median { Double($0.bytes) }
        let curlConnections = table.curl.median { Double($0.connections ?? 0) }
        for pass in passes {
            guard let samples = table.lookahead[pass] else { continue }
            let seconds = samples.median(\.seconds)
            let connections =
                samples.contains { $0.connections == nil }
                ? "n/a" : String(Int(samples.median { Double($0.connections ?? 0) }))
            let failures = samples.reduce(0) { $0 + $1.failures }
            print(
                "  "
                    + pass.padding(toLength: 20, withPad: " ", startingAt: 0)
                    + String(
                        format: "%9.3f s %9.3f s %7.2f   %10.0f / %-10.0f ",
                        seconds,
                        curlSeconds,
                        seconds / curlSeconds,
                        samples.median { Double($0.bytes) },
                        curlBytes
                    )
                    + String(repeating: " ", count: max(0, 6 - connections.count)) + connections
                    + " / \(Int(curlConnections))" + (failures > 0 ? "   \(failures) FAILED" : "")
            )
        }
        print("  curl has no cache: it runs once per repetition, and its time is the same for every pass.")
    }
}

/// Bytes downloaded, counted from the pipeline's events.
final class ByteCounter: Sendable {
    private let bytes = Atomic<Int>(0)

    func add(_ count: Int) { bytes.add(count, ordering: .relaxed) }
    func reset() { bytes.store(0, ordering: .relaxed) }
    var total: Int { bytes.load(ordering: .relaxed) }
}

extension Array where Element == EndToEndBenchmark.Sample {
    /// The median of a figure over the samples.
    func median(_ figure: (Element) -> Double) -> Double {
        let sorted = map(figure).sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
