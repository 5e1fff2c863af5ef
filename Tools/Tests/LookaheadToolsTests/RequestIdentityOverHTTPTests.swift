// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — image identities behind signed URLs, per-request headers and the request modifier, over
// real loopback HTTP.

import Foundation
import Lookahead
import LookaheadFixtures
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(2))) struct RequestIdentityOverHTTPTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-identity-\(UUID())")

    /// The image's URL with a token a CDN would check, different every time it is signed.
    private func signed(_ server: FixtureServer, token: String) -> URL {
        URL(string: server.imageURL(1, width: 32, height: 32).absoluteString + "&token=\(token)")!
    }

    /// Drops the `token` query item: what an app with signed URLs configures.
    private static let withoutToken: @Sendable (URL) -> String = { url in
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        let kept = components.queryItems?.filter { $0.name != "token" }
        components.queryItems = kept
        return components.string ?? url.absoluteString
    }

    private func pipeline(_ transport: Transport = .default, filter: (@Sendable (URL) -> String)? = nil)
        -> ImagePipeline
    {
        ImagePipeline {
            $0.dataLoader = transport.makeLoader()
            $0.diskCache = DiskCache(directory: folder)
            $0.imageIDFilter = filter
        }
    }

    @Test func signedURLsShareTheCachesAndOneDownloadWithAFilter() async throws {
        let server = try await FixtureServer.start()
        let path = server.imageURL(1).path
        let first = pipeline(filter: Self.withoutToken)
        let a = first.imageTask(with: ImageRequest(url: signed(server, token: "a")))
        let b = first.imageTask(with: ImageRequest(url: signed(server, token: "b")))
        #expect(try await a.response.image.width == 32)
        #expect(try await b.response.image.width == 32)
        #expect(server.requestCount(forPath: path) == 1, "one download for both signings")
        #expect(first.cachedImage(for: ImageRequest(url: signed(server, token: "c"))) != nil, "a memory hit")
        await first.flush()

        // A new launch, a new signature: the disk cache answers.
        let second = pipeline(filter: Self.withoutToken)
        let response = try await second.image(for: ImageRequest(url: signed(server, token: "d")))
        #expect(response.cacheType == .disk)
        #expect(server.requestCount(forPath: path) == 1)
        await server.stop()
    }

    @Test func withoutAFilterEverySigningIsAnotherImage() async throws {
        let server = try await FixtureServer.start()
        let path = server.imageURL(1).path
        let plain = pipeline()
        _ = try await plain.image(for: ImageRequest(url: signed(server, token: "a")))
        _ = try await plain.image(for: ImageRequest(url: signed(server, token: "b")))
        #expect(server.requestCount(forPath: path) == 2)
        #expect(plain.cachedImage(for: ImageRequest(url: signed(server, token: "c"))) == nil)
        await server.stop()
    }

    @Test func anExplicitImageIDWinsOverTheURL() async throws {
        let server = try await FixtureServer.start()
        let cached = pipeline()
        var request = ImageRequest(url: signed(server, token: "a"))
        request.imageID = "photo-1"
        _ = try await cached.image(for: request)
        var resigned = ImageRequest(url: signed(server, token: "b"))
        resigned.imageID = "photo-1"
        #expect(cached.cachedImage(for: resigned) != nil)
        await server.stop()
    }

    @Test(arguments: Transport.allCases)
    func headersReachTheServerAndRequestsWithOtherHeadersDoNotShareADownload(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let loads = pipeline(transport)
        var good = ImageRequest(url: server.url("/hostile/needs-token?token=good"))
        good.headers = ["Authorization": "Bearer good"]
        var bad = ImageRequest(url: server.url("/hostile/needs-token?token=good"))
        bad.headers = ["Authorization": "Bearer bad"]
        bad.options.insert(.skipFailureBackoff)
        let goodTask = loads.imageTask(with: good)
        let badTask = loads.imageTask(with: bad)
        #expect(try await goodTask.response.image.width == 64)
        do {
            _ = try await badTask.response
            Issue.record("a wrong token loaded the image")
        } catch {
            guard case .statusCodeUnacceptable(401, _) = error else {
                Issue.record("got \(error)")
                return
            }
        }
        #expect(server.requestCount(forPath: "/hostile/needs-token") == 2)
        await server.stop()
    }

    @Test func theModifierRefreshesAStaleTokenAfterA401() async throws {
        let server = try await FixtureServer.start()
        let calls = Calls()
        let refreshing = ImagePipeline {
            $0.diskCache = nil
            $0.requestModifier = { request in
                calls.append(request.isRetryAfterUnauthorized)
                var request = request
                request.headers["Authorization"] = request.isRetryAfterUnauthorized ? "Bearer good" : "Bearer stale"
                return request
            }
        }
        let response = try await refreshing.image(for: server.url("/hostile/needs-token?token=good"))
        #expect(response.image.width == 64)
        #expect(calls.values == [false, true], "asked for a token, then for a fresh one after the 401")
        #expect(server.requestCount(forPath: "/hostile/needs-token") == 2, "one retry, not more")
        await server.stop()
    }

    @Test func aModifierThatThrowsFailsTheDownloadBeforeItIsSent() async throws {
        struct SignedOut: Error {}
        let server = try await FixtureServer.start()
        let refusing = ImagePipeline {
            $0.diskCache = nil
            $0.requestModifier = { _ in throw SignedOut() }
        }
        do {
            _ = try await refusing.image(for: server.imageURL(1))
            Issue.record("loaded without a token")
        } catch {
            guard case .dataLoadingFailed(let underlying) = error, underlying is SignedOut else {
                Issue.record("got \(error)")
                return
            }
        }
        #expect(server.requestCount(forPath: server.imageURL(1).path) == 0)
        await server.stop()
    }
}

/// What the modifier was asked, in order.
private final class Calls: Sendable {
    private let storage = Mutex<[Bool]>([])
    var values: [Bool] { storage.withLock { $0 } }
    func append(_ value: Bool) { storage.withLock { $0.append(value) } }
}
