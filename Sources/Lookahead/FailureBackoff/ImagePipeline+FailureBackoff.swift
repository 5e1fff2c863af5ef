// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

extension ImagePipeline {
    /// How long the pipeline waits before loading a URL again after it failed, so a list that asks for a broken image
    /// on every frame does not ask the server on every frame. While a URL waits, requests for it fail at once with
    /// ``ImagePipeline/Error/failureBackoff(lastError:retryIn:)``; a success forgets it.
    ///
    /// - The n-th failure in a row waits `initialDelay × multiplierⁿ⁻¹`, at most ``maximumDelay``, less a jitter of up
    ///   to ``jitter`` of it, from a hash of the URL and the count: URLs that failed together are not retried together.
    /// - HTTP 4xx other than 408 and 429 is not retried automatically; neither is a response or image over the
    ///   size limits, nor a URL that cannot be loaded.
    /// - `Retry-After` on 429 and 503 is honoured, up to ``maximumRetryAfter``, when longer than the backoff.
    /// - Undecodable network data counts; undecodable disk data, cancellations and processing failures do not.
    /// - When a host answers again after failures that never reached it, those failures are forgotten and the host
    ///   is announced on ``ImagePipeline/recoveredHosts``.
    /// - An explicit retry bypasses the wait: ``ImageRequest/Options/skipFailureBackoff``, or
    ///   ``ImagePipeline/forgetFailures(for:)-(ImageRequest)`` and ``ImagePipeline/forgetAllFailures()``.
    public struct FailureBackoff: Sendable {
        /// The wait after the first failure. Default 1 s.
        public var initialDelay: Duration
        /// The factor each further failure in a row multiplies the wait by. Default 2.
        public var multiplier: Double
        /// The longest wait between automatic attempts (before jitter). Default 60 s.
        public var maximumDelay: Duration
        /// The largest share of a wait that jitter removes, 0…1. Default 0.2: a wait of 4 s is 3.2–4 s.
        public var jitter: Double
        /// The longest `Retry-After` honoured; a server asking for more gets this. Default 10 minutes.
        public var maximumRetryAfter: Duration
        /// The most URLs remembered. Default 4,096.
        public var capacity: Int
        /// The time waits are measured on: the elapsed time since the policy was created.
        let now: @Sendable () -> Duration

        /// Creates a backoff policy whose waits are measured on `clock`.
        public init<C: Clock>(
            initialDelay: Duration = .seconds(1),
            multiplier: Double = 2,
            maximumDelay: Duration = .seconds(60),
            jitter: Double = 0.2,
            maximumRetryAfter: Duration = .seconds(600),
            capacity: Int = 4096,
            clock: C = ContinuousClock()
        ) where C.Duration == Duration {
            self.initialDelay = initialDelay
            self.multiplier = multiplier
            self.maximumDelay = maximumDelay
            self.jitter = jitter
            self.maximumRetryAfter = maximumRetryAfter
            self.capacity = capacity
            let start = clock.now
            self.now = { start.duration(to: clock.now) }
        }
    }
}

// MARK: - Pipeline API

extension ImagePipeline {
    /// Whether a load of this request would fail at once because its URL failed recently and is waiting; cheap
    /// enough for every row on every frame.
    public func isInFailureBackoff(_ request: ImageRequest) -> Bool { failureBackoffError(for: request) != nil }

    /// Forgets the failures of a request's image (a user's retry): the next request for it goes to the network.
    public func forgetFailures(for request: ImageRequest) { failureRecords?.forget(identified(request)) }

    /// Forgets the failures of the image at a URL (its identity through ``Configuration/imageIDFilter``).
    public func forgetFailures(for url: URL) { forgetFailures(for: ImageRequest(url: url)) }

    /// The error a load of the request would fail with at once; `nil` when it may go to the network.
    func failureBackoffError(for request: ImageRequest) -> ImagePipeline.Error? {
        failureRecords?.check(identified(request))
    }

    /// Forgets every failure: the next request for any URL goes to the network. For a user's refresh.
    public func forgetAllFailures() { failureRecords?.forgetAll() }

    /// Tells the pipeline the app's credentials changed: a sign-in, a sign-out, a token obtained elsewhere. The images
    /// the server refused with `401` or `403` are no longer backed off, and a download under way that is answered
    /// `401` retries with the new credentials without calling ``Configuration/refreshCredentials``.
    public func credentialsChanged() {
        credentials.credentialsChanged()
        failureRecords?.forgetAuthenticationFailures()
    }

    /// The hosts that answer again after failures to reach them (refused, reset, offline, timed out), whose failures
    /// are then forgotten; for views other than ``ImageSlot``'s, which reload by themselves. Each access is a new
    /// stream. Needs ``Configuration/failureBackoff``.
    public var recoveredHosts: AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(64))
        let recoveries = hostRecoveries
        let id = recoveries.addObserver { host in continuation.yield(host) }
        continuation.onTermination = { _ in recoveries.removeObserver(id) }
        return stream
    }
}
