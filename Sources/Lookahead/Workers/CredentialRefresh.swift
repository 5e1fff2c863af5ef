// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Makes downloads answered `401` at about the same time share one refresh of the app's credentials
/// (``ImagePipeline/Configuration/refreshCredentials``). The credentials' version counts refreshes and calls of
/// ``ImagePipeline/credentialsChanged()``: a download notes it before the request modifier adds the credentials, and
/// its `401` starts or joins a refresh only while the version is the one noted; otherwise it retries at once.
final class CredentialRefresh: Sendable {
    private let state = Locked<(generation: Int, inFlight: Task<Void, any Error>?)>((0, nil))
    private let refresh: (@Sendable () async throws -> Void)?

    init(refresh: (@Sendable () async throws -> Void)?) {
        self.refresh = refresh
    }

    /// The credentials' version now; noted before a download is sent.
    var generation: Int { state.withLock { $0.generation } }

    /// The app changed the credentials itself.
    func credentialsChanged() {
        state.withLock { $0.generation += 1 }
    }

    /// A download sent at `generation` was answered `401`. Returns once the credentials are newer than that: at once
    /// when they already are (or there is no refresh to run), else when the refresh under way, or one started here,
    /// ends. Throws what the refresh threw.
    func refreshAfterUnauthorized(sentAt generation: Int) async throws {
        guard let refresh else { return }
        let task = state.withLock { state -> Task<Void, any Error>? in
            guard state.generation == generation else { return nil }
            if let inFlight = state.inFlight { return inFlight }
            let task = Task {
                var succeeded = false
                defer { self.finish(succeeded: succeeded) }
                try await refresh()
                succeeded = true
            }
            state.inFlight = task
            return task
        }
        try await task?.value
    }

    /// A refresh ended: the next `401` of a download sent from now on starts another.
    private func finish(succeeded: Bool) {
        state.withLock { state in
            state.inFlight = nil
            if succeeded { state.generation += 1 }
        }
    }
}
