// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FaultLedger: how many faults of each kind the fixture server injected.

import Synchronization

/// Counts injected faults by kind; shared by the image routes (which record) and the server
/// (which reports and resets).
final class FaultLedger: Sendable {
    private let counts = Mutex(FixtureServer.FaultInjection.Counts())

    /// Records one injected fault of `kind`.
    func record(_ kind: FixtureServer.FaultInjection.Kind) {
        counts.withLock { $0[kind] += 1 }
    }

    /// The counts so far.
    var snapshot: FixtureServer.FaultInjection.Counts {
        counts.withLock { $0 }
    }

    /// Sets every count back to zero.
    func reset() {
        counts.withLock { $0 = .init() }
    }
}
