// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — disk-content: thumbnails of camera photos from a warm disk cache that holds the originals (the
// default) or the thumbnails themselves (DiskCacheContent.automatic), in the same run.

import ArgumentParser
import Foundation
import Lookahead
import LookaheadFixtures

struct DiskContentBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disk-content",
        abstract: "Thumbnails from a warm disk cache: originals kept (the default) against thumbnails kept.",
        discussion: """
            The in-process fixture server serves the camera photos' original files (Debian's mate-backgrounds). For \
            each content setting, a pipeline loads every URL as a thumbnail into an empty cache folder (cold), then \
            a new pipeline on the same folder with an empty memory cache loads them again (warm-disk, as after a \
            relaunch): its wall time, the process's CPU time, and the bytes the cache holds.
            """
    )

    @Option(help: "URLs to load (the photos repeat under distinct URLs).")
    var count = 48

    @Option(help: "The thumbnail's longer side, in pixels.")
    var thumbnail = 256

    @Option(help: "Repetitions; the median is reported.")
    var runs = 5

    @Option(help: "Photo folder, or 'none' for generated pictures (default: Debian's mate-backgrounds photos).")
    var photos: String?

    func validate() throws {
        guard count > 0, runs > 0, thumbnail >= 16 else {
            throw ValidationError("--count and --runs must be positive, --thumbnail at least 16")
        }
    }

    struct Sample {
        var warmSeconds: Double
        var warmCPU: Double
        var diskBytes: Int
        var downloads: Int
    }

    func run() async throws {
        let folder = FixtureServer.photosFolder(option: photos)
        let server = try await FixtureServer.start(
            configuration: .init {
                $0.mediaCount = max(240, count)
                $0.photosFolder = folder
            }
        )
        // Quality 0: the photo files as they are, as a CDN serves an original.
        let urls = (1...count).map { URL(string: server.baseURL.absoluteString + "/media/0/cover-\($0).jpg")! }
        print(
            "lookahead-bench disk-content — \(count) URLs, \(folder == nil ? "generated pictures" : "camera photos") "
                + "as their original files, thumbnails of \(thumbnail) px, \(ProcessInfo.processInfo.activeProcessorCount) "
                + "cores, median of \(runs) runs, load \(loadAverage())"
        )
        let contents: [(name: String, content: DiskCacheContent)] = [
            ("original data (default)", .originalData), ("automatic (thumbnails)", .automatic),
        ]
        var samples: [String: [Sample]] = [:]
        for _ in 0..<runs {
            for (name, content) in contents {
                samples[name, default: []].append(try await measure(urls, content: content))
            }
        }
        await server.stop()
        report(samples, contents: contents.map(\.name))
    }

    /// The table of both contents, the `disk-content:` line and the figure.
    private func report(_ samples: [String: [Sample]], contents: [String]) {
        print("")
        print("| disk cache holds | warm-disk wall | CPU | per image | cache bytes | downloads (warm) |")
        print("|---|---|---|---|---|---|")
        for name in contents {
            let runs = samples[name]!
            let wall = median(runs.map(\.warmSeconds))
            print(
                String(
                    format: "| %@ | %.3f s | %.3f s | %.2f ms | %d | %d |",
                    name,
                    wall,
                    median(runs.map(\.warmCPU)),
                    wall * 1000 / Double(count),
                    runs.last!.diskBytes,
                    runs.last!.downloads
                )
            )
        }
        let original = samples[contents[0]]!
        let processed = samples[contents[1]]!
        print("")
        print(
            String(
                format: "disk-content: warm-disk thumbnails %.3f s against %.3f s from originals (ratio %.2f); "
                    + "cache %d against %d bytes (ratio %.3f)",
                median(processed.map(\.warmSeconds)),
                median(original.map(\.warmSeconds)),
                median(processed.map(\.warmSeconds)) / median(original.map(\.warmSeconds)),
                processed.last!.diskBytes,
                original.last!.diskBytes,
                Double(processed.last!.diskBytes) / Double(original.last!.diskBytes)
            )
        )
        BenchFigure(
            id: "disk-content-warm",
            title: "\(count) photo thumbnails (\(thumbnail) px) from a warm disk cache, empty memory cache",
            unit: "s",
            lookahead: median(processed.map(\.warmSeconds)),
            peers: [.init(name: "Lookahead, originals kept (the default)", value: median(original.map(\.warmSeconds)))],
            goal: "faster than decoding the originals again",
            goalMet: median(processed.map(\.warmSeconds)) < median(original.map(\.warmSeconds)),
            note: "DiskCacheContent.automatic; median of \(runs) runs; " + loadNote()
        ).print()
    }

    /// One cold pass into an empty folder, then a timed warm-disk pass with a new pipeline on it.
    private func measure(_ urls: [URL], content: DiskCacheContent) async throws -> Sample {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookahead-disk-content-\(ProcessInfo.processInfo.processIdentifier)-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let counter = ByteCounter()
        func pipeline() -> ImagePipeline {
            ImagePipeline {
                $0.diskCache = DiskCache(directory: folder)
                $0.diskCacheContent = content
                $0.eventHandler = { event in
                    if case .dataLoadStarted = event { counter.add(1) }
                }
            }
        }
        do {
            let cold = pipeline()
            try await load(urls, with: cold)
            await cold.flush()
        }
        counter.reset()
        let warm = pipeline()
        let clock = ContinuousClock()
        let cpu = processCPU()
        let start = clock.now
        try await load(urls, with: warm)
        let seconds = (clock.now - start).seconds
        let cpuSeconds = processCPU() - cpu
        await warm.flush()
        return Sample(
            warmSeconds: seconds,
            warmCPU: cpuSeconds,
            diskBytes: Self.bytes(in: folder),
            downloads: counter.total
        )
    }

    /// Starts every request at once, then awaits them all.
    private func load(_ urls: [URL], with pipeline: ImagePipeline) async throws {
        let options = ThumbnailOptions(maximumPixelSize: thumbnail)
        let tasks = urls.map { pipeline.imageTask(with: ImageRequest(url: $0, thumbnail: options)) }
        for task in tasks { blackHole(try await task.response.image.width) }
    }

    /// The bytes of the files in a folder.
    private static func bytes(in folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            return total + ((attributes?[.size] as? Int) ?? 0)
        }
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

/// CPU seconds (user + system) this process has used.
func processCPU() -> Double { ProcessUsage.now().cpu }

/// What this process has used so far: CPU in user space and in the kernel, and minor page faults (pages the kernel
/// had to map, and zero, on first touch).
struct ProcessUsage {
    var user: Double
    var system: Double
    var pageFaults: Int

    var cpu: Double { user + system }

    /// Nothing used.
    static let none = ProcessUsage(user: 0, system: 0, pageFaults: 0)

    static func now() -> ProcessUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ProcessUsage(user: seconds(usage.ru_utime), system: seconds(usage.ru_stime), pageFaults: usage.ru_minflt)
    }

    static func - (after: ProcessUsage, before: ProcessUsage) -> ProcessUsage {
        ProcessUsage(
            user: after.user - before.user,
            system: after.system - before.system,
            pageFaults: after.pageFaults - before.pageFaults
        )
    }
}
