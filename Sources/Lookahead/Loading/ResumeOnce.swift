// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// A continuation resumed by whichever comes first, the work finishing or the caller cancelling.
final class ResumeOnce<Value: Sendable>: Sendable {
    private enum State {
        case idle
        case armed(CheckedContinuation<Value, any Error>)
        case cancelledEarly
        case resumed
    }

    private let state = Locked(State.idle)

    /// Runs `start` with a fresh `ResumeOnce` and waits for its value. Cancelling resumes the wait at once with
    /// `CancellationError` and calls `onCancel`; `start` is not called for a task cancelled before.
    static func run(
        _ start: (ResumeOnce<Value>) -> Void,
        onCancel: @escaping @Sendable () -> Void
    ) async throws -> Value {
        let once = ResumeOnce<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if once.arm(continuation) { start(once) }
            }
        } onCancel: {
            once.resume(with: .failure(CancellationError()))
            onCancel()
        }
    }

    /// Installs the continuation; `false` (after resuming it with `CancellationError`) when cancellation came first.
    private func arm(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            let cancelled = if case .cancelledEarly = state { true } else { false }
            state = cancelled ? .resumed : .armed(continuation)
            return cancelled
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Whether the continuation was resumed (the work finished or the caller cancelled).
    var isResumed: Bool {
        state.withLock { state in
            switch state {
            case .resumed, .cancelledEarly: true
            case .idle, .armed: false
            }
        }
    }

    /// Resumes the continuation if nobody did yet.
    func resume(with result: Result<Value, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            switch state {
            case .armed(let continuation):
                state = .resumed
                return continuation
            case .idle:
                if case .failure(let error) = result, error is CancellationError { state = .cancelledEarly }
                return nil
            case .cancelledEarly, .resumed:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
