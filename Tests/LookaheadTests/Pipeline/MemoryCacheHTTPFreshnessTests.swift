// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the memory cache keeps an image only while its response is fresh, under HTTP semantics.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct MemoryCacheHTTPFreshnessTests {
    let folder = TemporaryDirectory("lookahead-memory-freshness")
    let url = URL(string: "https://example.com/avatar.jpg")!
    let clock = HTTPCacheTestClock()
    let memoryClock = ManualClock()

    private func makePipeline(_ loader: ScriptedHTTPLoader, followsFreshness: Bool = true) -> ImagePipeline {
        let clock = clock
        return ImagePipeline {
            $0.dataLoader = loader
            $0.advertisesDecodableFormats = false
            $0.diskCache = DiskCache(directory: folder.url)
            $0.memoryCache = MemoryCache(clock: memoryClock)
            $0.failureBackoff = nil
            $0.diskCachePolicy = .httpSemantics(now: { clock.now.withLock { $0 } })
            $0.memoryCacheFollowsHTTPFreshness = followsFreshness
        }
    }

    private func advance(_ seconds: Int) {
        clock.now.withLock { $0 = $0.addingTimeInterval(TimeInterval(seconds)) }
        memoryClock.advance(by: .seconds(seconds))
    }

    private func load(_ pipeline: ImagePipeline) async throws -> ImageResponse.CacheType? {
        let response = try await pipeline.image(for: ImageRequest(url: url))
        await pipeline.flush()
        return response.cacheType
    }

    @Test func anImageLeavesTheMemoryCacheWhenItsResponseGoesStale() async throws {
        let loader = ScriptedHTTPLoader([
            .ok(headers: ["Cache-Control": "max-age=60", "Age": "20", "ETag": #""a""#]),
            .status(304, headers: ["Cache-Control": "max-age=60"]),
        ])
        let pipeline = makePipeline(loader)
        #expect(try await load(pipeline) == nil)
        advance(39)
        #expect(try await load(pipeline) == .memory, "20 s old on arrival: fresh 40 s")
        advance(2)
        // Stale in memory: the disk cache revalidates it, and the 304 makes it fresh again in both.
        #expect(try await load(pipeline) == .disk)
        #expect(loader.sent.withLock { $0.last } == ["If-None-Match": #""a""#])
        advance(30)
        #expect(try await load(pipeline) == .memory)
        #expect(loader.sent.withLock { $0.count } == 2)
    }

    @Test func noCacheAndStaleResponsesAreNotKeptInMemory() async throws {
        for cacheControl in ["no-cache", "no-store", "max-age=0"] {
            let loader = ScriptedHTTPLoader(Array(repeating: .ok(headers: ["Cache-Control": cacheControl]), count: 2))
            let pipeline = makePipeline(loader)
            _ = try await load(pipeline)
            #expect(try await load(pipeline) != .memory, "\(cacheControl)")
            #expect(loader.sent.withLock { $0.count } == 2, "\(cacheControl)")
            pipeline.invalidate()
        }
    }

    @Test func withTheOptionOffTheMemoryCacheKeepsWhatItDecoded() async throws {
        let loader = ScriptedHTTPLoader([.ok(headers: ["Cache-Control": "no-cache"])])
        let pipeline = makePipeline(loader, followsFreshness: false)
        _ = try await load(pipeline)
        advance(3_600)
        #expect(try await load(pipeline) == .memory)
        #expect(loader.sent.withLock { $0.count } == 1)
    }

    @Test func aMemoryHitReturnsItsResponseWithItsAgeAndHonoursVary() async throws {
        let loader = ScriptedHTTPLoader(
            Array(
                repeating: .ok(headers: ["Cache-Control": "max-age=600", "Age": "5", "Vary": "Foo", "X-Id": "1"]),
                count: 2
            )
        )
        let pipeline = makePipeline(loader)
        var request = ImageRequest(url: url)
        request.headers = ["Foo": "1"]
        _ = try await pipeline.image(for: request)
        advance(10)
        let hit = try await pipeline.image(for: request)
        #expect(hit.cacheType == .memory)
        #expect(hit.httpResponse?.headers["x-id"] == "1")
        #expect(hit.httpResponse?.headers["age"] == "15", "5 s old on arrival, 10 s in memory")
        // Another value of the field the response varies on: neither the memory nor the disk entry answers.
        request.headers = ["Foo": "2"]
        #expect(pipeline.cachedImage(for: request) == nil)
        #expect(try await pipeline.image(for: request).cacheType == nil)
        #expect(loader.sent.withLock { $0.count } == 2)
    }
}
