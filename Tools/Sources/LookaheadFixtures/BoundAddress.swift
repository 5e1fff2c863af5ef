// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — BoundAddress: the fixture server's base URL, known only once it is listening.

import Synchronization

/// Holds the server's base URL (`http://HOST:PORT`, no trailing slash) for the routes that
/// report it. The routes are built before the port is bound, so it is filled in when the server
/// starts listening, before `FixtureServer.start` returns.
final class BoundAddress: Sendable {
    private let value = Mutex<String?>(nil)

    /// The base URL text, or `nil` before the server is listening.
    var baseURL: String? {
        value.withLock { $0 }
    }

    /// Records the base URL.
    func set(_ baseURL: String) {
        value.withLock { $0 = baseURL }
    }
}
