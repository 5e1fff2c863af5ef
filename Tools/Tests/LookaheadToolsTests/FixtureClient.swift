// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — FixtureClient: a plain HTTP client for the fixture server tests.

import Foundation
import LookaheadFixtures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession with no cache, so every request reaches the server.
struct FixtureClient: Sendable {
    let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        self.session = URLSession(configuration: configuration)
    }

    /// Fetches `url`. With `closingConnection`, the request asks the server to close the
    /// connection afterwards, so that the next request opens a fresh one.
    func get(_ url: URL, closingConnection: Bool = false) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url)
        if closingConnection {
            request.setValue("close", forHTTPHeaderField: "Connection")
        }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }

    func close() {
        session.invalidateAndCancel()
    }
}

/// Starts a server, runs `body` against it with a fresh client, and stops it again.
func withFixtureServer(
    _ configuration: FixtureServer.Configuration = .init(),
    _ body: (FixtureServer, FixtureClient) async throws -> Void
) async throws {
    let server = try await FixtureServer.start(configuration: configuration)
    let client = FixtureClient()
    do {
        try await body(server, client)
    } catch {
        client.close()
        await server.stop()
        throw error
    }
    client.close()
    await server.stop()
}
