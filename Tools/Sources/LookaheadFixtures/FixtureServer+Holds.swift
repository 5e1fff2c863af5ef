// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureServer holds: responses whose path starts with a prefix wait until the test releases them.

import Foundation
import Synchronization

/// Which paths are held, which of them were released, and the requests waiting. Read by
/// ``RequestTrackingMiddleware`` on every request.
final class ResponseHolds: Sendable {
    private struct State {
        var prefix: String?
        var released: Set<String> = []
        var isReleasedAll = false
        var waiting: [Int: (path: String, resume: CheckedContinuation<Void, Never>)] = [:]
        var nextWaiter = 0

        func isHeld(_ path: String) -> Bool {
            guard let prefix, !isReleasedAll else { return false }
            return path.hasPrefix(prefix) && !released.contains(path)
        }
    }

    private let state = Mutex(State())

    func hold(prefix: String) {
        state.withLock {
            $0.prefix = prefix
            $0.isReleasedAll = false
            $0.released = []
        }
    }

    /// Resumes the requests for `path` waiting now and lets later ones through; `nil` releases every path.
    func release(_ path: String?) {
        let resumed = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if let path { state.released.insert(path) } else { state.isReleasedAll = true }
            let ready = state.waiting.filter { !state.isHeld($0.value.path) }
            for id in ready.keys { state.waiting[id] = nil }
            return ready.values.map(\.resume)
        }
        for continuation in resumed { continuation.resume() }
    }

    /// Returns once `path` is not held, or the request's task is cancelled (the server stops).
    func waitIfHeld(_ path: String) async {
        let id = state.withLock { state -> Int? in
            guard state.isHeld(path) else { return nil }
            state.nextWaiter += 1
            return state.nextWaiter
        }
        guard let id else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let isStillHeld = state.withLock { state in
                    guard state.isHeld(path), !Task.isCancelled else { return false }
                    state.waiting[id] = (path, continuation)
                    return true
                }
                if !isStillHeld { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume.resume()
        }
    }
}

extension FixtureServer {
    /// Holds every response whose path starts with `prefix` (counted as a request at once, answered only once
    /// released), so a test decides when each download ends.
    public func holdResponses(withPathPrefix prefix: String) {
        holds.hold(prefix: prefix)
    }

    /// Answers the held requests for `path`, now and later.
    public func releaseResponses(forPath path: String) {
        holds.release(path)
    }

    /// Answers every held request, now and later.
    public func releaseAllResponses() {
        holds.release(nil)
    }
}
