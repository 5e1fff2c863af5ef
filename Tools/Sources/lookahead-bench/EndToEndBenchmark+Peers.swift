// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench e2e`'s thumbnail peer (curl into files, then Pillow in a pool of processes)
// and the bytes a format-negotiating server saves.

import Foundation
import Lookahead
import LookaheadFixtures

extension EndToEndBenchmark {
    /// The thumbnail side of the peer comparison, in pixels.
    static let peerSide = 256

    /// The peer's Pillow pool: thumbnails the files of its arguments, then prints the seconds that took. A process
    /// pool that reports a worker's death (BrokenProcessPool) rather than waiting for it, run under `timeout`: the
    /// peer can fail, never hang the bench.
    static let pillowPool = """
        import os, sys, time
        from concurrent.futures import ProcessPoolExecutor
        from PIL import Image
        def thumbnail(path):
            image = Image.open(path)
            image.draft('RGB', (\(Self.peerSide), \(Self.peerSide)))
            image.thumbnail((\(Self.peerSide), \(Self.peerSide)), Image.LANCZOS)
            return image.size
        if __name__ == '__main__':
            files = sys.argv[1:]
            start = time.perf_counter()
            with ProcessPoolExecutor(os.cpu_count()) as pool:
                list(pool.map(thumbnail, files, chunksize=4))
            print(time.perf_counter() - start)
        """

    /// Lookahead loading every URL as a thumbnail into an empty disk cache, against the obvious way to do the same
    /// work: `curl --parallel` into files, then Pillow (draft + LANCZOS thumbnail) in a pool of one process per
    /// core. Medians of `runs`; `nil` without Python's Pillow.
    func thumbnailPeer(urls: [URL], server: FixtureServer?) async throws -> (
        lookahead: Double, curl: Double, pillow: Double
    )? {
        guard let python = pythonWithPillow else {
            print("  e2e-peer: skipped, python3 with Pillow (python3-pil) is not installed")
            return nil
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-e2e-peer-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let curl = try CurlBaseline(executable: self.curl, maximumParallel: parallel, urls: urls, outputFolder: folder)
        defer { curl.remove() }
        let timeout = which("timeout") ?? "/usr/bin/timeout"
        var ours: [Double] = []
        var curlTimes: [Double] = []
        var pillowTimes: [Double] = []
        for run in 0..<runs {
            // Removed with `folder` once every run is done (see `measure`).
            let disk = folder.appendingPathComponent("lookahead-\(run)")
            let pipeline = ImagePipeline { $0.diskCache = DiskCache(directory: disk) }
            let sample = await Self.timedPass(server: server, counter: ByteCounter()) {
                let tasks = urls.map {
                    pipeline.imageTask(
                        with: ImageRequest(url: $0, thumbnail: ThumbnailOptions(maximumPixelSize: Self.peerSide))
                    )
                }
                var failures = 0
                for task in tasks {
                    do { blackHole(try await task.response.image.width) } catch { failures += 1 }
                }
                return failures
            }
            // Untimed: the disk cache's writes end before its folder is removed.
            await pipeline.flush()
            guard sample.failures == 0 else { throw BenchFailure(description: "\(sample.failures) thumbnails failed") }
            ours.append(sample.seconds)
            let fetched = try await curl.run()
            guard fetched.failures == 0 else { throw BenchFailure(description: "curl: \(fetched.failures) failed") }
            curlTimes.append(fetched.seconds)
            let output = try capture(timeout, ["300", python, "-c", Self.pillowPool] + curl.outputFiles)
            guard let pool = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw BenchFailure(description: "the Pillow pool printed no time")
            }
            pillowTimes.append(pool)
        }
        return (Self.median(ours), Self.median(curlTimes), Self.median(pillowTimes))
    }

    /// The cold pass on a server that negotiates formats, with the pipeline's default `Accept` (WebP) and with it
    /// off (JPEG): bytes on the wire and seconds, medians of `runs`. Each format is encoded by the server once,
    /// in an untimed pass, before the timed ones.
    func negotiatedFormats(width: Int) async throws -> (
        webp: (bytes: Double, seconds: Double), jpeg: (bytes: Double, seconds: Double)
    ) {
        var configuration = serverConfiguration()
        configuration.negotiatesFormats = true
        let server = try await FixtureServer.start(configuration: configuration)
        let urls = Self.urls(base: server.baseURL, width: width, count: count)
        // Removed once every pass is done (see `measure`).
        let folders = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-e2e-formats-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folders) }
        func pass(advertising: Bool) async -> Sample {
            let folder = folders.appendingPathComponent(UUID().uuidString)
            let counter = ByteCounter()
            let pipeline = ImagePipeline {
                $0.diskCache = DiskCache(directory: folder)
                $0.advertisesDecodableFormats = advertising
                $0.eventHandler = { event in
                    if case .dataLoadFinished(_, let byteCount) = event { counter.add(byteCount) }
                }
            }
            let sample = await Self.loadImages(urls, pipeline: pipeline, server: server, counter: counter)
            // Untimed: the disk cache's writes end before its folder is removed.
            await pipeline.flush()
            return sample
        }
        _ = await pass(advertising: true)
        _ = await pass(advertising: false)
        var webp: [Sample] = []
        var jpeg: [Sample] = []
        for _ in 0..<runs {
            webp.append(await pass(advertising: true))
            jpeg.append(await pass(advertising: false))
        }
        await server.stop()
        guard webp.allSatisfy({ $0.failures == 0 }), jpeg.allSatisfy({ $0.failures == 0 }) else {
            throw BenchFailure(description: "images failed on the negotiating server")
        }
        return (
            (webp.median { Double($0.bytes) }, webp.median(\.seconds)),
            (jpeg.median { Double($0.bytes) }, jpeg.median(\.seconds))
        )
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
