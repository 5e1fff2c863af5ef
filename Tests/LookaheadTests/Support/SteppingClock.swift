// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — SteppingClock: a manual clock that code can sleep on, woken only when the test advances it.

@testable import Lookahead

/// A `Clock` whose time moves only through ``advance(by:)``; a sleep resumes once the time reaches its deadline, and
/// throws `CancellationError` when its task is cancelled. ``sleeps`` counts the sleeps begun, so a test advances the
/// time only once the code under test waits on it.
final class SteppingClock: Clock, Sendable {
    typealias Instant = ManualClock.Instant

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let state = Locked((now: Instant(offset: .zero), nextID: 0, sleepers: [Sleeper]()))
    /// How many sleeps have begun.
    let sleeps = AsyncCondition(0)

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves the time on, and wakes the sleepers whose deadline it reached.
    func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            defer { state.sleepers.removeAll { $0.deadline <= now } }
            return state.sleepers.filter { $0.deadline <= now }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let isDue = state.withLock { state -> Bool in
                    if state.now >= deadline { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return false
                }
                if isDue { continuation.resume() }
                sleeps.update { $0 += 1 }
                if Task.isCancelled { cancel(id) }
            }
        } onCancel: {
            cancel(id)
        }
    }

    /// Ends sleep `id` with `CancellationError`, if it is still waiting.
    private func cancel(_ id: Int) {
        let sleeper = state.withLock { state -> Sleeper? in
            guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
            return state.sleepers.remove(at: index)
        }
        sleeper?.continuation.resume(throwing: CancellationError())
    }
}
