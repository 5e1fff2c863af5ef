// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — the sensitive header fields a redirect carries: all of them to the request's own origin,
// none to another (two ports of 127.0.0.1 are two origins), on both loaders.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(2))) struct RedirectCredentialsTests {
    private static let sensitive = [
        "authorization": "Bearer secret",
        "cookie": "session=secret",
        "proxy-authorization": "Basic c2VjcmV0",
        "x-api-key": "k-123",
    ]

    /// A loader sending every sensitive field (one from the request) and `X-Note`, which is not sensitive.
    private static func load(_ url: URL, transport: Transport) async throws -> DataLoadResponse {
        var options = DataLoaderOptions()
        options.headers = ["Authorization": "Bearer secret", "Cookie": "session=secret", "X-Api-Key": "k-123"]
        options.sensitiveHeaderFields = ["x-API-key"]
        var request = DataLoadRequest(url: url, maximumResponseSize: 8 << 20, timeout: .seconds(30))
        request.headers = ["Proxy-Authorization": "Basic c2VjcmV0", "X-Note": "kept"]
        return try await transport.makeLoader(options: options).loadData(for: request)
    }

    private static func redirect(on server: FixtureServer, to target: URL) -> URL {
        server.baseURL.appending(path: "hostile/redirect-to").appending(queryItems: [
            URLQueryItem(name: "location", value: target.absoluteString)
        ])
    }

    @Test(arguments: Transport.allCases)
    func noSensitiveFieldReachesAnotherOrigin(transport: Transport) async throws {
        let first = try await FixtureServer.start()
        let second = try await FixtureServer.start()
        let target = second.url("/hostile/headers/other")
        let response = try await Self.load(Self.redirect(on: first, to: target), transport: transport)
        #expect(response.response?.statusCode == 200)
        let received = second.receivedHeaders(forPath: "/hostile/headers/other")
        #expect(received.count == 1)
        for name in Self.sensitive.keys {
            #expect(received.first?[name] == nil, "\(name) reached the other origin")
        }
        #expect(received.first?["x-note"] == "kept", "the other fields go on")
        await first.stop()
        await second.stop()
    }

    @Test(arguments: Transport.allCases)
    func aRedirectOnTheSameOriginKeepsThem(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let target = server.url("/hostile/headers/same")
        let response = try await Self.load(Self.redirect(on: server, to: target), transport: transport)
        #expect(response.response?.statusCode == 200)
        let received = server.receivedHeaders(forPath: "/hostile/headers/same")
        #expect(received.count == 1)
        for (name, value) in Self.sensitive {
            #expect(received.first?[name] == value, "\(name) on the same origin")
        }
        #expect(received.first?["x-note"] == "kept")
        await server.stop()
    }
}
