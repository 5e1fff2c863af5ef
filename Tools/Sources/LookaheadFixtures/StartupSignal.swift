// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — StartupSignal: a one-shot rendezvous between the server task and `start()`.

import Synchronization

/// Carries the first outcome of starting the server (the bound port, or why it failed) from the
/// server task to the caller of `FixtureServer.start`. Later outcomes are ignored.
final class StartupSignal: Sendable {
    private enum State {
        case pending
        case waiting(CheckedContinuation<Result<Int, FixtureServer.Error>, Never>)
        case finished(Result<Int, FixtureServer.Error>)
    }

    private let state = Mutex(State.pending)

    /// Reports that the server is accepting connections on `port`.
    func succeed(port: Int) {
        finish(.success(port))
    }

    /// Reports that the server could not start.
    func fail(_ error: FixtureServer.Error) {
        finish(.failure(error))
    }

    /// Suspends until an outcome is reported. Cancelling the waiting task reports a failure.
    func wait() async throws(FixtureServer.Error) -> Int {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let outcome: Result<Int, FixtureServer.Error>? = state.withLock { state in
                    switch state {
                    case .pending:
                        state = .waiting(continuation)
                        return nil
                    case .finished(let result):
                        return result
                    case .waiting:
                        preconditionFailure("Internal inconsistency: StartupSignal awaited twice")
                    }
                }
                if let outcome { continuation.resume(returning: outcome) }
            }
        } onCancel: {
            fail(.startFailed(reason: "cancelled while starting"))
        }
        return try result.get()
    }

    private func finish(_ result: Result<Int, FixtureServer.Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Result<Int, FixtureServer.Error>, Never>? in
            switch state {
            case .pending:
                state = .finished(result)
                return nil
            case .waiting(let continuation):
                state = .finished(result)
                return continuation
            case .finished:
                return nil
            }
        }
        continuation?.resume(returning: result)
    }
}
