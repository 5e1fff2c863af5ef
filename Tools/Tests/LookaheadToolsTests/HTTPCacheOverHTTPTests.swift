// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — the disk cache's HTTP semantics over real loopback HTTP: the server counts the requests,
// the 304 answers and the body bytes it sent.

import Foundation
import Lookahead
import LookaheadFixtures
import Synchronization
import Testing

/// A clock the test moves by hand, so freshness expires without waiting: a date for HTTP freshness, and a `Clock`
/// for the memory cache's expiry that moves with it.
final class HandClock: Clock, Sendable {
    private static let start = Date(timeIntervalSince1970: 2_000_000_000)
    private let origin = ContinuousClock.now
    private let current = Mutex(HandClock.start)
    var date: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    var now: ContinuousClock.Instant { origin.advanced(by: .seconds(date.timeIntervalSince(Self.start))) }
    var minimumResolution: Duration { .zero }
    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        throw CancellationError()  // nothing here waits on this clock
    }
}

/// The server's answers as from a server on the test's clock: their `Date` becomes the hand clock's time. The
/// fixture server's `Date` is the real time, and a client clock ahead of it makes every response arrive old
/// (RFC 9111 §4.2.3), which is right, but not what these tests are about.
struct ServerOnTheClock: DataLoading {
    let base: any DataLoading
    let clock: HandClock

    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        do {
            var response = try await base.loadData(for: request)
            response.response = response.response.map(dated)
            return response
        } catch DataLoadingError.statusCodeUnacceptable(let code, let info?) {
            throw DataLoadingError.statusCodeUnacceptable(code, dated(info))
        }
    }

    private func dated(_ info: HTTPResponseInfo) -> HTTPResponseInfo {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var info = info
        info.headers["date"] = formatter.string(from: clock.date)
        return info
    }
}

@Suite(.timeLimit(.minutes(2))) struct HTTPCacheOverHTTPTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lookahead-http-semantics-\(UUID().uuidString)"
    )
    private let clock = HandClock()
    private func makePipeline(
        _ disk: DiskCache,
        policy: DiskCachePolicy? = nil,
        transport: Transport = .default,
        memoryCache: MemoryCache? = nil  // none by default: every request reaches the disk cache or the network
    ) -> ImagePipeline {
        let clock = clock
        return ImagePipeline {
            $0.dataLoader = ServerOnTheClock(base: transport.makeLoader(), clock: clock)
            $0.diskCache = disk
            $0.memoryCache = memoryCache
            $0.diskCachePolicy = policy ?? .httpSemantics(now: { clock.date })
        }
    }

    private func load(_ url: URL, _ pipeline: ImagePipeline, _ disk: DiskCache) async throws -> ImageResponse {
        let response = try await pipeline.image(for: ImageRequest(url: url))
        await disk.flush()
        return response
    }

    @Test(arguments: Transport.allCases)
    func a304RevalidationTransfersNoBodyAndRefreshesFreshness(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        let url = server.cacheableImageURL(3, cacheControl: "max-age=60")
        let path = "/cacheable/3.jpg"

        let first = try await load(url, pipeline, disk)
        #expect(first.cacheType == nil)
        let fullBody = server.bodyBytesSent(forPath: path)
        #expect(fullBody > 0)
        // Fresh: no request.
        clock.advance(59)
        #expect(try await load(url, pipeline, disk).cacheType == .disk)
        #expect(server.requestCount(forPath: path) == 1)
        // Stale: exactly one conditional request, answered 304 without a body.
        clock.advance(2)
        let revalidated = try await load(url, pipeline, disk)
        #expect(revalidated.cacheType == .disk)
        #expect(revalidated.image == first.image)
        #expect(server.requestCount(forPath: path) == 2)
        #expect(server.notModifiedCount(forPath: path) == 1)
        #expect(server.bodyBytesSent(forPath: path) == fullBody)
        // The 304 refreshed the entry: fresh again for 60 s, so no request at all.
        clock.advance(59)
        #expect(try await load(url, pipeline, disk).cacheType == .disk)
        #expect(
            try await makePipeline(disk, transport: transport).image(for: ImageRequest(url: url)).cacheType == .disk
        )
        #expect(server.requestCount(forPath: path) == 2)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func noStoreIsNeverStored(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        let url = server.cacheableImageURL(4, cacheControl: "no-store")
        let path = "/cacheable/4.jpg"
        #expect(try await load(url, pipeline, disk).cacheType == nil)
        #expect(try await load(url, pipeline, disk).cacheType == nil)
        #expect(disk.cachedData(for: url.absoluteString) == nil)
        #expect(server.requestCount(forPath: path) == 2)
        #expect(server.notModifiedCount(forPath: path) == 0)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func theDefaultPolicyNeverAsksAgain(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, policy: .cacheForever, transport: transport)
        let url = server.cacheableImageURL(5, cacheControl: "no-cache, max-age=0")
        let path = "/cacheable/5.jpg"
        #expect(try await load(url, pipeline, disk).cacheType == nil)
        clock.advance(1_000_000)
        #expect(try await load(url, pipeline, disk).cacheType == .disk)
        #expect(server.requestCount(forPath: path) == 1)
        #expect(server.notModifiedCount(forPath: path) == 0)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func aChangedETagDownloadsTheNewImageAndThenRevalidatesIt(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        let url = server.cacheableImageURL(6, cacheControl: "no-cache")
        let path = "/cacheable/6.jpg"
        let old = try await load(url, pipeline, disk)
        let oldBody = server.bodyBytesSent(forPath: path)

        server.setCacheableVersion("v2", forPath: path)
        let new = try await load(url, pipeline, disk)
        #expect(new.cacheType == nil)
        #expect(new.image != old.image)
        #expect(server.notModifiedCount(forPath: path) == 0)
        #expect(server.bodyBytesSent(forPath: path) > oldBody)

        // `no-cache`: revalidated on every use, now against the new ETag.
        let again = try await load(url, pipeline, disk)
        #expect(again.cacheType == .disk)
        #expect(again.image == new.image)
        #expect(server.notModifiedCount(forPath: path) == 1)
        #expect(server.requestCount(forPath: path) == 3)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func aStaleEntryIsServedWhenTheServerIsGone(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        let url = server.cacheableImageURL(7, cacheControl: "max-age=1")
        let first = try await load(url, pipeline, disk)
        await server.stop()
        clock.advance(10)
        let stale = try await load(url, pipeline, disk)
        #expect(stale.cacheType == .disk)
        #expect(stale.image == first.image)
    }

    @Test(arguments: Transport.allCases)
    func theAgeTheServerSendsCountsAgainstTheLifetime(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        let url = server.cacheableImageURL(8, cacheControl: "max-age=60", age: 50)
        _ = try await load(url, pipeline, disk)
        clock.advance(5)
        #expect(try await load(url, pipeline, disk).cacheType == .disk)
        #expect(server.requestCount(forPath: "/cacheable/8.jpg") == 1, "55 s old: fresh")
        clock.advance(10)
        #expect(try await load(url, pipeline, disk).cacheType == .disk)
        #expect(server.notModifiedCount(forPath: "/cacheable/8.jpg") == 1, "65 s old: revalidated")
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func aMustRevalidateEntryIsNotServedWhenTheServerIsGone(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        let url = server.cacheableImageURL(9, cacheControl: "max-age=1, must-revalidate")
        _ = try await load(url, pipeline, disk)
        await server.stop()
        clock.advance(10)
        do {
            _ = try await load(url, pipeline, disk)
            Issue.record("a stale must-revalidate entry was served")
        } catch let error as ImagePipeline.Error {
            // The cache's own 504 (RFC 9111 §5.2.2.2), not the transport's error.
            guard case .statusCodeUnacceptable(504, let response?) = error, response.headers.isEmpty else {
                Issue.record("expected the cache's 504, got \(error)")
                return
            }
        } catch {
            Issue.record("expected a pipeline error, got \(error)")
        }
    }

    @Test func a304ToAnUnconditionalRequestIsATypedErrorAndNothingIsStored() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let url = server.url("/status/304")
        await #expect {
            try await load(url, makePipeline(disk), disk)
        } throws: { error in
            if case .statusCodeUnacceptable(304, _) = error as? ImagePipeline.Error { true } else { false }
        }
        #expect(disk.cachedData(for: url.absoluteString) == nil)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func aDiskHitReturnsTheStoredResponseAndAnswersOnlyItsVariant(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        let url = server.cacheableImageURL(10, cacheControl: "max-age=600", vary: "X-Variant")
        var request = ImageRequest(url: url)
        request.headers = ["X-Variant": "a"]
        _ = try await pipeline.image(for: request)
        await disk.flush()
        clock.advance(30)
        let hit = try await pipeline.image(for: request)
        #expect(hit.cacheType == .disk)
        #expect(hit.httpResponse?.statusCode == 200)
        #expect(hit.httpResponse?.headers["etag"] == #""v1-10""#)
        #expect(hit.httpResponse?.headers["content-type"] == "image/jpeg")
        #expect(hit.httpResponse?.headers["age"] == "30")
        #expect(server.requestCount(forPath: "/cacheable/10.jpg") == 1)
        // Another value of the field the response varies on: asked of the server.
        request.headers = ["X-Variant": "b"]
        #expect(try await pipeline.image(for: request).cacheType == nil)
        #expect(server.requestCount(forPath: "/cacheable/10.jpg") == 2)
        // Both variants are kept: each answers its own request from the disk.
        await disk.flush()
        #expect(try await pipeline.image(for: request).cacheType == .disk)
        request.headers = ["X-Variant": "a"]
        #expect(try await pipeline.image(for: request).cacheType == .disk)
        #expect(server.requestCount(forPath: "/cacheable/10.jpg") == 2)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func staleWhileRevalidateAnswersAtOnceAndRevalidatesInTheBackground(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        let url = server.cacheableImageURL(11, cacheControl: "max-age=10, stale-while-revalidate=60")
        _ = try await load(url, pipeline, disk)
        clock.advance(30)
        #expect(try await load(url, pipeline, disk).cacheType == .disk)
        await pipeline.flush()
        #expect(server.notModifiedCount(forPath: "/cacheable/11.jpg") == 1, "revalidated once, in the background")
        // The 304 made it fresh again.
        clock.advance(5)
        #expect(try await load(url, pipeline, disk).cacheType == .disk)
        #expect(server.requestCount(forPath: "/cacheable/11.jpg") == 2)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func anImmutableResponseIsNotAskedForWhileFreshAndRevalidatedOnceStale(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let pipeline = makePipeline(disk, transport: transport)
        let url = server.cacheableImageURL(13, cacheControl: "max-age=60, immutable")
        let path = "/cacheable/13.jpg"
        #expect(try await load(url, pipeline, disk).cacheType == nil)
        clock.advance(59)
        #expect(try await load(url, pipeline, disk).cacheType == .disk)
        #expect(server.requestCount(forPath: path) == 1, "fresh and immutable: not asked")
        // RFC 8246: immutable spares revalidation only while fresh.
        clock.advance(2)
        #expect(try await load(url, pipeline, disk).cacheType == .disk)
        #expect(server.requestCount(forPath: path) == 2)
        #expect(server.notModifiedCount(forPath: path) == 1)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func theMemoryCacheHoldsAnImageOnlyWhileItsResponseIsFresh(transport: Transport) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await FixtureServer.start()
        let disk = DiskCache(directory: folder)
        let memory = MemoryCache(clock: clock, followsSystemMemoryPressure: false)
        let pipeline = makePipeline(disk, transport: transport, memoryCache: memory)
        #expect(pipeline.configuration.memoryCacheFollowsHTTPFreshness, "the default")
        let url = server.cacheableImageURL(14, cacheControl: "max-age=60")
        let path = "/cacheable/14.jpg"
        #expect(try await load(url, pipeline, disk).cacheType == nil)
        clock.advance(30)
        #expect(try await load(url, pipeline, disk).cacheType == .memory, "fresh: from memory")
        clock.advance(31)
        let stale = try await load(url, pipeline, disk)
        #expect(stale.cacheType != .memory, "stale: not from memory")
        #expect(server.requestCount(forPath: path) == 2)
        #expect(server.notModifiedCount(forPath: path) == 1, "revalidated, not downloaded again")
        #expect(try await load(url, pipeline, disk).cacheType == .memory, "the 304 made it fresh again")
        await server.stop()
    }
}
