// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — the credentials' lifecycle over loopback: downloads answered 401 together share one
// refresh, and a sign-in lets an image the server refused load again.

import Foundation
import Lookahead
import LookaheadFixtures
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(2))) struct CredentialsOverHTTPTests {
    /// The path of the route that wants `Authorization: Bearer fresh` (see `FixtureRoutes+Hostile.swift`).
    private static let path = "/hostile/needs-token"

    private static func url(_ server: FixtureServer, _ number: Int) -> URL {
        server.url("\(path)?token=fresh&n=\(number)")
    }

    @Test func downloadsAnswered401TogetherShareOneRefresh() async throws {
        let server = try await FixtureServer.start()
        let count = 4
        let token = Mutex("stale")
        let refreshes = Mutex(0)
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoadingConcurrency = count
            $0.requestModifier = { request in
                var request = request
                request.headers["Authorization"] = "Bearer " + token.withLock { $0 }
                return request
            }
            $0.refreshCredentials = {
                refreshes.withLock { $0 += 1 }
                // The gate: the new token exists only once every download was sent with the stale one.
                await server.waitForRequests(path: Self.path, count: count)
                token.withLock { $0 = "fresh" }
            }
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<count {
                group.addTask { try await pipeline.image(for: Self.url(server, number)).image.width }
            }
            for try await width in group {
                #expect(width == 64)
            }
        }
        #expect(refreshes.withLock { $0 } == 1, "one refresh for \(count) downloads answered 401")
        #expect(server.requestCount(forPath: Self.path) == 2 * count, "each sent twice: stale, then fresh")
        await server.stop()
    }

    @Test func afterCredentialsChangedARefusedImageGoesToTheServerAgain() async throws {
        let server = try await FixtureServer.start()
        let token = Mutex("stale")
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.requestModifier = { request in
                var request = request
                request.headers["Authorization"] = "Bearer " + token.withLock { $0 }
                return request
            }
        }
        let request = ImageRequest(url: Self.url(server, 1))
        await #expect(throws: ImagePipeline.Error.self) { try await pipeline.image(for: request) }
        #expect(server.requestCount(forPath: Self.path) == 2, "sent, then retried once after the 401")
        #expect(pipeline.isInFailureBackoff(request), "a 401 is not retried by itself")
        await #expect(throws: ImagePipeline.Error.self) { try await pipeline.image(for: request) }
        #expect(server.requestCount(forPath: Self.path) == 2, "backed off: not sent")

        token.withLock { $0 = "fresh" }  // the user signed in
        pipeline.credentialsChanged()
        #expect(!pipeline.isInFailureBackoff(request))
        #expect(try await pipeline.image(for: request).image.width == 64)
        #expect(server.requestCount(forPath: Self.path) == 3)
        await server.stop()
    }
}
