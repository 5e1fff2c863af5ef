// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — RequestHeaderLedger: the header fields each request to the `/hostile/headers/` route carried.

import Synchronization

/// The header fields of every request to `/hostile/headers/{name}`, by path and in order, so a test can show which
/// fields a client sent to this server (after a redirect from another, say).
final class RequestHeaderLedger: Sendable {
    private let requests = Mutex([String: [[String: String]]]())

    /// Records a request for `path` with its fields, names lowercased; repeated fields joined with `, `.
    func record(path: String, fields: [(name: String, value: String)]) {
        var headers: [String: String] = [:]
        for (name, value) in fields {
            headers[name.lowercased()] = headers[name.lowercased()].map { "\($0), \(value)" } ?? value
        }
        requests.withLock { $0[path, default: []].append(headers) }
    }

    /// The fields of each request for `path`, oldest first.
    func headers(path: String) -> [[String: String]] {
        requests.withLock { $0[path] ?? [] }
    }
}
