// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — the web benchmark's passes: Lookahead's pipeline against the origin over the link.

import Dispatch
import Foundation
import Lookahead
import LookaheadFixtures
import Synchronization

/// Runs the passes of `lookahead-bench web`: a new pipeline for each, so each starts with a new connection and a
/// full TLS handshake, and an empty disk cache.
struct WebClient: Sendable {
    let session: WebSession
    let http: WebHTTPVersion
    let side: Int
    /// The pipeline's `dataLoadingConcurrency`, `nil` for its default.
    var dataLoadingConcurrency: Int? = nil

    /// One timed pass.
    struct Pass {
        var seconds: Double
        var bytes: Int
        var connections: WebConnectionCount
    }

    /// What a pipeline's requests ask the negotiating origin for.
    enum Formats {
        /// The pipeline's default: `Accept` names every format its decoders read, AVIF and WebP first.
        case advertised
        /// `Accept: image/webp,image/jpeg` from the loader's headers, the pipeline advertising nothing.
        case webPOnly
        /// No `Accept` of the pipeline's: the origin sends JPEG.
        case none
    }

    /// The cold pass with `Accept` for AVIF and WebP, for WebP alone, and with none.
    struct Cold {
        var negotiated: [Pass] = []
        var webP: [Pass] = []
        var jpeg: [Pass] = []
        /// The connections of the first negotiated pass.
        var connections: WebConnectionCount { negotiated.first?.connections ?? WebConnectionCount() }
    }

    func url(_ path: String, negotiated: Bool) -> URL {
        let folder = negotiated ? path.replacingOccurrences(of: "/photos/", with: "/negotiated/") : path
        return URL(string: session.origin.baseURL(http: http) + folder)!
    }

    /// The default configuration, trusting the run's certificate, with a disk cache in `folder` (none for `nil`).
    func makePipeline(folder: URL?, formats: Formats = .advertised, counter: ByteCounter) -> ImagePipeline {
        var options = DataLoaderOptions()
        options.trustedCertificates = [session.origin.certificate]
        if formats == .webPOnly { options.headers["Accept"] = "image/webp,image/jpeg" }
        return ImagePipeline {
            $0.dataLoader = DefaultDataLoader(options: options)
            $0.diskCache = folder.map { DiskCache(directory: $0) }
            $0.advertisesDecodableFormats = formats == .advertised
            if let dataLoadingConcurrency { $0.dataLoadingConcurrency = dataLoadingConcurrency }
            $0.eventHandler = { event in
                if case .dataLoadFinished(_, let byteCount) = event { counter.add(byteCount) }
            }
        }
    }

    func thumbnailRequest(_ url: URL, priority: ImageRequest.Priority = .normal) -> ImageRequest {
        ImageRequest(url: url, priority: priority, thumbnail: ThumbnailOptions(maximumPixelSize: side))
    }

    /// Loads `urls` as thumbnails at once on a new pipeline, until every one is decoded.
    private func pass(_ urls: [URL], formats: Formats, priority: ImageRequest.Priority) async throws -> Pass {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-web-cache-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let counter = ByteCounter()
        let pipeline = makePipeline(folder: folder, formats: formats, counter: counter)
        let offset = session.origin.logOffset()
        let clock = ContinuousClock()
        let start = clock.now
        let tasks = urls.map { pipeline.imageTask(with: thumbnailRequest($0, priority: priority)) }
        var failures = 0
        for task in tasks {
            do { blackHole(try await task.response.image.width) } catch { failures += 1 }
        }
        let seconds = (clock.now - start).seconds
        // Untimed: the disk cache's writes end before its folder is removed.
        await pipeline.flush()
        guard failures == 0 else { throw BenchFailure(description: "\(failures) of \(urls.count) images failed") }
        return Pass(seconds: seconds, bytes: counter.total, connections: session.origin.connections(since: offset))
    }

    /// The first screen: `urls` on screen (high priority) from a cold start.
    func firstScreen(_ urls: [URL], runs: Int) async throws -> [Pass] {
        _ = try await pass(urls, formats: .advertised, priority: .high)  // nginx reads its files into memory
        var passes: [Pass] = []
        for _ in 0..<runs { passes.append(try await pass(urls, formats: .advertised, priority: .high)) }
        return passes
    }

    /// Every URL as a thumbnail, cold, with the default `Accept`, with WebP's alone, and with none (JPEG), in turn.
    func cold(_ urls: [URL], runs: Int) async throws -> Cold {
        var cold = Cold()
        for _ in 0..<runs {
            cold.negotiated.append(try await pass(urls, formats: .advertised, priority: .normal))
            cold.webP.append(try await pass(urls, formats: .webPOnly, priority: .normal))
            cold.jpeg.append(try await pass(urls, formats: .none, priority: .normal))
        }
        return cold
    }

    /// Decoding alone: the bodies the negotiated pass receives, decoded to thumbnails on every core at once; the
    /// fastest of 5 runs, as a floor on a shared machine.
    func decodingFloor(_ urls: [URL]) async throws -> Double {
        let pipeline = makePipeline(folder: nil, counter: ByteCounter())
        var bodies: [Data] = []
        for url in urls { bodies.append(try await pipeline.data(for: ImageRequest(url: url)).data) }
        let decoders = ImagePipeline.Configuration().decoders
        let context = ImageDecodingContext(thumbnail: ThumbnailOptions(maximumPixelSize: side))
        let loaded = bodies
        var samples: [Double] = []
        for _ in 0..<5 {
            let clock = ContinuousClock()
            samples.append(
                clock.measure {
                    let failures = Atomic<Int>(0)
                    DispatchQueue.concurrentPerform(iterations: loaded.count) { index in
                        switch ImageDecoders.decode(loaded[index], with: decoders, context: context) {
                        case .success(let decoded): blackHole(decoded.image)
                        case .failure: failures.add(1, ordering: .relaxed)
                        }
                    }
                    blackHole(failures.load(ordering: .relaxed))
                }
                .seconds
            )
        }
        return samples.min() ?? 0
    }

    /// An image that becomes visible: alone on a warm connection, then while `prefetchIndices` are loading at low
    /// priority on it. One item of `visibleIndices` per run; seconds until it is decoded, both ways.
    func visibleUnderLoad(_ urls: [URL], visibleIndices: [Int], prefetchIndices: [Int]) async throws -> [(
        alone: Double, loaded: Double
    )] {
        var results: [(alone: Double, loaded: Double)] = []
        for index in visibleIndices {
            let alone = try await visibleTime(urls[index], warmUp: urls[0], prefetching: [])
            let loaded = try await visibleTime(
                urls[index],
                warmUp: urls[0],
                prefetching: prefetchIndices.map { urls[$0] }
            )
            results.append((alone: alone, loaded: loaded))
        }
        return results
    }

    /// On a new pipeline: one image to open the connection, then `prefetching` at low priority, then `url` at high
    /// priority once they are in flight (a round trip after they started, at least 100 ms); its time to decoded.
    private func visibleTime(_ url: URL, warmUp: URL, prefetching: [URL]) async throws -> Double {
        let pipeline = makePipeline(folder: nil, counter: ByteCounter())
        _ = try await pipeline.image(for: thumbnailRequest(warmUp))
        let background = prefetching.map { pipeline.imageTask(with: thumbnailRequest($0, priority: .low)) }
        defer { for task in background { task.cancel() } }
        if !background.isEmpty {
            try await Task.sleep(for: .seconds(max(0.1, session.profile.roundTripSeconds)))
        }
        let clock = ContinuousClock()
        let start = clock.now
        _ = try await pipeline.image(for: thumbnailRequest(url, priority: .high))
        return (clock.now - start).seconds
    }
}
