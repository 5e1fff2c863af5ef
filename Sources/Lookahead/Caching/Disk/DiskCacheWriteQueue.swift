// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Dispatch

/// Runs a disk cache's background jobs one at a time: its writes, and every other job on ``jobs``. While the pipeline
/// decodes (``holdWrites()``) a write waits, so an image reaches the screen first, until no hold has been left for
/// ``State/idleDelay``; a write still waiting ``State/delay`` after it was queued is done by a drain.
final class DiskCacheWriteQueue: Sendable {
    private struct State {
        /// Writes not yet run, oldest first: each runs once, on the write queue or in a drain.
        var pending: [@Sendable () -> Void] = []
        /// Runs after a batch of writes; `nil` until ``start(afterWrites:)``, and until then only drains write.
        var afterWrites: (@Sendable () -> Void)?
        var isDrainScheduled = false
        var holds = 0
        var lastHoldEnded: DispatchTime?
        var isIdlePassScheduled = false
        /// Longer than the gaps between the decodes of a batch of images.
        var idleDelay = DispatchTimeInterval.milliseconds(50)
        /// The longest a write waits for the write queue before a drain does it.
        var delay = DispatchTimeInterval.milliseconds(500)

        func mayRun(at now: DispatchTime) -> Bool { holds == 0 && lastHoldEnded.map { now >= $0 + idleDelay } ?? true }

        /// Claims the pass that runs the waiting writes once the quiet time after the last hold is over.
        mutating func claimIdlePass(at now: DispatchTime) -> DispatchTime? {
            guard holds == 0, let ended = lastHoldEnded, !pending.isEmpty, !isIdlePassScheduled,
                now <= ended + idleDelay
            else { return nil }
            isIdlePassScheduled = true
            return ended + idleDelay
        }
    }

    private let state = Locked(State())
    /// Every job but the writes.
    let jobs = DispatchQueue(label: "Lookahead.DiskCache", qos: .utility)
    /// The writes; on Linux a QoS only sets a nice value, so the lowest.
    private let writes = DispatchQueue(label: "Lookahead.DiskCache.writes", qos: writeQoS)
    #if canImport(Darwin)
    private static let writeQoS = DispatchQoS.utility
    #else
    private static let writeQoS = DispatchQoS.background
    #endif
    /// Held by every job on either queue while it runs: the folder sees one job at a time, as from one queue.
    private let jobLock = Locked(())

    func exclusively(_ body: () -> Void) { jobLock.withLock { _ in body() } }

    /// Lets the write queue write once the index is loaded; `afterWrites` runs after each batch.
    func start(afterWrites: @escaping @Sendable () -> Void) { state.withLock { $0.afterWrites = afterWrites } }

    /// Queues a store's write on the write queue, and a drain ``State/delay`` later on ``jobs`` when none is due.
    func enqueue(_ write: @escaping @Sendable () -> Void) {
        let (schedulesDrain, delay, idlePass) = state.withLock { state -> (Bool, DispatchTimeInterval, DispatchTime?) in
            state.pending.append(write)
            let schedulesDrain = !state.isDrainScheduled
            state.isDrainScheduled = true
            return (schedulesDrain, state.delay, state.claimIdlePass(at: .now()))
        }
        writes.async {
            self.exclusively {
                guard self.state.withLock({ $0.afterWrites != nil && $0.mayRun(at: .now()) }) else { return }
                self.runPending(upTo: 1)
            }
        }
        if let idlePass { scheduleIdlePass(at: idlePass) }
        guard schedulesDrain else { return }
        jobs.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.isDrainScheduled = false }
            self.exclusively { self.runPending(upTo: .max) }
        }
    }

    /// Runs the oldest waiting writes, at most `count`; the caller holds the job lock.
    func runPending(upTo count: Int) {
        let (writes, afterWrites) = state.withLock { state in
            let writes = Array(state.pending.prefix(count))
            state.pending.removeFirst(writes.count)
            return (writes, state.afterWrites)
        }
        for write in writes { write() }
        if !writes.isEmpty { afterWrites?() }
    }

    func holdWrites() { state.withLock { $0.holds += 1 } }

    /// Once no hold has run for ``State/idleDelay``, the waiting writes run one at a time until a new hold begins.
    func releaseWrites() {
        let idlePass = state.withLock { state -> DispatchTime? in
            precondition(state.holds > 0, "releaseWrites() without holdWrites()")
            state.holds -= 1
            guard state.holds == 0 else { return nil }
            let now = DispatchTime.now()
            state.lastHoldEnded = now
            return state.claimIdlePass(at: now)
        }
        if let idlePass { scheduleIdlePass(at: idlePass) }
    }

    /// Runs the waiting writes at `deadline` if no hold has begun by then, else once the next quiet time is over.
    private func scheduleIdlePass(at deadline: DispatchTime) {
        writes.asyncAfter(deadline: deadline) { [weak self] in
            guard let self else { return }
            self.exclusively {
                while true {
                    switch self.nextIdleStep(at: .now()) {
                    case .write: self.runPending(upTo: 1)
                    case .stop: return
                    case .wait(let deadline): return self.scheduleIdlePass(at: deadline)
                    }
                }
            }
        }
    }

    private enum IdleStep {
        case write, stop
        case wait(until: DispatchTime)
    }

    private func nextIdleStep(at now: DispatchTime) -> IdleStep {
        state.withLock { state in
            guard state.afterWrites != nil, !state.pending.isEmpty, state.holds == 0 else {
                state.isIdlePassScheduled = false
                return .stop
            }
            if state.mayRun(at: now) { return .write }
            // A hold began and ended since: the quiet time starts again.
            return .wait(until: (state.lastHoldEnded ?? now) + state.idleDelay)
        }
    }

    // MARK: - Tests

    func setDelay(_ delay: DispatchTimeInterval) { state.withLock { $0.delay = delay } }

    func setIdleDelay(_ delay: DispatchTimeInterval) { state.withLock { $0.idleDelay = delay } }

    func waitForWriteQueue() { writes.sync {} }

    /// Runs `body` while the write queue runs nothing: only a flush or a drain writes meanwhile.
    func holdingWriteQueue<Result>(_ body: () throws -> Result) rethrows -> Result {
        writes.suspend()
        defer { writes.resume() }
        return try body()
    }

    /// Runs `body` while both queues run nothing (a job already running ends first).
    func holdingQueues<Result>(_ body: () -> Result) -> Result {
        jobs.suspend()
        writes.suspend()
        defer {
            writes.resume()
            jobs.resume()
        }
        return jobLock.withLock { _ in body() }
    }
}
