// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — 200 responses that are not images, over real loopback HTTP: a typed error, nothing left
// in a real disk cache, and the next load asks the server again.

import Foundation
import Lookahead
import LookaheadFixtures
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(2))) struct HostileBodiesOverHTTPTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lookahead-hostile-\(UUID().uuidString)"
    )

    private func makePipeline(_ disk: DiskCache) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = URLSessionDataLoader()
            $0.diskCache = disk
            $0.memoryCache = nil
        }
    }

    private func entries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.count == 64 }
    }

    private func failure(_ operation: () async throws -> Void) async -> ImagePipeline.Error? {
        do {
            try await operation()
            return nil
        } catch {
            return error as? ImagePipeline.Error
        }
    }

    private static func isExpected(_ error: ImagePipeline.Error?, for path: String) -> Bool {
        switch (path, error) {
        case ("/hostile/html", .noDecoder?): true
        case ("/hostile/truncated.jpg", .decodingFailed(codec: "JPEG", _)?): true
        default: false
        }
    }

    @Test(arguments: ["/hostile/html", "/hostile/truncated.jpg"])
    func aBodyThatIsNotAnImageIsNeverCachedAndIsAskedForAgain(path: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk)
        let url = server.url(path)
        // Every load after the first is an explicit retry: the failure backoff would answer it without asking.
        var retry = ImageRequest(url: url)
        retry.options.insert(.skipFailureBackoff)
        for attempt in 1...2 {
            let error = await failure {
                _ = try await pipeline.image(for: attempt == 1 ? ImageRequest(url: url) : retry)
            }
            #expect(Self.isExpected(error, for: path), "attempt \(attempt): \(String(describing: error))")
            await pipeline.flush()
            #expect(!disk.containsData(for: url.absoluteString))
            #expect(entries().isEmpty, "entries on disk after attempt \(attempt): \(entries())")
            #expect(server.requestCount(forPath: path) == attempt, "the server is asked on every attempt")
        }
        // Data-only loads (what a disk-cache prefetch makes) refuse it too, and store nothing.
        let error = await failure { _ = try await pipeline.data(for: retry) }
        #expect(Self.isExpected(error, for: path), "data only: \(String(describing: error))")
        await pipeline.flush()
        #expect(entries().isEmpty)
        #expect(server.requestCount(forPath: path) == 3)
        await server.stop()
    }

    @Test func theScanBombFailsFastWithTheScanLimitAndIsNotCached() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        // When the download ended and when decoding failed: the difference is the decoder's time.
        let clock = ContinuousClock()
        let moments = Mutex<(loaded: ContinuousClock.Instant?, failed: ContinuousClock.Instant?)>((nil, nil))
        let pipeline = ImagePipeline {
            $0.dataLoader = URLSessionDataLoader()
            $0.diskCache = disk
            $0.memoryCache = nil
            $0.eventHandler = { event in
                switch event {
                case .dataLoadFinished: moments.withLock { $0.loaded = clock.now }
                case .decodingFailed: moments.withLock { $0.failed = clock.now }
                default: break
                }
            }
        }
        let url = server.url("/hostile/scan-bomb.jpg")
        let error = await failure { _ = try await pipeline.image(for: url) }
        let (loaded, failed) = moments.withLock { $0 }
        guard case .decodingFailed(codec: "JPEG", let message)? = error else {
            Issue.record("got \(String(describing: error))")
            await server.stop()
            return
        }
        // 1024×1024 and 5,010 scans: over the scan budget, refused before any scan is decoded.
        #expect(message.contains("too many scans: 5010 scans"), "\(message)")
        let decoding = try #require(loaded.flatMap { start in failed.map { start.duration(to: $0) } })
        print("scan bomb over HTTP: decoding failed \(decoding) after the download (\(message))")
        await pipeline.flush()
        #expect(entries().isEmpty)
        await server.stop()
    }

    @Test func aGoodImageIsStoredOnceItDecodes() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk)
        let url = server.imageURL(7, width: 120, height: 90)
        let small = ImageRequest(url: url, thumbnail: ThumbnailOptions(maximumPixelSize: 40))
        _ = try await pipeline.image(for: small)
        await pipeline.flush()
        #expect(entries().count == 1)
        #expect(try await pipeline.image(for: ImageRequest(url: url)).cacheType == .disk)
        #expect(server.requestCount(forPath: "/images/7.jpg") == 1)
        await server.stop()
    }
}
