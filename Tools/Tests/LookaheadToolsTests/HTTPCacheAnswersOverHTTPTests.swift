// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — the disk cache's answers over real loopback HTTP on both loaders: heuristic freshness,
// stored error answers, stale-if-error and data of any age. The failure backoff is off, so every refusal to ask the
// server is the cache's.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(2))) struct HTTPCacheAnswersOverHTTPTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lookahead-http-answers-\(UUID().uuidString)"
    )
    private let clock = HandClock()

    private func makePipeline(_ disk: DiskCache, transport: Transport) -> ImagePipeline {
        let clock = clock
        return ImagePipeline {
            $0.dataLoader = ServerOnTheClock(base: transport.makeLoader(), clock: clock)
            $0.diskCache = disk
            $0.memoryCache = nil
            $0.failureBackoff = nil
            $0.diskCachePolicy = .httpSemantics(now: { clock.date })
        }
    }

    private func load(
        _ url: URL,
        _ pipeline: ImagePipeline,
        _ disk: DiskCache,
        options: ImageRequest.Options = []
    ) async -> Result<ImageResponse, ImagePipeline.Error> {
        let result: Result<ImageResponse, ImagePipeline.Error>
        do {
            result = .success(try await pipeline.image(for: ImageRequest(url: url, options: options)))
        } catch {
            result = .failure(error)
        }
        await disk.flush()
        return result
    }

    private static func status(_ result: Result<ImageResponse, ImagePipeline.Error>) -> Int? {
        guard case .failure(.statusCodeUnacceptable(let status, _)) = result else { return nil }
        return status
    }

    @Test(arguments: Transport.allCases)
    func aLastModifiedWithoutALifetimeIsFreshForAWeek(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        // Last modified in 1994 and no Cache-Control: a tenth of its age, at most a week (RFC 9111 §4.2.2).
        let url = server.cacheableImageURL(20)
        _ = try await load(url, pipeline, disk).get()
        clock.advance(6 * 86_400)
        #expect(try await load(url, pipeline, disk).get().cacheType == .disk)
        #expect(server.requestCount(forPath: "/cacheable/20.jpg") == 1)
        clock.advance(2 * 86_400)
        #expect(try await load(url, pipeline, disk).get().cacheType == .disk)
        #expect(server.notModifiedCount(forPath: "/cacheable/20.jpg") == 1, "8 days old: revalidated")
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func aNotFoundWithALifetimeAnswersFromTheDiskWhileFresh(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        let url = server.cacheableImageURL(21, cacheControl: "max-age=60")
        server.setCacheableStatus(404, forPath: "/cacheable/21.jpg")
        #expect(Self.status(await load(url, pipeline, disk)) == 404)
        clock.advance(30)
        let kept = await load(url, pipeline, disk)
        #expect(Self.status(kept) == 404)
        if case .failure(.statusCodeUnacceptable(_, let response?)) = kept {
            #expect(response.headers["age"] == "30")
        }
        #expect(server.requestCount(forPath: "/cacheable/21.jpg") == 1, "answered by the stored 404")
        // Expired, the server is asked again, and the image is back.
        server.setCacheableStatus(nil, forPath: "/cacheable/21.jpg")
        clock.advance(31)
        #expect(try await load(url, pipeline, disk).get().cacheType == nil)
        #expect(server.requestCount(forPath: "/cacheable/21.jpg") == 2)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func aStaleEntryAnswersAServerErrorOnlyWithinStaleIfError(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        let url = server.cacheableImageURL(22, cacheControl: "max-age=10, stale-if-error=60")
        _ = try await load(url, pipeline, disk).get()
        server.setCacheableStatus(503, forPath: "/cacheable/22.jpg")
        clock.advance(30)
        #expect(try await load(url, pipeline, disk).get().cacheType == .disk, "20 s past its lifetime: within 60")
        clock.advance(60)
        #expect(Self.status(await load(url, pipeline, disk)) == 503, "80 s past its lifetime")
        #expect(server.requestCount(forPath: "/cacheable/22.jpg") == 3)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func returnCacheDataElseLoadTakesStaleDataAndLoadsWhatIsMissing(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        let stored = server.cacheableImageURL(23, cacheControl: "max-age=1, must-revalidate")
        _ = try await load(stored, pipeline, disk).get()
        clock.advance(3_600)
        let old = try await load(stored, pipeline, disk, options: .returnCacheDataElseLoad).get()
        #expect(old.cacheType == .disk)
        #expect(server.requestCount(forPath: "/cacheable/23.jpg") == 1, "an hour stale, and not asked")
        // Without the option the same entry is revalidated.
        _ = try await load(stored, pipeline, disk).get()
        #expect(server.notModifiedCount(forPath: "/cacheable/23.jpg") == 1)
        let missing = server.cacheableImageURL(24, cacheControl: "max-age=1")
        #expect(try await load(missing, pipeline, disk, options: .returnCacheDataElseLoad).get().cacheType == nil)
        #expect(server.requestCount(forPath: "/cacheable/24.jpg") == 1)
        await server.stop()
    }
}
