// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the pipeline's failure backoff with an in-process loader and a manual clock: loader calls
// are counted, and a URL that waits is never asked for.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

#if !LOOKAHEAD_PTHREAD_LOCKS
#endif

@Suite(.timeLimit(.minutes(1))) struct ImagePipelineFailureBackoffTests {
    let clock = ManualClock()
    private static let url = URL(string: "https://example.com/broken.jpg")!

    private func makePipeline(_ loader: GatedDataLoader, backoff: Bool = true) -> ImagePipeline {
        let clock = clock
        return ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = loader
            $0.failureBackoff = backoff ? ImagePipeline.FailureBackoff(jitter: 0, clock: clock) : nil
        }
    }

    private func failing(
        _ error: DataLoadingError = .statusCodeUnacceptable(500, nil),
        url: URL = Self.url
    ) -> GatedDataLoader {
        GatedDataLoader(isGated: false, responses: [url.absoluteString: .failure(error)])
    }

    private func error(_ pipeline: ImagePipeline, _ request: ImageRequest) async -> ImagePipeline.Error? {
        do {
            _ = try await pipeline.image(for: request)
            return nil
        } catch {
            return error
        }
    }

    private func error(_ pipeline: ImagePipeline, options: ImageRequest.Options = []) async -> ImagePipeline.Error? {
        await error(pipeline, ImageRequest(url: Self.url, options: options))
    }

    private func calls(_ loader: GatedDataLoader, _ url: URL = Self.url) -> Int {
        loader.record.value.started.filter { $0 == url.absoluteString }.count
    }

    /// The wait of a backoff error, or `.none` when the error is something else.
    private func backoff(_ error: ImagePipeline.Error?, after code: Int) -> Duration?? {
        guard case .failureBackoff(.statusCodeUnacceptable(code, _), let retryIn) = error else { return .none }
        return .some(retryIn)
    }

    // MARK: - Waiting

    @Test func requestsDuringTheWaitFailAtOnceWithoutTheLoaderThenOneGoesAhead() async {
        let loader = failing()
        let pipeline = makePipeline(loader)
        guard case .statusCodeUnacceptable(500, _) = await error(pipeline) else {
            Issue.record("the first request should reach the loader"); return
        }
        #expect(calls(loader) == 1)
        // Every way in fails at once with the last error and the wait: image(for:), imageTask, data(for:).
        for _ in 0..<20 {
            #expect(backoff(await error(pipeline), after: 500) == .some(.seconds(1)))
        }
        let task = pipeline.imageTask(with: ImageRequest(url: Self.url, thumbnail: .init(maximumPixelSize: 10)))
        do {
            _ = try await task.response
            Issue.record("the task should fail")
        } catch {
            #expect(backoff(error, after: 500) == .some(.seconds(1)))
        }
        do {
            _ = try await pipeline.data(for: ImageRequest(url: Self.url))
            Issue.record("the data request should fail")
        } catch {
            #expect(backoff(error, after: 500) == .some(.seconds(1)))
        }
        #expect(pipeline.isInFailureBackoff(ImageRequest(url: Self.url)))
        #expect(calls(loader) == 1)

        clock.advance(by: .milliseconds(999))
        #expect(backoff(await error(pipeline), after: 500) == .some(.milliseconds(1)))
        #expect(calls(loader) == 1)
        clock.advance(by: .milliseconds(1))
        #expect(!pipeline.isInFailureBackoff(ImageRequest(url: Self.url)))
        guard case .statusCodeUnacceptable(500, _) = await error(pipeline) else {
            Issue.record("the request after the wait should reach the loader"); return
        }
        #expect(calls(loader) == 2)
        // It failed again: the wait doubles.
        #expect(backoff(await error(pipeline), after: 500) == .some(.seconds(2)))
        #expect(calls(loader) == 2)
        await pipeline.waitUntilIdle()
        #expect(pipeline.liveTaskCount == 0)
    }

    @Test func otherURLsAreNotHeldBack() async {
        let other = URL(string: "https://example.com/fine.jpg")!
        let loader = failing()
        let pipeline = makePipeline(loader)
        _ = await error(pipeline)
        #expect(await error(pipeline, ImageRequest(url: other)) == nil)
        #expect(calls(loader, other) == 1)
    }

    @Test func withoutBackoffEveryRequestReachesTheLoader() async {
        let loader = failing()
        let pipeline = makePipeline(loader, backoff: false)
        for _ in 0..<3 {
            guard case .statusCodeUnacceptable(500, _) = await error(pipeline) else {
                Issue.record("expected the loader's error"); return
            }
        }
        #expect(calls(loader) == 3)
        #expect(!pipeline.isInFailureBackoff(ImageRequest(url: Self.url)))
    }

    // MARK: - Explicit retries

    @Test func anExplicitRetryLoadsAtOnce() async {
        let loader = failing()
        let pipeline = makePipeline(loader)
        _ = await error(pipeline)
        #expect(backoff(await error(pipeline), after: 500) != nil)
        #expect(!pipeline.isInFailureBackoff(ImageRequest(url: Self.url, options: .skipFailureBackoff)))
        guard case .statusCodeUnacceptable(500, _) = await error(pipeline, options: .skipFailureBackoff) else {
            Issue.record("the retry should reach the loader"); return
        }
        #expect(calls(loader) == 2)
        // Its failure counts: the wait is now 2 s.
        #expect(backoff(await error(pipeline), after: 500) == .some(.seconds(2)))
        pipeline.forgetFailures(for: Self.url)
        _ = await error(pipeline)
        #expect(calls(loader) == 3)
        pipeline.forgetAllFailures()
        _ = await error(pipeline)
        #expect(calls(loader) == 4)
    }

    @Test func aSuccessForgetsTheFailures() async {
        let attempts = Locked(0)
        let loader = GatedDataLoader(isGated: false) { _ in
            attempts.withLock {
                $0 += 1; return $0
            } == 1
                ? .failure(.statusCodeUnacceptable(502, nil)) : .success(DataLoadResponse(data: TestImages.jpeg))
        }
        let pipeline = makePipeline(loader)
        _ = await error(pipeline)
        #expect(pipeline.isInFailureBackoff(ImageRequest(url: Self.url)))
        #expect(await error(pipeline, options: .skipFailureBackoff) == nil)
        // The clock has not moved: only the success can have cleared the wait.
        #expect(!pipeline.isInFailureBackoff(ImageRequest(url: Self.url)))
        #expect(await error(pipeline, options: .disableMemoryCacheReads) == nil)
        #expect(calls(loader) == 3)
    }

    // MARK: - Kinds of failure

    @Test func aClientErrorWaitsForAnExplicitRetry() async {
        let loader = failing(.statusCodeUnacceptable(404, nil))
        let pipeline = makePipeline(loader)
        _ = await error(pipeline)
        clock.advance(by: .seconds(86_400))
        #expect(backoff(await error(pipeline), after: 404) == .some(nil))
        #expect(calls(loader) == 1)
        _ = await error(pipeline, options: .skipFailureBackoff)
        #expect(calls(loader) == 2)
    }

    @Test func retryAfterInSecondsIsHonoured() async {
        let response = HTTPResponseInfo(url: Self.url, statusCode: 503, headers: ["Retry-After": "30"])
        let loader = failing(.statusCodeUnacceptable(503, response))
        let pipeline = makePipeline(loader)
        _ = await error(pipeline)
        #expect(backoff(await error(pipeline), after: 503) == .some(.seconds(30)))
        clock.advance(by: .seconds(29))
        _ = await error(pipeline)
        #expect(calls(loader) == 1)
        clock.advance(by: .seconds(1))
        _ = await error(pipeline)
        #expect(calls(loader) == 2)
    }

    @Test func retryAfterAsADateIsMeasuredFromTheServersDate() async {
        // The server's clock is years off ours: its own Date header is the reference.
        let response = HTTPResponseInfo(
            url: Self.url,
            statusCode: 429,
            headers: ["Retry-After": "Sun, 06 Nov 1994 08:50:22 GMT", "Date": "Sun, 06 Nov 1994 08:49:37 GMT"]
        )
        let pipeline = makePipeline(failing(.statusCodeUnacceptable(429, response)))
        _ = await error(pipeline)
        #expect(backoff(await error(pipeline), after: 429) == .some(.seconds(45)))
    }

    @Test func undecodableNetworkDataCountsAndKeepsCounting() async {
        let html = Data("<!doctype html><html><body>Sign in</body></html>".utf8)
        let loader = GatedDataLoader(isGated: false) { _ in .success(DataLoadResponse(data: html)) }
        let pipeline = makePipeline(loader)
        guard case .noDecoder = await error(pipeline) else { Issue.record("expected no decoder"); return }
        guard case .failureBackoff(.noDecoder, .seconds(1)?) = await error(pipeline) else {
            Issue.record("a 200 with an HTML body should back off"); return
        }
        #expect(calls(loader) == 1)
        clock.advance(by: .seconds(1))
        _ = await error(pipeline)
        #expect(calls(loader) == 2)
        // The download itself succeeded, yet the count goes on: the wait doubles.
        guard case .failureBackoff(.noDecoder, .seconds(2)?) = await error(pipeline) else {
            Issue.record("the second failure should wait 2 s"); return
        }
    }

    @Test func aCancelledLoadDoesNotCount() async {
        let loader = GatedDataLoader()
        let pipeline = makePipeline(loader)
        let task = pipeline.imageTask(with: ImageRequest(url: Self.url))
        await loader.waitForPending(1)
        task.cancel()
        await loader.waitForCancellations(1)
        await pipeline.waitUntilIdle()
        #expect(!pipeline.isInFailureBackoff(ImageRequest(url: Self.url)))
        let again = pipeline.imageTask(with: ImageRequest(url: Self.url))
        await loader.waitForPending(1)
        #expect(calls(loader) == 2)
        again.cancel()
        await pipeline.waitUntilIdle()
    }

    // MARK: - Image IDs

    /// Signed URLs of one image: a new signature each time, one identity through the filter.
    private static func signed(_ signature: Int) -> URL {
        URL(string: "https://cdn.example.com/photo.jpg?signature=\(signature)")!
    }

    @Test func aFailureThroughTheImageIDFilterIsCheckedAndForgottenUnderTheImagesIdentity() async {
        let response = HTTPResponseInfo(url: Self.signed(1), statusCode: 503, headers: ["Retry-After": "120"])
        let loader = GatedDataLoader(isGated: false) { _ in .failure(.statusCodeUnacceptable(503, response)) }
        let clock = clock
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = loader
            $0.failureBackoff = ImagePipeline.FailureBackoff(jitter: 0, clock: clock)
            $0.imageIDFilter = { url in url.path }
        }
        _ = await error(pipeline, ImageRequest(url: Self.signed(1)))
        // Another signature of the same image waits too: checked, asked and skipped by one key.
        #expect(pipeline.isInFailureBackoff(ImageRequest(url: Self.signed(2))))
        #expect(backoff(await error(pipeline, ImageRequest(url: Self.signed(2))), after: 503) == .some(.seconds(120)))
        #expect(loader.record.value.started.count == 1)
        // Forgetting by any of its URLs forgets the image.
        pipeline.forgetFailures(for: Self.signed(3))
        #expect(!pipeline.isInFailureBackoff(ImageRequest(url: Self.signed(1))))
        _ = await error(pipeline, ImageRequest(url: Self.signed(4)))
        #expect(loader.record.value.started.count == 2)
    }

    @Test func aFailureOfARequestWithAnExplicitImageIDWaitsForThatID() async {
        let loader = failing(.statusCodeUnacceptable(500, nil), url: Self.signed(1))
        let pipeline = makePipeline(loader)
        var request = ImageRequest(url: Self.signed(1))
        request.imageID = "photo-1"
        _ = await error(pipeline, request)
        #expect(pipeline.isInFailureBackoff(request))
        #expect(backoff(await error(pipeline, request), after: 500) == .some(.seconds(1)))
        #expect(calls(loader, Self.signed(1)) == 1)
        // The plain URL is another image.
        #expect(!pipeline.isInFailureBackoff(ImageRequest(url: Self.signed(1))))
        pipeline.forgetFailures(for: request)
        #expect(!pipeline.isInFailureBackoff(request))
    }

    // MARK: - Callers

    @Test func thePrefetcherSkipsWaitingURLsEveryFrameAndFreesTheirSlots() async {
        let broken = (1...3).map { URL(string: "https://example.com/\($0).jpg")! }
        let fine = URL(string: "https://example.com/fine.jpg")!
        let loader = GatedDataLoader(
            isGated: false,
            responses: Dictionary(
                uniqueKeysWithValues: broken.map { ($0.absoluteString, .failure(.statusCodeUnacceptable(500, nil))) }
            )
        )
        let pipeline = makePipeline(loader)
        for url in broken { _ = await error(pipeline, ImageRequest(url: url)) }
        let scheduler = ManualScheduler()
        // One slot: the fine URL, listed last, starts only if the waiting ones give theirs up.
        let prefetcher = ImagePrefetcher(
            pipeline: pipeline,
            destination: .memoryCache,
            maxConcurrentRequestCount: 1,
            scheduler: scheduler.schedule
        )
        let wishList = (broken + [fine]).map { ImageRequest(url: $0) }
        // In one turn, the waiting URLs are skipped without a task and free the slot, so the turn reaches the fine
        // one: nothing is left waiting. (Were they started, they would hold the slot and three would wait.)
        prefetcher.prefetch(wishList)
        scheduler.runAll()
        #expect(prefetcher.counts.pending == 0)
        for _ in 0..<100 {  // frames
            prefetcher.prefetch(wishList)
            scheduler.runAll()
        }
        await loader.waitForStarts(4)
        await pipeline.waitUntilIdle()
        #expect(broken.map { calls(loader, $0) } == [1, 1, 1])
        #expect(calls(loader, fine) == 1)

        prefetcher.stopPrefetching()

        // The wait is over: each broken URL is asked for once more (a prefetcher with a slot for each), then, as
        // they failed again and wait 2 s now, never again however many frames ask.
        clock.advance(by: .seconds(1))
        let wider = ImagePrefetcher(
            pipeline: pipeline,
            destination: .memoryCache,
            maxConcurrentRequestCount: 4,
            scheduler: scheduler.schedule
        )
        wider.prefetch(wishList)
        scheduler.runAll()
        await loader.waitForStarts(7)
        await pipeline.waitUntilIdle()
        #expect(broken.map { calls(loader, $0) } == [2, 2, 2])
        for _ in 0..<100 {
            wider.prefetch(wishList)
            scheduler.runAll()
        }
        await pipeline.waitUntilIdle()
        #expect(loader.record.value.started.count == 7)
        wider.stopPrefetching()
    }
}
