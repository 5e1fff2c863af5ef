// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — RFC 9111 rules of the disk cache under HTTP semantics: Vary, stored fields returned with a hit,
// heuristic freshness, stale-while-revalidate, cached data of any age and must-understand; a scripted loader and an
// injected clock.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct HTTPCacheRulesTests {
    let folder = TemporaryDirectory("lookahead-http-cache-rules")
    let disk: DiskCache
    let url = URL(string: "https://example.com/photo.jpg")!
    let clock = HTTPCacheTestClock()

    init() {
        disk = DiskCache(directory: folder.url)
    }

    private func makePipeline(_ loader: ScriptedHTTPLoader) -> ImagePipeline {
        let clock = clock
        return ImagePipeline {
            $0.dataLoader = loader
            $0.advertisesDecodableFormats = false
            $0.diskCache = disk
            $0.memoryCache = nil
            $0.failureBackoff = nil
            $0.diskCachePolicy = .httpSemantics(now: { clock.now.withLock { $0 } })
        }
    }

    private func advance(_ seconds: TimeInterval) { clock.now.withLock { $0 = $0.addingTimeInterval(seconds) } }

    private func load(
        _ pipeline: ImagePipeline,
        headers: [String: String] = [:],
        options: ImageRequest.Options = []
    ) async throws(ImagePipeline.Error) -> ImagePipeline.DataResponse {
        var request = ImageRequest(url: url, options: options)
        request.headers = headers
        let response = try await pipeline.data(for: request)
        await pipeline.flush()
        return response
    }

    private func loadError(_ pipeline: ImagePipeline) async -> ImagePipeline.Error? {
        do {
            _ = try await load(pipeline)
            return nil
        } catch {
            return error
        }
    }

    private var date: String { HTTPDate.format(clock.now.withLock { $0 }) }

    @Test func aResponseThatVariesAnswersOnlyRequestsWithTheSameValues() async throws {
        let varying = ["Cache-Control": "max-age=600", "Vary": "Foo, bar"]
        let loader = ScriptedHTTPLoader(Array(repeating: .ok(headers: varying), count: 5))
        let pipeline = makePipeline(loader)
        #expect(try await load(pipeline, headers: ["Foo": "1", "Bar": "a"]).cacheType == nil)
        // Names are matched case-insensitively, values as sent (trimmed).
        #expect(try await load(pipeline, headers: ["foo": " 1", "BAR": "a"]).cacheType == .disk)
        // The whitespace around a list's members does not matter (cache-tests' vary-normalise-space).
        _ = try await load(pipeline, headers: ["Foo": "x,y", "Bar": "a"])
        #expect(try await load(pipeline, headers: ["Foo": " x , y ", "Bar": "a"]).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 2)
        // Another value, or a field the stored request sent and this one does not: the server is asked.
        #expect(try await load(pipeline, headers: ["Foo": "2", "Bar": "a"]).cacheType == nil)
        #expect(try await load(pipeline, headers: ["Foo": "2"]).cacheType == nil)
        #expect(loader.sent.withLock { $0.count } == 4)
        // Each variant is kept beside the first: all four answer from the disk.
        #expect(try await load(pipeline, headers: ["Foo": "2"]).cacheType == .disk)
        #expect(try await load(pipeline, headers: ["Foo": "2", "Bar": "a"]).cacheType == .disk)
        #expect(try await load(pipeline, headers: ["Foo": "1", "Bar": "a"]).cacheType == .disk)
        #expect(try await load(pipeline, headers: ["Foo": "x, y", "Bar": "a"]).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 4)
    }

    @Test func languageRangesMatchWhateverTheirCaseOrOrder() async throws {
        let varying = ["Cache-Control": "max-age=600", "Vary": "Accept-Language, Foo"]
        let loader = ScriptedHTTPLoader(Array(repeating: .ok(headers: varying), count: 4))
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline, headers: ["Accept-Language": "en, de", "Foo": "x, y"])
        // cache-tests' vary-normalise-lang-case and -order: one request, whatever the case or order of its ranges.
        #expect(try await load(pipeline, headers: ["Accept-Language": "eN, De", "Foo": "x, y"]).cacheType == .disk)
        #expect(try await load(pipeline, headers: ["Accept-Language": "de,en", "Foo": "x,y"]).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 1)
        // Other fields keep their case and order; another language is another variant.
        #expect(try await load(pipeline, headers: ["Accept-Language": "en, de", "Foo": "y, x"]).cacheType == nil)
        #expect(try await load(pipeline, headers: ["Accept-Language": "en, fr", "Foo": "x, y"]).cacheType == nil)
        #expect(loader.sent.withLock { $0.count } == 3)
    }

    @Test func theVariantsOfOneURLAreBounded() async throws {
        let varying = ["Cache-Control": "max-age=600", "Vary": "Foo"]
        let loader = ScriptedHTTPLoader(Array(repeating: .ok(headers: varying), count: 40))
        let pipeline = makePipeline(loader)
        for value in 0..<40 { _ = try await load(pipeline, headers: ["Foo": "\(value)"]) }
        // The first variant and one per slot, each with its metadata.
        #expect(disk.totalCount == 2 * (1 + HTTPCacheMetadata.variantSlots))
        #expect(try await load(pipeline, headers: ["Foo": "0"]).cacheType == .disk)
        // The last variant holds its slot until another variant of the same slot comes.
        #expect(try await load(pipeline, headers: ["Foo": "39"]).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 40)
    }

    @Test func mustUnderstandStoresAStatusTheCacheKnowsDespiteNoStore() async throws {
        // RFC 9111 §5.2.2.3; cache-tests' status-200-must-understand and status-599-must-understand.
        let directives = ["Cache-Control": "max-age=600, no-store, must-understand"]
        let loader = ScriptedHTTPLoader([.ok(headers: directives)])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        #expect(try await load(pipeline).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 1)
        let parsed = HTTPCacheHeaders(headers: directives)
        #expect(!parsed.forbidsStoring(status: 200) && !parsed.forbidsStoring(status: 404))
        #expect(parsed.forbidsStoring(status: 599), "a status RFC 9110 does not define")
        let unknown = HTTPCacheHeaders(headers: ["Cache-Control": "max-age=600, must-understand"])
        #expect(unknown.forbidsStoring(status: 299), "must-understand alone forbids an unknown status")
        #expect(HTTPCacheHeaders(headers: ["Cache-Control": "no-store"]).forbidsStoring(status: 200))
    }

    @Test func varyStarIsNeverReused() async throws {
        let loader = ScriptedHTTPLoader(
            Array(repeating: .ok(headers: ["Cache-Control": "max-age=600", "Vary": "*"]), count: 2)
        )
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        #expect(try await load(pipeline).cacheType == nil)
        #expect(loader.sent.withLock { $0.count } == 2)
        #expect(disk.cachedData(for: url.absoluteString) == nil)
    }

    @Test func aHitReturnsTheStoredFieldsWithItsCurrentAge() async throws {
        let loader = ScriptedHTTPLoader([
            .ok(headers: [
                "Cache-Control": "max-age=600", "Age": "30", "X-Test": "kept", "Connection": "x-hop", "X-Hop": "1",
                "Keep-Alive": "timeout=5",
            ])
        ])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        advance(100)
        let hit = try #require(try await load(pipeline).httpResponse)
        #expect(hit.statusCode == 200)
        #expect(hit.headers["x-test"] == "kept")
        #expect(hit.headers["cache-control"] == "max-age=600")
        #expect(hit.headers["age"] == "130", "30 s old on arrival, 100 s in the cache")
        // Fields of one connection, and those `Connection` names, are not stored (RFC 9111 §3.1).
        #expect(hit.headers["x-hop"] == nil && hit.headers["connection"] == nil && hit.headers["keep-alive"] == nil)
    }

    @Test func aLastModifiedWithoutALifetimeIsFreshForATenthOfItsAge() async throws {
        let tenDaysAgo = HTTPDate.format(clock.now.withLock { $0 }.addingTimeInterval(-10 * 86_400))
        let loader = ScriptedHTTPLoader([
            .ok(headers: ["Date": date, "Last-Modified": tenDaysAgo]),
            .status(304, headers: ["Last-Modified": tenDaysAgo]),
        ])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        advance(86_400 - 60)
        #expect(try await load(pipeline).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 1, "fresh for a day: a tenth of ten days")
        advance(120)
        _ = try await load(pipeline)
        #expect(loader.sent.withLock { $0.last } == ["If-Modified-Since": tenDaysAgo])
    }

    @Test func staleWhileRevalidateAnswersAtOnceAndRevalidatesInTheBackground() async throws {
        let loader = ScriptedHTTPLoader([
            .ok(headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60", "ETag": #""v1""#]),
            .status(500, headers: [:]),
            .status(304, headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60"]),
        ])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        advance(30)
        // Stale, within the window: served from the disk without waiting for the server, whose 500 would have failed
        // a revalidation made first. `load` flushes, so the background revalidation has run.
        #expect(try await load(pipeline).cacheType == .disk)
        #expect(loader.sent.withLock { $0 } == [[:], ["If-None-Match": #""v1""#]])
        // Still stale: served again, and this revalidation's 304 makes the entry fresh.
        #expect(try await load(pipeline).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 3)
        advance(5)
        #expect(try await load(pipeline).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 3, "fresh again after the 304")
        // Past the window, the stale entry waits for its revalidation: the script's end fails the connection,
        // and the stale entry (no must-revalidate) answers for the unreachable server.
        advance(200)
        #expect(try await load(pipeline).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 4)
    }

    @Test func staleWhileRevalidateDoesNotApplyUnderMustRevalidate() async throws {
        let loader = ScriptedHTTPLoader([
            .ok(headers: ["Cache-Control": "max-age=10, stale-while-revalidate=60, must-revalidate"])
        ])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        advance(30)
        // Revalidated first: the connection fails and must-revalidate forbids the stale answer.
        await #expect(throws: ImagePipeline.Error.self) { try await load(pipeline) }
        #expect(loader.sent.withLock { $0.count } == 2)
    }

    @Test func returnCacheDataElseLoadUsesStaleDataWithoutAsking() async throws {
        let loader = ScriptedHTTPLoader([.ok(headers: ["Cache-Control": "no-cache, must-revalidate"])])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        #expect(try await load(pipeline, options: .returnCacheDataElseLoad).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 1)
    }

    @Test func anErrorAnswerThatStaysFreshAnswersAgainFromTheDisk() async throws {
        let loader = ScriptedHTTPLoader([
            .ok(headers: ["Cache-Control": "max-age=0"]),
            .status(404, headers: ["Cache-Control": "max-age=600", "X-Reason": "gone"]),
            .status(404, headers: ["Cache-Control": "max-age=600"]),
            .status(404, headers: [:]),
        ])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        // The stale image is revalidated; the 404 replaces it, and answers again while fresh, with its fields.
        for _ in 0..<2 {
            let error = await loadError(pipeline)
            guard case .statusCodeUnacceptable(let status, let response) = error else {
                Issue.record("expected a 404, got \(String(describing: error))")
                return
            }
            #expect(status == 404)
            #expect(response?.headers["x-reason"] == "gone")
        }
        #expect(loader.sent.withLock { $0.count } == 2)
        #expect(disk.cachedData(for: url.absoluteString) == nil, "the image it replaced is gone")
        // A user's explicit retry asks the server again.
        await #expect(throws: ImagePipeline.Error.self) { try await load(pipeline, options: .skipFailureBackoff) }
        #expect(loader.sent.withLock { $0.count } == 3)
        // Once stale it is asked again; a 404 without a lifetime is not kept.
        advance(601)
        await #expect(throws: ImagePipeline.Error.self) { try await load(pipeline) }
        await #expect(throws: ImagePipeline.Error.self) { try await load(pipeline) }
        #expect(loader.sent.withLock { $0.count } == 5)
    }

    @Test func onlyHeuristicallyCacheableStatusesGetAHeuristicLifetime() {
        let now = Date(timeIntervalSince1970: 10_000_000)
        let headers: [String: String] = [
            "Last-Modified": HTTPDate.format(now.addingTimeInterval(-86_400)),
            "Date": HTTPDate.format(now),
        ]
        func metadata(_ status: Int) -> HTTPCacheMetadata {
            HTTPCacheMetadata(
                response: HTTPResponseInfo(url: nil, statusCode: status, headers: headers),
                requestHeaders: [:],
                requestTime: now,
                responseTime: now
            )
        }
        #expect(metadata(200).freshUntil == now.addingTimeInterval(8_640))
        #expect(metadata(404).freshUntil == now.addingTimeInterval(8_640))
        for status in [201, 202, 403, 502] {
            let freshUntil: Date? = metadata(status).freshUntil
            #expect(freshUntil == nil, "\(status)")
        }
    }
}
