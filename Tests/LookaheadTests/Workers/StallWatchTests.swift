// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the stall watch, its checks run by hand.

import Testing

@testable import Lookahead

@Suite struct StallWatchTests {
    /// The download the watch reads, and the stalls it reported.
    private final class Download: Sendable {
        let bytes = Locked<Int64>(0)
        let stalls = Locked(0)
    }

    let checks = ManualScheduler()
    private let download = Download()
    private var stalls: Int { download.stalls.withLock { $0 } }

    private func watch() -> StallWatch {
        StallWatch(
            every: .seconds(2),
            schedule: { [checks] _, check in checks.schedule(check) },
            progress: { [download] in download.bytes.withLock { $0 } },
            stalled: { [download] in download.stalls.withLock { $0 += 1 } }
        )
    }

    @Test func nothingInAWholeIntervalIsAStall() {
        let watch = watch()
        #expect(checks.runNext())
        #expect(stalls == 1)
        #expect(!checks.runNext(), "a stall is reported once and the watch stops")
        watch.cancel()
    }

    @Test func progressInEveryIntervalIsNot() {
        let watch = watch()
        for bytes in 1...5 {
            download.bytes.withLock { $0 = Int64(bytes) }
            #expect(checks.runNext())
        }
        #expect(stalls == 0)
        // The trickle stops: the next whole interval without a byte is a stall.
        #expect(checks.runNext())
        #expect(stalls == 1)
        watch.cancel()
    }

    @Test func aCancelledWatchReportsNothing() {
        let watch = watch()
        watch.cancel()
        #expect(checks.runNext(), "the check already due runs")
        #expect(stalls == 0)
        #expect(!checks.runNext(), "and schedules no other")
    }
}
