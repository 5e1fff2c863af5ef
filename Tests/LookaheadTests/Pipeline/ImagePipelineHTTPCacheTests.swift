// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the disk cache under HTTP cache semantics, with a scripted loader and an injected clock.

import Foundation
import Testing

@testable import Lookahead

/// Answers each load with the next scripted outcome and records the request headers it was sent.
final class ScriptedHTTPLoader: DataLoading {
    enum Outcome: Sendable {
        case ok(headers: [String: String])
        case status(Int, headers: [String: String])
        case connectionFailed
    }

    let script: Locked<[Outcome]>
    let sent = Locked<[[String: String]]>([])

    init(_ outcomes: [Outcome]) { script = Locked(outcomes) }

    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        sent.withLock { $0.append(request.headers) }
        let next = script.withLock { $0.isEmpty ? Outcome.connectionFailed : $0.removeFirst() }
        switch next {
        case .ok(let headers):
            return DataLoadResponse(
                data: TestImages.jpeg,
                response: HTTPResponseInfo(url: request.url, statusCode: 200, headers: headers)
            )
        case .status(let code, let headers):
            throw DataLoadingError.statusCodeUnacceptable(
                code,
                HTTPResponseInfo(url: request.url, statusCode: code, headers: headers)
            )
        case .connectionFailed:
            throw DataLoadingError.transportFailed(TransportFailure(kind: .connectionRefused, message: "refused"))
        }
    }
}

/// A clock the test moves by hand.
final class HTTPCacheTestClock: Sendable {
    let now = Locked(Date(timeIntervalSince1970: 1_000_000))
}

@Suite(.timeLimit(.minutes(1))) struct ImagePipelineHTTPCacheTests {
    let folder = TemporaryDirectory("lookahead-http-cache")
    let disk: DiskCache
    let url = URL(string: "https://example.com/photo.jpg")!
    let clock = HTTPCacheTestClock()

    init() {
        disk = DiskCache(directory: folder.url)
    }

    private func makePipeline(
        _ loader: ScriptedHTTPLoader,
        policy: DiskCachePolicy? = nil,
        backoff: ImagePipeline.FailureBackoff? = nil
    ) -> ImagePipeline {
        let clock = clock
        return ImagePipeline {
            $0.dataLoader = loader
            $0.advertisesDecodableFormats = false  // the conditional and range headers alone
            $0.diskCache = disk
            $0.memoryCache = nil
            $0.failureBackoff = backoff
            $0.diskCachePolicy = policy ?? .httpSemantics(now: { clock.now.withLock { $0 } })
        }
    }

    private func advance(_ seconds: TimeInterval) { clock.now.withLock { $0 = $0.addingTimeInterval(seconds) } }

    private func load(_ pipeline: ImagePipeline) async throws -> ImageResponse {
        let response = try await pipeline.image(for: ImageRequest(url: url))
        await disk.flush()
        return response
    }

    @Test func aFreshEntryIsServedWithoutARequestAndAStaleOneIsRevalidatedOnce() async throws {
        let loader = ScriptedHTTPLoader([
            .ok(headers: ["Cache-Control": "max-age=60", "ETag": #""v1""#]),
            .status(304, headers: ["Cache-Control": "max-age=60"]),
        ])
        let pipeline = makePipeline(loader)
        #expect(try await load(pipeline).cacheType == nil)
        advance(59)
        #expect(try await load(pipeline).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 1)
        advance(2)
        let revalidated = try await load(pipeline)
        #expect(revalidated.cacheType == .disk)
        // The stored response answers, its fields updated by the 304's (RFC 9111 §4.3.4), with its current age.
        #expect(revalidated.httpResponse?.statusCode == 200)
        #expect(revalidated.httpResponse?.headers["etag"] == #""v1""#)
        #expect(revalidated.httpResponse?.headers["age"] == "0")
        #expect(loader.sent.withLock { $0 } == [[:], ["If-None-Match": #""v1""#]])
        // The 304 refreshed the freshness: 59 s later no request is needed.
        advance(59)
        #expect(try await load(pipeline).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 2)
        #expect(disk.cachedData(for: url.absoluteString) == TestImages.jpeg)
    }

    @Test func a304WithOnlyAValidatorKeepsTheStoredLifetime() async throws {
        let loader = ScriptedHTTPLoader([
            .ok(headers: ["Cache-Control": "max-age=10", "ETag": #""v1""#]),
            .status(304, headers: ["ETag": #""v1""#]),
        ])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        advance(20)
        let revalidated = try await load(pipeline).httpResponse
        #expect(revalidated?.statusCode == 200)
        #expect(revalidated?.headers["cache-control"] == "max-age=10")
        // The 304 named no lifetime: the stored max-age=10 runs again from it, so 5 s later no request goes out.
        advance(5)
        #expect(try await load(pipeline).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 2)
    }

    @Test func aChangedImageReplacesTheEntry() async throws {
        let loader = ScriptedHTTPLoader([
            .ok(headers: ["Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"]),
            .ok(headers: ["Cache-Control": "max-age=100", "ETag": #""v2""#]),
        ])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        // No freshness lifetime: revalidated on the next use.
        #expect(try await load(pipeline).cacheType == nil)
        #expect(loader.sent.withLock { $0.last } == ["If-Modified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"])
        let metadata = disk.cachedData(for: HTTPCacheMetadata.key(for: url.absoluteString))
            .flatMap(HTTPCacheMetadata.decode)
        #expect(metadata?.etag == #""v2""#)
        #expect(metadata?.lastModified == nil)
        #expect(try await load(pipeline).cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 2)
    }

    @Test func noStoreIsNotStoredAndRemovesAnOldEntry() async throws {
        disk.storeData(TestImages.jpeg, for: url.absoluteString)
        let loader = ScriptedHTTPLoader([.ok(headers: ["Cache-Control": "no-store"]), .ok(headers: [:])])
        let pipeline = makePipeline(loader)
        // The old entry has no metadata: stale, downloaded again unconditionally.
        #expect(try await load(pipeline).cacheType == nil)
        #expect(disk.cachedData(for: url.absoluteString) == nil)
        #expect(try await load(pipeline).cacheType == nil)
        #expect(loader.sent.withLock { $0 } == [[:], [:]])
    }

    @Test func aStaleEntryIsServedWhenTheServerCannotBeReachedButNotOnAnErrorStatus() async throws {
        let loader = ScriptedHTTPLoader([
            .ok(headers: ["Cache-Control": "max-age=1", "ETag": #""v1""#]),
            .connectionFailed,
            .status(404, headers: [:]),
        ])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        advance(5)
        #expect(try await load(pipeline).cacheType == .disk)
        await #expect {
            try await load(pipeline)
        } throws: { error in
            (error as? ImagePipeline.Error).map { if case .statusCodeUnacceptable(404, _) = $0 { true } else { false } }
                ?? false
        }
        #expect(loader.sent.withLock { $0.count } == 3)
    }

    @Test(arguments: ["max-age=1, must-revalidate", "no-cache"])
    func aStaleEntryThatMustBeRevalidatedIsNotServedWhenTheServerCannotBeReached(_ cacheControl: String) async throws {
        let loader = ScriptedHTTPLoader([.ok(headers: ["Cache-Control": cacheControl, "ETag": #""v1""#])])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        advance(5)
        // The cache answers with a 504 it generates, with no fields (RFC 9111 §5.2.2.2; cache-tests'
        // stale-close-must-revalidate and stale-close-no-cache).
        await #expect {
            try await load(pipeline)
        } throws: { error in
            guard case .statusCodeUnacceptable(504, let response?) = error as? ImagePipeline.Error else { return false }
            return response.headers.isEmpty && response.url == url
        }
        #expect(loader.sent.withLock { $0.count } == 2)
    }

    @Test func staleIfErrorServesAStaleEntryForAnErrorStatusWithinItsWindow() async throws {
        let loader = ScriptedHTTPLoader([
            .ok(headers: ["Cache-Control": "max-age=10, stale-if-error=60", "ETag": #""v1""#]),
            .status(503, headers: [:]),
            .status(503, headers: [:]),
        ])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        advance(40)  // stale for 30 s: within the window
        #expect(try await load(pipeline).cacheType == .disk)
        advance(40)  // stale for 70 s: past it
        await #expect {
            try await load(pipeline)
        } throws: { error in
            (error as? ImagePipeline.Error).map { if case .statusCodeUnacceptable(503, _) = $0 { true } else { false } }
                ?? false
        }
        #expect(loader.sent.withLock { $0.count } == 3)
    }

    @Test func anAgeTheResponseArrivesWithShortensItsFreshness() async throws {
        let loader = ScriptedHTTPLoader([.ok(headers: ["Cache-Control": "max-age=60", "Age": "50", "ETag": #""v1""#])])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        advance(5)
        #expect(try await load(pipeline).cacheType == .disk, "55 s old: fresh")
        #expect(loader.sent.withLock { $0.count } == 1)
        advance(10)
        _ = try? await load(pipeline)
        #expect(loader.sent.withLock { $0.count } == 2, "65 s old: stale, so asked again")
    }

    @Test func aFailedRevalidationThatServedStaleDataDoesNotPutTheURLInBackoff() async throws {
        let loader = ScriptedHTTPLoader([.ok(headers: ["Cache-Control": "max-age=1", "ETag": #""v1""#])])
        let pipeline = makePipeline(loader, backoff: ImagePipeline.FailureBackoff(initialDelay: .seconds(3600)))
        _ = try await load(pipeline)
        advance(5)
        #expect(try await load(pipeline).cacheType == .disk)  // connection refused: stale served
        #expect(!pipeline.isInFailureBackoff(ImageRequest(url: url)))
        #expect(try await load(pipeline).cacheType == .disk)  // asks again, served stale again
        #expect(loader.sent.withLock { $0.count } == 3)
    }

    @Test func cacheForeverIgnoresEveryHeaderAndNeverRevalidates() async throws {
        let loader = ScriptedHTTPLoader([.ok(headers: ["Cache-Control": "no-store, max-age=0", "ETag": #""v1""#])])
        let pipeline = makePipeline(loader, policy: .cacheForever)
        _ = try await load(pipeline)
        advance(1_000_000)
        #expect(try await load(pipeline).cacheType == .disk)
        #expect(loader.sent.withLock { $0 } == [[:]])
        #expect(disk.cachedData(for: HTTPCacheMetadata.key(for: url.absoluteString)) == nil)
    }

    @Test func a304ToAnUnconditionalRequestIsAnError() async throws {
        let loader = ScriptedHTTPLoader([.status(304, headers: [:])])
        let pipeline = makePipeline(loader)
        await #expect {
            try await load(pipeline)
        } throws: { error in
            (error as? ImagePipeline.Error).map { if case .statusCodeUnacceptable(304, _) = $0 { true } else { false } }
                ?? false
        }
        #expect(disk.cachedData(for: url.absoluteString) == nil)
    }

    @Test func aRequestThatMayNotLoadServesStaleData() async throws {
        let loader = ScriptedHTTPLoader([.ok(headers: ["Cache-Control": "max-age=1", "ETag": #""v1""#])])
        let pipeline = makePipeline(loader)
        _ = try await load(pipeline)
        advance(5)
        let response = try await pipeline.image(for: ImageRequest(url: url, options: [.returnCacheDataDontLoad]))
        #expect(response.cacheType == .disk)
        #expect(loader.sent.withLock { $0.count } == 1)
    }
}
