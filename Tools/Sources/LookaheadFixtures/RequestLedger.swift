// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — RequestLedger: per-path request, completion and abort counters, with async waits.

import Synchronization

/// Counts what happened to requests, by path, and wakes tasks waiting for a count.
///
/// Waiters are continuations kept under the same `Mutex` as the counters: every update collects
/// the waiters whose condition now holds and resumes them after the lock is released.
final class RequestLedger: Sendable {
    /// What can be counted for a path.
    enum Event: Sendable {
        case request, completion, abort
    }

    private struct Waiter {
        let event: Event
        let path: String
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var requests: [String: Int] = [:]
        var completions: [String: Int] = [:]
        var aborts: [String: Int] = [:]
        var totalRequests = 0
        /// The client endpoints (address and port) requests arrived from: one per TCP connection.
        var connections: Set<String> = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiterID = 0

        func count(_ event: Event, path: String) -> Int {
            switch event {
            case .request: requests[path, default: 0]
            case .completion: completions[path, default: 0]
            case .abort: aborts[path, default: 0]
            }
        }

        /// Removes and returns the waiters whose condition holds now.
        mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let ready = waiters.filter { count($0.value.event, path: $0.value.path) >= $0.value.count }
            for id in ready.keys {
                waiters[id] = nil
            }
            return ready.values.map(\.continuation)
        }
    }

    private let state = Mutex(State())

    /// Records a new request for `path` and returns its index among the requests for that path
    /// (0 for the first one since the last reset). `connection` names the client's end of the connection.
    func recordRequest(path: String, connection: String = "") -> Int {
        let (index, ready) = state.withLock { state in
            let index = state.requests[path, default: 0]
            state.requests[path] = index + 1
            state.totalRequests += 1
            if !connection.isEmpty { state.connections.insert(connection) }
            return (index, state.takeSatisfiedWaiters())
        }
        ready.forEach { $0.resume() }
        return index
    }

    /// Records that the response to a request for `path` was fully written.
    func recordCompletion(path: String) {
        record { $0.completions[path, default: 0] += 1 }
    }

    /// Records that the client went away (or the server stopped) before the response was written.
    func recordAbort(path: String) {
        record { $0.aborts[path, default: 0] += 1 }
    }

    /// The current count of `event` for `path`.
    func count(_ event: Event, path: String) -> Int {
        state.withLock { $0.count(event, path: path) }
    }

    /// All requests recorded since the last reset.
    var totalRequests: Int {
        state.withLock { $0.totalRequests }
    }

    /// The distinct connections requests arrived on since the last reset.
    var connectionCount: Int {
        state.withLock { $0.connections.count }
    }

    /// Clears every counter. Pending waiters stay and see the counts from zero.
    func reset() {
        state.withLock { state in
            state.requests = [:]
            state.completions = [:]
            state.aborts = [:]
            state.totalRequests = 0
            state.connections = []
        }
    }

    /// Suspends until the count of `event` for `path` is at least `count`.
    ///
    /// Returns early, without throwing, if the calling task is cancelled.
    func wait(for event: Event, path: String, count: Int) async {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let isDone = state.withLock { state in
                    // Cancellation is flagged before the handler runs, so checking here under the
                    // lock closes the race with a handler that ran before the waiter was stored.
                    if Task.isCancelled || state.count(event, path: path) >= count { return true }
                    state.waiters[id] = Waiter(event: event, path: path, count: count, continuation: continuation)
                    return false
                }
                if isDone { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume()
        }
    }

    private func record(_ update: (inout State) -> Void) {
        let ready = state.withLock { state in
            update(&state)
            return state.takeSatisfiedWaiters()
        }
        ready.forEach { $0.resume() }
    }
}
