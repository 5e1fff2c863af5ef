// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The pipeline's memory of failed URLs: a record per URL, at most `capacity` of them (least recently used go). A
/// failure counts once per admitted attempt, so requests sharing one download count once. Time is a `Duration`
/// since an origin the owner chooses; ``FailureRecords`` locks it.
package struct FailureBackoffStateMachine {
    /// What is known about a URL that failed.
    package struct Record: Sendable {
        /// Failures in a row, counted once per attempt.
        package var failureCount: Int
        package var lastError: ImagePipeline.Error
        /// When an automatic attempt is allowed again; `nil`: only an explicit one.
        package var retryAt: Duration?
        /// An attempt was admitted since the last failure counted: the next failure counts.
        package var isAttemptAdmitted = false
        /// The host the last failure could not reach (an answer from it clears the record); `nil` after an answer.
        package var unreachableHost: String?
    }

    /// How a failure counts.
    package enum Classification: Equatable, Sendable {
        /// Not the URL's fault (cancelled, invalidated, processing): no record.
        case ignored
        /// May work later: back off, then try again.
        case transient
        /// Will not work by itself (4xx, over a limit): no automatic attempt.
        case permanent
    }

    /// What a recorded failure led to.
    package enum Outcome: Equatable, Sendable {
        /// Not counted: the error is not the URL's fault.
        case ignored
        /// Counted (or, with no attempt since the last count, folded into it): wait this long.
        case backingOff(retryIn: Duration)
        /// No automatic attempt until a success, a bypass or the record is forgotten.
        case permanent
    }

    package let policy: ImagePipeline.FailureBackoff
    private var records: LRUStorage<String, Record>
    /// Hosts with a record whose last failure did not reach them.
    private(set) package var unreachableHosts: Set<String> = []

    package init(policy: ImagePipeline.FailureBackoff) {
        self.policy = policy
        self.records = LRUStorage(costLimit: .max, countLimit: max(1, policy.capacity))
    }

    package var count: Int { records.count }

    /// The record of a URL, if any (marked recently used).
    package mutating func record(for url: String) -> Record? { records.value(forKey: url, now: .zero) }

    // MARK: - Events

    /// The ``ImagePipeline/Error/failureBackoff(lastError:retryIn:)`` a request fails with at once (`retryIn` `nil`:
    /// no automatic attempt), or `nil` when it may go to the network; notes no attempt (see ``admit(_:now:bypass:)``).
    package mutating func check(_ url: String, now: Duration) -> ImagePipeline.Error? {
        guard let record = record(for: url) else { return nil }
        if let retryAt = record.retryAt, now >= retryAt { return nil }
        return .failureBackoff(lastError: record.lastError, retryIn: record.retryAt.map { $0 - now })
    }

    /// A download is about to start: allowed (`nil`, and noted, so its failure counts) unless the URL waits;
    /// `bypass` for an explicit retry.
    package mutating func admit(_ url: String, now: Duration, bypass: Bool = false) -> ImagePipeline.Error? {
        if let error = check(url, now: now), !bypass { return error }
        guard var record = record(for: url) else { return nil }
        record.isAttemptAdmitted = true
        records.setValue(record, forKey: url, cost: 0, expiresAt: nil)
        return nil
    }

    /// A load of the URL failed. The server's `retryAfter` is honoured for 429 and 503 only; a failure to reach
    /// `host` is cleared when it answers again.
    @discardableResult
    package mutating func recordFailure(
        _ url: String,
        error: ImagePipeline.Error,
        retryAfter: Duration? = nil,
        host: String? = nil,
        now: Duration
    ) -> Outcome {
        let classification = Self.classify(error)
        guard classification != .ignored else { return .ignored }
        let unreachableHost = Self.isUnreachable(error) ? host : nil
        if let unreachableHost, unreachableHosts.insert(unreachableHost).inserted,
            unreachableHosts.count > records.countLimit
        {
            // Hosts that never answered, whose records were evicted: keep only those with a record.
            unreachableHosts = Set(recordedKeys().compactMap { self.record(for: $0)?.unreachableHost })
            unreachableHosts.insert(unreachableHost)
        }
        var record =
            self.record(for: url) ?? Record(failureCount: 0, lastError: error, retryAt: nil, isAttemptAdmitted: true)
        record.lastError = error
        record.unreachableHost = unreachableHost
        // Counted once per admitted attempt: the same attempt failing again keeps the count and the wait.
        if record.isAttemptAdmitted {
            record.failureCount += 1
            record.isAttemptAdmitted = false
            record.retryAt = nil
            if classification == .transient {
                var wait = delay(afterFailure: record.failureCount, of: url)
                if let retryAfter, case .statusCodeUnacceptable(let code, _) = error, code == 429 || code == 503 {
                    wait = max(wait, min(max(.zero, retryAfter), policy.maximumRetryAfter))
                }
                record.retryAt = now + wait
            }
        }
        records.setValue(record, forKey: url, cost: 0, expiresAt: nil)
        return record.retryAt.map { .backingOff(retryIn: max(.zero, $0 - now)) } ?? .permanent
    }

    /// A load of the URL succeeded, or its failures are to be forgotten.
    package mutating func forget(_ url: String) { _ = records.removeValue(forKey: url) }

    package mutating func forgetAll() {
        records.removeAll()
        unreachableHosts.removeAll()
    }

    /// The credentials changed: the records of the URLs the server refused them for (`401`, `403`) are removed.
    package mutating func forgetAuthenticationFailures() {
        removeRecords { record in
            guard case .serverError(let code) = record.lastError.reason else { return false }
            return code == 401 || code == 403
        }
    }

    /// The host answered (any HTTP response): removes its records of failures that did not reach it; `true` when
    /// it had any (the network came back).
    package mutating func hostAnswered(_ host: String) -> Bool {
        guard unreachableHosts.remove(host) != nil else { return false }
        removeRecords { $0.unreachableHost == host }
        return true
    }

    private mutating func removeRecords(where matches: (Record) -> Bool) {
        for key in recordedKeys() where record(for: key).map(matches) == true {
            _ = records.removeValue(forKey: key)
        }
    }

    /// The keys, oldest first: reading each in this order leaves the recency order as it was.
    private func recordedKeys() -> [String] { records.keysByRecency.reversed() }

    // MARK: - Policy

    /// The wait after the n-th failure in a row (n ≥ 1): exponential, capped, less a deterministic jitter.
    package func delay(afterFailure count: Int, of url: String) -> Duration {
        let initial = max(0, policy.initialDelay.secondsValue)
        let maximum = max(initial, policy.maximumDelay.secondsValue)
        let exponent = Double(min(max(0, count - 1), 1024))
        let base = min(maximum, initial * pow(max(1, policy.multiplier), exponent))
        let jitter = min(1, max(0, policy.jitter))
        let fraction = Self.jitterFraction(url: url, attempt: count)
        return .seconds(base * (1 - jitter * fraction))
    }

    /// How an error counts against its URL.
    package static func classify(_ error: ImagePipeline.Error) -> Classification {
        switch error {
        // An animation over the limits is a fine image: its still request must not wait.
        case .cancelled, .pipelineInvalidated, .dataMissingInCache, .processingFailed, .animationTooLarge:
            .ignored
        case .failureBackoff(let lastError, _):
            classify(lastError)
        case .statusCodeUnacceptable(let code, _):
            (400..<500).contains(code) && code != 408 && code != 429 ? .permanent : .transient
        case .responseTooLarge, .imageTooLarge, .invalidURL, .unsupportedScheme:
            .permanent
        case .dataLoadingFailed(let underlying as DataLoadingError):
            switch underlying {
            case .fileUnreadable, .invalidHeaderField: .ignored  // nothing reached the network
            case .unsupportedURL, .unsupportedScheme, .responseTooLarge: .permanent
            default: .transient
            }
        case .dataLoadingFailed, .dataIsEmpty, .noDecoder, .decodingFailed:
            .transient
        }
    }

    /// Whether a failure never reached the server: refused, reset, offline, no such host, timed out or cut short
    /// (a TLS failure reached it).
    package static func isUnreachable(_ error: ImagePipeline.Error) -> Bool {
        guard case .unreachable(let kind) = error.reason else { return false }
        return kind != .tls
    }

    /// A number in [0, 1) from the URL and the attempt (FNV-1a, then SplitMix64's finaliser), stable across runs.
    package static func jitterFraction(url: String, attempt: Int) -> Double {
        var z = stableHash(url) ^ (UInt64(truncatingIfNeeded: attempt) &* 0x9e37_79b9_7f4a_7c15)
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
