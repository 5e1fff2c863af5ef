// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — AsyncCondition: state that tests can await a predicate on, without sleeping.

@testable import Lookahead

#if !LOOKAHEAD_PTHREAD_LOCKS
#endif

/// A value under a lock, with `wait(until:)` that suspends until the value satisfies a predicate.
final class AsyncCondition<Value: Sendable>: Sendable {
    private struct Waiter {
        let predicate: @Sendable (Value) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private let state: Locked<(value: Value, waiters: [Waiter])>

    init(_ value: Value) {
        state = Locked((value, []))
    }

    var value: Value { state.withLock { $0.value } }

    /// Changes the value and wakes the waiters whose predicate now holds.
    @discardableResult
    func update<R>(_ body: (inout Value) -> R) -> R {
        let (result, ready) = state.withLock { state -> (R, [Waiter]) in
            let result = body(&state.value)
            let value = state.value
            let ready = state.waiters.filter { $0.predicate(value) }
            state.waiters.removeAll { $0.predicate(value) }
            return (result, ready)
        }
        for waiter in ready { waiter.continuation.resume() }
        return result
    }

    /// Suspends until the predicate holds.
    func wait(until predicate: @escaping @Sendable (Value) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let satisfied = state.withLock { state -> Bool in
                if predicate(state.value) { return true }
                state.waiters.append(Waiter(predicate: predicate, continuation: continuation))
                return false
            }
            if satisfied { continuation.resume() }
        }
    }
}
