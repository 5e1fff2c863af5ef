// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The ``FailureBackoffStateMachine`` of a pipeline under a lock of its own, so a check from a scroll callback never
/// waits for the task graph. Records are keyed by the identity of requests the pipeline has identified.
final class FailureRecords: Sendable {
    private let machine: Locked<FailureBackoffStateMachine>
    private let now: @Sendable () -> Duration
    /// The machine's counts, read without its lock: when nothing failed a check takes no lock.
    private let recordCount = AtomicInt(0)
    private let unreachableHostCount = AtomicInt(0)
    private let recoveries: HostRecoveries

    init(policy: ImagePipeline.FailureBackoff, recoveries: HostRecoveries = HostRecoveries()) {
        self.machine = Locked(FailureBackoffStateMachine(policy: policy))
        self.now = policy.now
        self.recoveries = recoveries
    }

    /// The error a request fails with at once, or `nil` when it may go to the network.
    func check(_ request: ImageRequest) -> ImagePipeline.Error? {
        let policy = request.dataPolicy
        guard policy.loadsFromNetwork, !policy.skipsFailureBackoff, recordCount.load() > 0 else { return nil }
        let now = now()
        return machine.withLock { $0.check(request.identity, now: now) }
    }

    /// Asks to start a download of the request's URL; `nil` to go ahead (the attempt is noted).
    func admit(_ request: ImageRequest) -> ImagePipeline.Error? {
        let now = now()
        let bypass = request.dataPolicy.skipsFailureBackoff
        return machine.withLock { $0.admit(request.identity, now: now, bypass: bypass) }
    }

    /// A download of the request failed; a status answer's `Retry-After` goes with it.
    func recordDownloadFailure(of request: ImageRequest, error: ImagePipeline.Error) {
        let retryAfter = error.retryAfter
        let now = now()
        let host = request.url?.host
        update { $0.recordFailure(request.identity, error: error, retryAfter: retryAfter, host: host, now: now) }
    }

    /// The server of `url` answered: failures that did not reach its host are forgotten and the recovery announced.
    func hostAnswered(_ url: URL) {
        guard unreachableHostCount.load() > 0, let host = url.host else { return }
        if update({ $0.hostAnswered(host) }) { recoveries.hostRecovered(host) }
    }

    /// Whether `host` has failures that did not reach it and has not answered since.
    func isUnreachable(_ host: String) -> Bool {
        unreachableHostCount.load() > 0 && machine.withLock { $0.unreachableHosts.contains(host) }
    }

    /// Network data decoded (`nil`) or failed to: a failure counts too (an HTML body asked for every frame).
    func recordDecode(of request: ImageRequest, error: ImagePipeline.Error?) {
        guard let error else { return forget(request) }
        let now = now()
        update { $0.recordFailure(request.identity, error: error, now: now) }
    }

    /// Network data passed, or a retry: the request's failures are forgotten.
    func forget(_ request: ImageRequest) { update { $0.forget(request.identity) } }

    /// The credentials changed: failures the server answered `401` or `403` are forgotten.
    func forgetAuthenticationFailures() { update { $0.forgetAuthenticationFailures() } }

    func forgetAll() { update { $0.forgetAll() } }

    /// Changes the machine under its lock and publishes its counts.
    @discardableResult
    private func update<Result>(_ body: (inout FailureBackoffStateMachine) -> Result) -> Result {
        machine.withLock {
            let result = body(&$0)
            recordCount.store($0.count)
            unreachableHostCount.store($0.unreachableHosts.count)
            return result
        }
    }
}
