// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — the failure backoff over real loopback HTTP: a prefetcher over failing rows does not
// storm the server, and Retry-After is honoured. Time is a clock the test moves; the server counts per path.

import Foundation
import Lookahead
import LookaheadFixtures
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(3))) struct FailureBackoffOverHTTPTests {
    private let clock = SteppedClock()

    private func makePipeline(_ configure: (inout ImagePipeline.Configuration) -> Void = { _ in }) -> ImagePipeline {
        let clock = clock
        return ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = URLSessionDataLoader()
            $0.failureBackoff = ImagePipeline.FailureBackoff(clock: clock)
            configure(&$0)
        }
    }

    private func error(_ url: URL, _ pipeline: ImagePipeline) async -> ImagePipeline.Error? {
        do {
            _ = try await pipeline.image(for: url)
            return nil
        } catch {
            return error
        }
    }

    @Test func aPrefetcherOverTwoHundredFailingRowsAsksForEachOnlyAFewTimes() async throws {
        let server = try await FixtureServer.start()
        let pipeline = makePipeline()
        let prefetcher = ImagePrefetcher(pipeline: pipeline, maxConcurrentRequestCount: 4)
        let paths = (0..<200).map { "/hostile/status/500/\($0)" }
        let rows = paths.map { ImageRequest(url: server.url($0)) }
        // 270 frames of 100 ms: 27 s on the pipeline's clock. Each frame re-issues the whole wish list: the 200
        // failing rows, then one row that loads, new every frame. Its request reaching the server shows that the
        // frame's turn went past all 200 rows before the clock moves on.
        for frame in 1...270 {
            prefetcher.prefetch(rows + [ImageRequest(url: server.imageURL(frame, width: 8, height: 8))])
            await server.waitForRequests(path: "/images/\(frame).jpg", count: 1)
            clock.advance(by: .milliseconds(100))
        }
        prefetcher.stopPrefetching()
        let counts = paths.map { server.requestCount(forPath: $0) }
        // Waits of at least 0.8, 1.6, 3.2, 6.4 and 12.8 s (1 s doubling, less at most 20% jitter) fit five retries
        // into 27 s: six requests per row at most. Without the backoff every frame asked again (270 per row).
        #expect(counts.max() ?? 0 <= 6, "requests per row: \(counts)")
        #expect(counts.min() ?? 0 >= 2, "each row is asked again once its wait is over: \(counts)")
        #expect(counts.reduce(0, +) <= 1200)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func aServerErrorCarriesItsAnswer(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let pipeline = makePipeline { $0.dataLoader = transport.makeLoader() }
        let url = server.url("/hostile/status/503/answer?retry-after=7")
        let error = try #require(await error(url, pipeline))
        #expect(error.reason == .serverError(statusCode: 503))
        let response = try #require(error.httpResponse)
        #expect(response.statusCode == 503)
        #expect(response.url?.path == "/hostile/status/503/answer")
        #expect(response.headers["retry-after"] == "7")
        #expect(error.retryAfter == .seconds(7))
        // Refused at once while the URL waits: the refusal still carries the server's answer.
        let refusal = try #require(await self.error(url, pipeline))
        guard case .failureBackoff = refusal else {
            Issue.record("expected the backoff's refusal, got \(refusal)"); return
        }
        #expect(refusal.httpResponse?.statusCode == 503)
        await server.stop()
    }

    @Test func retryAfterInSecondsOn503IsHonoured() async throws {
        let server = try await FixtureServer.start()
        let pipeline = makePipeline()
        let url = server.url("/hostile/status/503/a?retry-after=30")
        let path = "/hostile/status/503/a"
        guard case .statusCodeUnacceptable(503, _) = await error(url, pipeline) else {
            Issue.record("expected the server's 503"); return
        }
        guard case .failureBackoff(.statusCodeUnacceptable(503, _), .seconds(30)?) = await error(url, pipeline) else {
            Issue.record("expected a wait of 30 s"); return
        }
        clock.advance(by: .seconds(29))
        _ = await error(url, pipeline)
        #expect(server.requestCount(forPath: path) == 1)
        clock.advance(by: .seconds(1))
        guard case .statusCodeUnacceptable(503, _) = await error(url, pipeline) else {
            Issue.record("the request after 30 s should reach the server"); return
        }
        #expect(server.requestCount(forPath: path) == 2)
        await server.stop()
    }

    @Test func retryAfterAsAnHTTPDateOn429IsHonoured() async throws {
        let server = try await FixtureServer.start()
        let pipeline = makePipeline()
        let url = server.url("/hostile/status/429/b?retry-after-date=45")
        let path = "/hostile/status/429/b"
        _ = await error(url, pipeline)
        guard case .failureBackoff(.statusCodeUnacceptable(429, _), let retryIn?) = await error(url, pipeline) else {
            Issue.record("expected a wait"); return
        }
        // Measured from the response's Date, which the server refreshes about once a second (later when it is
        // busy): at least 45 s, never the 1 s of the backoff alone.
        #expect(retryIn >= .seconds(45) && retryIn <= .seconds(120), "waits \(retryIn)")
        clock.advance(by: retryIn - .milliseconds(1))
        _ = await error(url, pipeline)
        #expect(server.requestCount(forPath: path) == 1)
        clock.advance(by: .milliseconds(1))
        _ = await error(url, pipeline)
        #expect(server.requestCount(forPath: path) == 2)
        await server.stop()
    }

    @Test func aNotFoundWaitsForAnExplicitRetry() async throws {
        let server = try await FixtureServer.start()
        let pipeline = makePipeline()
        let url = server.url("/hostile/status/404/c")
        _ = await error(url, pipeline)
        clock.advance(by: .seconds(3600))
        guard case .failureBackoff(.statusCodeUnacceptable(404, _), nil) = await error(url, pipeline) else {
            Issue.record("a 404 should not be retried automatically"); return
        }
        #expect(server.requestCount(forPath: "/hostile/status/404/c") == 1)
        _ = try? await pipeline.image(for: ImageRequest(url: url, options: .skipFailureBackoff))
        #expect(server.requestCount(forPath: "/hostile/status/404/c") == 2)
        await server.stop()
    }
}

// MARK: - The network comes back

extension FailureBackoffOverHTTPTests {
    /// Twelve visible rows fail while the server closes every connection; once it answers one download again, every
    /// row loads by itself, each asked for once more. The backoff's clock never moves: only the answer lets them go.
    @Test func afterAnOutageEveryFailedRowLoadsOnceTheHostAnswers() async throws {
        let server = try await FixtureServer.start()
        let pipeline = makePipeline { $0.dataLoader = DefaultDataLoader() }
        let (changes, continuation) = AsyncStream.makeStream(of: (Int, ImageSlot.State).self)
        let rows = 1...12
        let slots = rows.map { row in ImageSlot(pipeline: pipeline) { continuation.yield((row, $0)) } }
        server.startOutage()
        for (slot, row) in zip(slots, rows) { slot.configure(with: ImageRequest(url: server.imageURL(row, width: 16))) }
        var failed: Set<Int> = []
        var loaded: Set<Int> = []
        var iterator = changes.makeAsyncIterator()
        while failed.count < rows.count, let (row, state) = await iterator.next() {
            guard case .failed(let error, _) = state else { continue }
            #expect(error.reason == .unreachable(.connectionReset), "row \(row): \(error)")
            failed.insert(row)
        }
        server.endOutage()
        _ = try await pipeline.image(for: server.imageURL(100, width: 16))  // the answer
        while loaded.count < rows.count, let (row, state) = await iterator.next() {
            if case .loaded = state { loaded.insert(row) }
        }
        let counts = rows.map { server.requestCount(forPath: "/images/\($0).jpg") }
        // One request refused, one after the answer. A third would be libcurl trying a closed kept-alive connection
        // again, which it may do once; more would be a storm.
        #expect(counts.allSatisfy { (2...3).contains($0) }, "requests per row: \(counts)")
        withExtendedLifetime(slots) {}
        await server.stop()
    }
}

/// A clock that moves only when the test says so.
private final class SteppedClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Mutex(Instant(offset: .zero))

    var now: Instant { current.withLock { $0 } }
    var minimumResolution: Duration { .nanoseconds(1) }

    func advance(by duration: Duration) {
        current.withLock { $0.offset += duration }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        preconditionFailure("SteppedClock does not sleep")
    }
}
