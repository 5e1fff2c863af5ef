// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ManualScheduler: deferred work that runs only when the test says so.

/// Collects scheduled closures; ``runAll()`` runs them (and any they schedule) on the caller's thread.
final class ManualScheduler: Sendable {
    let scheduled = AsyncCondition<[@Sendable () -> Void]>([])

    var schedule: @Sendable (@escaping @Sendable () -> Void) -> Void {
        { [scheduled] work in scheduled.update { $0.append(work) } }
    }

    /// Runs everything scheduled so far, and what that schedules, until nothing is left.
    func runAll() {
        while true {
            let work = scheduled.update { queue -> [@Sendable () -> Void] in
                defer { queue.removeAll() }
                return queue
            }
            if work.isEmpty { return }
            for item in work { item() }
        }
    }

    /// Runs the oldest scheduled closure alone; returns whether there was one.
    @discardableResult
    func runNext() -> Bool {
        let work = scheduled.update { queue -> (@Sendable () -> Void)? in
            queue.isEmpty ? nil : queue.removeFirst()
        }
        work?()
        return work != nil
    }

    /// Suspends until something is scheduled.
    func waitForWork() async {
        await scheduled.wait { !$0.isEmpty }
    }
}
