// Lookahead — HTTPCacheLedger: what the fixture server's cacheable route sent, by path.

import Synchronization

/// Counts, per path of the `/cacheable/` route, the body bytes the server handed out and the `304 Not Modified`
/// answers it gave, so tests can prove a revalidation transferred no body.
final class HTTPCacheLedger: Sendable {
    private struct Counts {
        var bodyBytes = 0
        var notModified = 0
    }

    private let counts = Mutex([String: Counts]())
    private let versions = Mutex([String: String]())

    /// The version tag of the image at `path`: `v1` until a test changes it.
    func version(path: String) -> String { versions.withLock { $0[path] ?? "v1" } }

    /// Changes the image at `path`, as far as its validators go.
    func setVersion(_ tag: String, path: String) { versions.withLock { $0[path] = tag } }

    /// Records a response for `path`: its body length, and whether it was a 304.
    func record(path: String, bodyBytes: Int, notModified: Bool) {
        counts.withLock { counts in
            counts[path, default: Counts()].bodyBytes += bodyBytes
            if notModified { counts[path, default: Counts()].notModified += 1 }
        }
    }

    /// The body bytes handed out for `path`.
    func bodyBytes(path: String) -> Int { counts.withLock { $0[path]?.bodyBytes ?? 0 } }

    /// The 304 answers given for `path`.
    func notModified(path: String) -> Int { counts.withLock { $0[path]?.notModified ?? 0 } }

    /// Forgets every count.
    func reset() { counts.withLock { $0 = [:] } }
}
