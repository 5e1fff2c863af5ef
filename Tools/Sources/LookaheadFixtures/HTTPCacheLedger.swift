// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — HTTPCacheLedger: what the fixture server's cacheable route sent, by path.

import Synchronization

/// Counts, per path of the `/cacheable/` and `/resumable/` routes, the body bytes the server handed out and the
/// `304 Not Modified` and `206 Partial Content` answers it gave, so tests can prove a revalidation transferred no
/// body and a resumed download only the rest. It also holds each path's version (its ETag).
final class HTTPCacheLedger: Sendable {
    private struct Counts {
        var bodyBytes = 0
        var notModified = 0
        var partial = 0
        var ranged = 0
    }

    private let counts = Mutex([String: Counts]())
    private let versions = Mutex([String: String]())
    private let statuses = Mutex([String: Int]())
    private let stalled = Mutex(Set<String>())

    /// `true` the first time only for `path`: the `/resumable/` route stalls one response per path.
    func takeStall(path: String) -> Bool { stalled.withLock { $0.insert(path).inserted } }

    /// The version tag of the image at `path`: `v1` until a test changes it.
    func version(path: String) -> String { versions.withLock { $0[path] ?? "v1" } }

    /// Changes the image at `path`, as far as its validators go.
    func setVersion(_ tag: String, path: String) { versions.withLock { $0[path] = tag } }

    /// The status `path` answers with in place of its image (`nil`: the image).
    func status(path: String) -> Int? { statuses.withLock { $0[path] } }

    /// Makes `path` answer `status` (with its caching headers and a short text) until set back to `nil`.
    func setStatus(_ status: Int?, path: String) { statuses.withLock { $0[path] = status } }

    /// Records a response for `path`: its body length, and whether it was a 304.
    func record(path: String, bodyBytes: Int, notModified: Bool, partial: Bool = false) {
        counts.withLock { counts in
            counts[path, default: Counts()].bodyBytes += bodyBytes
            if notModified { counts[path, default: Counts()].notModified += 1 }
            if partial { counts[path, default: Counts()].partial += 1 }
        }
    }

    /// Records a request for `path` that carried a `Range` header, answered or not.
    func recordRangeRequest(path: String) { counts.withLock { $0[path, default: Counts()].ranged += 1 } }

    /// The requests for `path` that carried a `Range` header.
    func rangeRequests(path: String) -> Int { counts.withLock { $0[path]?.ranged ?? 0 } }

    /// The 206 answers given for `path`.
    func partial(path: String) -> Int { counts.withLock { $0[path]?.partial ?? 0 } }

    /// The body bytes handed out for `path`.
    func bodyBytes(path: String) -> Int { counts.withLock { $0[path]?.bodyBytes ?? 0 } }

    /// The 304 answers given for `path`.
    func notModified(path: String) -> Int { counts.withLock { $0[path]?.notModified ?? 0 } }

    /// Forgets every count.
    func reset() { counts.withLock { $0 = [:] } }
}
