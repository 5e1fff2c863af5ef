// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ManualClock: a clock that moves only when the test says so.

@testable import Lookahead

#if !LOOKAHEAD_PTHREAD_LOCKS
#endif

/// A `Clock` whose time advances only through ``advance(by:)``. Sleeping is not supported.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Locked(Instant(offset: .zero))

    var now: Instant { current.withLock { $0 } }
    var minimumResolution: Duration { .nanoseconds(1) }

    func advance(by duration: Duration) {
        current.withLock { $0.offset += duration }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        preconditionFailure("ManualClock does not sleep")
    }
}
