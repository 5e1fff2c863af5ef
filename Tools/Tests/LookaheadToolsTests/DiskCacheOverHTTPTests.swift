// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — memory → disk → network over real HTTP: the server's request counts prove each option.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(2))) struct DiskCacheOverHTTPTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lookahead-http-disk-\(UUID().uuidString)"
    )

    private func makePipeline(_ disk: DiskCache) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = DefaultDataLoader()
            $0.diskCache = disk
            $0.memoryCache = nil  // every request reaches the disk cache or the network
        }
    }

    @Test func eachOptionReachesTheServerOnlyWhenItShould() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk)
        let url = server.imageURL(12, width: 80, height: 60)
        let path = "/images/12.jpg"
        func request(_ options: ImageRequest.Options = []) -> ImageRequest { ImageRequest(url: url, options: options) }

        // Cache only, nothing cached: an error and no request.
        await #expect(throws: ImagePipeline.Error.self) {
            try await pipeline.image(for: request([.returnCacheDataDontLoad]))
        }
        #expect(server.requestCount(forPath: path) == 0)

        // Not written to disk: the next load goes to the network again.
        #expect(try await pipeline.image(for: request([.disableDiskCacheWrites])).cacheType == nil)
        await disk.flush()
        #expect(try await pipeline.image(for: request()).cacheType == nil)
        #expect(server.requestCount(forPath: path) == 2)
        await disk.flush()

        // Now on disk: served from it, also to cache-only requests and to a new pipeline (a relaunch).
        #expect(try await pipeline.image(for: request()).cacheType == .disk)
        #expect(try await pipeline.image(for: request([.returnCacheDataDontLoad])).cacheType == .disk)
        #expect(try await makePipeline(disk).image(for: request()).cacheType == .disk)
        #expect(server.requestCount(forPath: path) == 2)

        // Reads disabled or reload: the network, once each.
        #expect(try await pipeline.image(for: request([.disableDiskCacheReads])).cacheType == nil)
        #expect(try await pipeline.image(for: request([.reloadIgnoringCachedData])).cacheType == nil)
        #expect(server.requestCount(forPath: path) == 4)
        await server.stop()
    }
}
