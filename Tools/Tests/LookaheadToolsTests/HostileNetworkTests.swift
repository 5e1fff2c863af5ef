// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — the default loader (and the pipeline) against a hostile server on loopback.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

/// The transports under test: the platform default (libcurl on Linux) and URLSession.
enum Transport: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case `default`
    case urlSession

    func makeLoader(options: DataLoaderOptions = DataLoaderOptions()) -> any DataLoading {
        switch self {
        case .default: DefaultDataLoader(options: options)
        case .urlSession: URLSessionDataLoader(options: options)
        }
    }

    var testDescription: String { rawValue }
}

@Suite(.timeLimit(.minutes(3))) struct HostileNetworkTests {
    private static func load(
        _ url: URL,
        with loader: any DataLoading,
        limit: Int? = 8 << 20,
        timeout: Duration? = .seconds(30),
        idleTimeout: Duration? = .seconds(15)
    ) async -> (result: Result<DataLoadResponse, any Error>, elapsed: Duration) {
        let start = ContinuousClock.now
        let request = DataLoadRequest(url: url, maximumResponseSize: limit, timeout: timeout, idleTimeout: idleTimeout)
        do {
            let response = try await loader.loadData(for: request)
            return (.success(response), .now - start)
        } catch {
            return (.failure(error), .now - start)
        }
    }

    private static func error(_ result: Result<DataLoadResponse, any Error>) -> DataLoadingError? {
        if case .failure(let error) = result { return error as? DataLoadingError }
        return nil
    }

    // MARK: - Redirects

    @Test(arguments: Transport.allCases)
    func redirectsAreFollowedUpToFive(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let loader = transport.makeLoader()
        let (result, _) = await Self.load(server.url("/hostile/redirect/4"), with: loader)
        let response = try result.get()
        #expect(Array(response.data) == (try FixtureImages.jpeg(number: 1, width: 64, height: 64)))
        #expect(response.response?.statusCode == 200)
        #expect(response.response?.url?.path == "/images/1.jpg")
        let (tooMany, _) = await Self.load(server.url("/hostile/redirect/5"), with: loader)
        #expect(Self.error(tooMany) == .tooManyRedirects(limit: 5))
        // `redirect/N` answers with N + 1 redirects: the sixth, from `redirect/0` to the image, is never followed.
        #expect(server.requestCount(forPath: "/images/1.jpg") == 1)
        await server.stop()
    }

    @Test func imageURLsCanSitBehindRedirectsLikeACDN() async throws {
        let server = try await FixtureServer.start(configuration: .init { $0.redirectHops = 2 })
        let url = server.imageURL(7, width: 32, height: 32)
        let response = try await ImagePipeline { $0.diskCache = nil }.image(for: url)
        #expect(response.image.width == 32)
        #expect(response.httpResponse?.url?.query?.contains("hops=0") == true)
        #expect(server.requestCount(forPath: "/images/7.jpg") == 3, "two redirects, then the image")
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func aRedirectLoopIsItsOwnError(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let (result, _) = await Self.load(server.url("/hostile/redirect-loop/a"), with: transport.makeLoader())
        #expect(Self.error(result) == .redirectLoop(server.url("/hostile/redirect-loop/a")))
        #expect(server.requestCount(forPath: "/hostile/redirect-loop/a") == 1)
        #expect(server.requestCount(forPath: "/hostile/redirect-loop/b") == 1)
        await server.stop()
    }

    @Test(arguments: Transport.allCases, ["ftp://127.0.0.1/a.jpg", "file:///etc/passwd", "gopher://127.0.0.1/"])
    func redirectsLeaveOnlyForHTTP(transport: Transport, location: String) async throws {
        let server = try await FixtureServer.start()
        let url = server.baseURL.appending(path: "hostile/redirect-to").appending(queryItems: [
            URLQueryItem(name: "location", value: location)
        ])
        let (result, _) = await Self.load(url, with: transport.makeLoader())
        let scheme = String(location.prefix { $0 != ":" })
        if transport == .urlSession, scheme == "file" {
            // FoundationNetworking on Linux asks the same host for the path instead of reporting the redirect;
            // what matters is that no local file is read.
            #expect((try? result.get()) == nil)
        } else {
            #expect(Self.error(result) == .unsupportedScheme(scheme))
        }
        await server.stop()
    }

    /// The pattern that killed FoundationNetworking: cancel while a chain of redirects is under way, many times.
    @Test func cancellingDuringRedirectsIsSafe() async throws {
        let server = try await FixtureServer.start()
        let loader = DefaultDataLoader()
        let hops = ["/hostile/redirect/3", "/hostile/redirect/2", "/hostile/redirect/1", "/hostile/redirect/0"]
        var cancelledAt: [String: Int] = [:]
        var slowest = Duration.zero
        for iteration in 0..<520 {
            let hop = hops[iteration % hops.count]
            let seen = server.requestCount(forPath: hop)
            let task = Task {
                try await loader.loadData(for: DataLoadRequest(url: server.url("/hostile/redirect/3?delayMs=1")))
            }
            await server.waitForRequests(path: hop, count: seen + 1)
            let cancelled = ContinuousClock.now
            task.cancel()
            let result = await task.result
            slowest = max(slowest, .now - cancelled)
            if case .failure(let error) = result, error is CancellationError { cancelledAt[hop, default: 0] += 1 }
        }
        // Most land mid-chain; a few may finish first. What matters: no crash, and every caller came back.
        #expect(cancelledAt.values.reduce(0, +) >= 500, "\(cancelledAt)")
        // A hang detector, not a speed claim: a caller is resumed by the cancellation itself, not by the transfer.
        // Quiet, the slowest is well under a second; 30 s is far beyond what load alone adds (6.8 s was seen at
        // load average 8), and far below the hang it guards against.
        #expect(slowest < .seconds(30), "a cancelled caller waited \(slowest)")
        let (after, _) = await Self.load(server.url("/hostile/redirect/2"), with: loader)
        #expect((try? after.get())?.response?.statusCode == 200, "the loader still works afterwards")
        await server.stop()
    }

    // MARK: - Bodies that never end or lie

    @Test(arguments: Transport.allCases)
    func anEndlessBodyStopsAtTheLimit(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let (result, _) = await Self.load(server.url("/hostile/endless"), with: transport.makeLoader(), limit: 4 << 20)
        #expect(Self.error(result) == .responseTooLarge(limit: 4 << 20))
        await server.waitForAbort(path: "/hostile/endless")
        await server.stop()
    }

    @Test func aCompressionBombStopsAtTheLimit() async throws {
        let server = try await FixtureServer.start()
        let url = server.url("/hostile/gzip-bomb?mb=64")
        let (result, _) = await Self.load(url, with: DefaultDataLoader(), limit: 4 << 20)
        #expect(Self.error(result) == .responseTooLarge(limit: 4 << 20))
        // Under the limit, the same encoding decodes to the real bytes.
        let (small, _) = await Self.load(server.url("/hostile/gzip-bomb?mb=2"), with: DefaultDataLoader())
        let data = try small.get().data
        #expect(data.count == 2 << 20 && data.allSatisfy { $0 == 0 })
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func aDeclaredHugeBodyIsRefusedFromItsHeader(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let (result, _) = await Self.load(
            server.url("/hostile/declared-huge?holdMs=3000"),
            with: transport.makeLoader()
        )
        #expect(Self.error(result) == .responseTooLarge(limit: 8 << 20))
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func aBodyShorterThanItsLengthIsTruncated(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let (result, _) = await Self.load(
            server.url("/hostile/short-body?declared=10000&sent=4000"),
            with: transport.makeLoader()
        )
        guard case .truncated(let received, let expected, let cause)? = Self.error(result) else {
            Issue.record("got \(result)")
            return
        }
        #expect(received <= 4000 && expected == 10000)
        if transport == .default {
            // libcurl's CURLE_PARTIAL_FILE is kept, as a reset connection.
            #expect(cause?.code == 18 && cause?.kind == .connectionReset, "got \(String(describing: cause))")
            #expect(Self.error(result)?.underlyingError == cause)
        }
        await server.stop()
    }

    // MARK: - Time

    @Test func aTrickleIsCutOffByTheIdleTimeout() async throws {
        let server = try await FixtureServer.start()
        let (result, elapsed) = await Self.load(
            server.url("/hostile/trickle?intervalMs=3000&holdMs=120000"),
            with: DefaultDataLoader(),
            idleTimeout: .seconds(1)
        )
        // The server holds for two minutes: only the loader's idle timeout ends the load with this error.
        guard case .timedOut(.idle(.seconds(1)), let cause)? = Self.error(result) else {
            Issue.record("got \(result)")
            return
        }
        // The idle timeout is the loader's own check, which aborts the transfer: CURLE_ABORTED_BY_CALLBACK.
        #expect(cause?.code == 42, "got \(String(describing: cause))")
        #expect(elapsed < .seconds(120), "took \(elapsed)")
        await server.waitForAbort(path: "/hostile/trickle")
        await server.stop()
    }

    @Test func aSteadyTrickleIsCutOffByTheDeadline() async throws {
        let server = try await FixtureServer.start()
        let (result, elapsed) = await Self.load(
            server.url("/hostile/trickle?intervalMs=100"),
            with: DefaultDataLoader(),
            timeout: .seconds(1),
            idleTimeout: .seconds(5)
        )
        // Uncut, the trickle goes on for 100 s with a byte every 100 ms, so the idle timeout never fires: only the
        // total deadline ends the load with this error.
        guard case .timedOut(.total(.seconds(1)), let cause)? = Self.error(result) else {
            Issue.record("got \(result)")
            return
        }
        #expect(cause?.code == 28, "CURLE_OPERATION_TIMEDOUT is kept, got \(String(describing: cause))")
        #expect(Self.error(result)?.underlyingError == cause)
        #expect(elapsed < .seconds(100), "took \(elapsed)")
        await server.stop()
    }

    @Test(arguments: ["/hostile/stall-headers?holdMs=120000", "/hostile/stall-body?holdMs=120000"])
    func aStalledServerIsCutOff(path: String) async throws {
        let server = try await FixtureServer.start()
        let (result, elapsed) = await Self.load(server.url(path), with: DefaultDataLoader(), idleTimeout: .seconds(1))
        // The server holds for two minutes: only the loader's idle timeout ends the load with this error.
        guard case .timedOut(.idle, let cause)? = Self.error(result) else {
            Issue.record("got \(result)")
            return
        }
        #expect(cause?.code == 42, "libcurl's code is kept, got \(String(describing: cause))")
        #expect(elapsed < .seconds(120), "took \(elapsed)")
        await server.stop()
    }

    @Test func sixTricklingServersDoNotStarveOtherLoads() async throws {
        let server = try await FixtureServer.start()
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoadingConcurrency = 6
            $0.stalledDownloadInterval = .milliseconds(300)
            $0.dataLoadIdleTimeout = .seconds(60)
        }
        // Six downloads take every slot, then trickle a byte a second for two minutes: the idle timeout never fires.
        let slow = (0..<6).map { index in
            pipeline.imageTask(
                with: ImageRequest(
                    url: server.url("/hostile/trickle?intervalMs=1000&holdMs=120000&bytes=\(100 + index)")
                )
            )
        }

        await server.waitForRequests(path: "/hostile/trickle", count: 6)
        let response = try await pipeline.image(for: server.imageURL(3, width: 32, height: 32))
        #expect(response.image.width == 32)
        // Without parking the image would get a slot only once a trickle ended. None has: the trickles gave their
        // slots back when they stalled. (An order of events, not a time: load cannot fail it.)
        let ended =
            server.completedCount(forPath: "/hostile/trickle") + server.abortedCount(forPath: "/hostile/trickle")
        #expect(ended == 0, "\(ended) trickles ended before the image loaded")
        for task in slow { task.cancel() }
        await server.waitForAbort(path: "/hostile/trickle", count: 6)
        await server.stop()
    }

    // MARK: - Statuses and connections

    @Test(arguments: Transport.allCases)
    func errorStatusesCarryTheirHeaders(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let (result, _) = await Self.load(server.url("/status/503"), with: transport.makeLoader())
        guard case .statusCodeUnacceptable(503, let info)? = Self.error(result) else {
            Issue.record("got \(result)")
            return
        }
        #expect(info?.statusCode == 503)
        #expect(info?.headers["content-type"] != nil)
        await server.stop()
    }

    @Test func aResetIsAConnectionFailure() async throws {
        let server = try await FixtureServer.start()
        let (result, _) = await Self.load(server.url("/faults/reset"), with: DefaultDataLoader())
        guard case .transportFailed(let failure)? = Self.error(result) else {
            Issue.record("got \(result)")
            return
        }
        #expect(failure.kind == .connectionReset, "got \(failure)")
        await server.stop()
    }

    @Test func cancellingStopsTheTransferOnTheWire() async throws {
        let server = try await FixtureServer.start()
        let loader = DefaultDataLoader()
        let task = Task {
            try await loader.loadData(
                for: DataLoadRequest(url: server.url("/faults/slow?bytes=400000&chunk=1024&delayMs=20"))
            )
        }
        await server.waitForRequests(path: "/faults/slow", count: 1)
        task.cancel()
        let result = await task.result
        #expect((try? result.get()) == nil)
        await server.waitForAbort(path: "/faults/slow")
        #expect(server.completedCount(forPath: "/faults/slow") == 0)
        await server.stop()
    }
}
