// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureServer outages: for a while, every connection is closed before any answer.

import Foundation
import Synchronization

/// When the server is down: until an instant, or until told otherwise. Read by ``RequestTrackingMiddleware`` on
/// every request.
final class OutageSwitch: Sendable {
    private enum State {
        case up
        case down(until: ContinuousClock.Instant?)
    }

    private let state = Mutex(State.up)

    var isDown: Bool {
        state.withLock { state in
            guard case .down(let until) = state else { return false }
            guard let until, until <= .now else { return true }
            state = .up
            return false
        }
    }

    func goDown(until: ContinuousClock.Instant?) { state.withLock { $0 = .down(until: until) } }

    func comeUp() { state.withLock { $0 = .up } }
}

extension FixtureServer {
    /// Starts an outage: every request until `duration` has passed (`nil`: until ``endOutage()``) has its connection
    /// closed before any byte of an answer, as a server that went away does. Clients see a reset connection
    /// (libcurl: "Empty reply from server"). Requests are still counted, and their responses count as aborted.
    public func startOutage(for duration: Duration? = nil) {
        outage.goDown(until: duration.map { ContinuousClock.now.advanced(by: $0) })
    }

    /// Ends an outage now: the next request is answered.
    public func endOutage() {
        outage.comeUp()
    }

    /// Whether the server is in an outage now.
    public var isInOutage: Bool { outage.isDown }
}
