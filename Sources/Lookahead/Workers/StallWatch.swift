// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Watches one download's progress and reports a stall once a whole interval passes without a new byte. Checks run
/// on a dispatch queue of their own: a sleeping task on a busy cooperative pool may wake seconds late, and a stall
/// noticed late keeps a trickling server in a slot an image on screen waits for.
final class StallWatch: Sendable {
    /// Runs a check after a delay.
    typealias Scheduler = @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

    private static let queue = DispatchQueue(label: "Lookahead.StallWatch", qos: .userInitiated)

    static let dispatch: Scheduler = { delay, check in
        let nanoseconds = max(1, Int(delay.secondsValue * 1_000_000_000))
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: check)
    }

    private let interval: Duration
    private let schedule: Scheduler
    private let progress: @Sendable () -> Int64
    private let stalled: @Sendable () -> Void
    /// The progress at the last check, or `nil` once the watch has stopped.
    private let seen = Locked<Int64?>(0)

    /// Starts watching: `progress` reads the bytes so far; `stalled` is called at most once.
    init(
        every interval: Duration,
        schedule: @escaping Scheduler = StallWatch.dispatch,
        progress: @escaping @Sendable () -> Int64,
        stalled: @escaping @Sendable () -> Void
    ) {
        self.interval = interval
        self.schedule = schedule
        self.progress = progress
        self.stalled = stalled
        scheduleCheck()
    }

    /// Stops watching; a check already due does nothing.
    func cancel() {
        seen.withLock { $0 = nil }
    }

    private func scheduleCheck() {
        schedule(interval) { [self] in check() }
    }

    private func check() {
        let now = progress()
        let isStalled = seen.withLock { seen -> Bool? in
            guard let last = seen else { return nil }  // stopped
            seen = now == last ? nil : now
            return now == last
        }
        if isStalled == true { stalled() } else if isStalled == false { scheduleCheck() }
    }
}
