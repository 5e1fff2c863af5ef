// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — an offline pack: a batch prefetched to disk with its progress, over loopback HTTP.

import Foundation
import Lookahead
import LookaheadFixtures
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(2))) struct OfflinePackOverHTTPTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-offline-\(UUID())")

    @Test func aBatchToDiskReportsCompletedFailedAndSkippedUntilItIsDone() async throws {
        let server = try await FixtureServer.start()
        let pipeline = ImagePipeline {
            $0.diskCache = DiskCache(directory: folder)
            $0.failureBackoff = nil
        }
        let images = (1...30).map { ImageRequest(url: server.imageURL($0, width: 24, height: 24)) }
        let broken = (1...4).map { ImageRequest(url: server.url("/hostile/status/404/missing-\($0)")) }
        // Two are on disk already: nothing to load for them.
        for request in images.prefix(2) { _ = try await pipeline.data(for: request) }
        let baseline = server.totalRequestCount

        let prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .diskCache, maxConcurrentRequestCount: 4)
        let reports = Mutex<[ImagePrefetcher.Progress]>([])
        let result = await prefetcher.prefetch(all: images + broken) { progress in
            reports.withLock { $0.append(progress) }
        }
        #expect(result.total == 34)
        #expect(result.completed == 28 && result.failed == 4 && result.skipped == 2, "\(result)")
        #expect(result.isFinished)
        let seen = reports.withLock { $0 }
        #expect(seen.count == 34, "one report per request")
        #expect(seen.last == result)
        #expect(
            zip(seen, seen.dropFirst()).allSatisfy {
                $0.completed + $0.failed + $0.skipped + 1 == $1.completed + $1.failed + $1.skipped
            }
        )
        #expect(server.totalRequestCount - baseline == 32, "the two on disk were not asked for")
        for request in images {
            #expect(pipeline.containsCachedImage(for: request, in: .disk))
        }
        await server.stop()
    }

    @Test func cancellingTheCallerStopsWhatIsLeft() async throws {
        let server = try await FixtureServer.start()
        let pipeline = ImagePipeline { $0.diskCache = DiskCache(directory: folder) }
        let requests = (1...200).map {
            ImageRequest(url: server.url("/hostile/trickle?intervalMs=1000&holdMs=60000&n=\($0)"))
        }
        let prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .diskCache, maxConcurrentRequestCount: 2)
        let batch = Task { await prefetcher.prefetch(all: requests) }
        await server.waitForRequests(path: "/hostile/trickle", count: 2)
        batch.cancel()
        let result = await batch.value
        #expect(result.completed == 0)
        #expect(result.failed + result.skipped < 200, "what was left never started: \(result)")
        #expect(server.requestCount(forPath: "/hostile/trickle") < 10)
        await server.stop()
    }
}
