// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — FailureBackoffStateMachine driven synchronously: schedule, cap, jitter, classes, LRU bound.

import Foundation
import Testing

@testable import Lookahead

@Suite struct FailureBackoffStateMachineTests {
    private static let url = "https://example.com/a.jpg"

    private func machine(
        jitter: Double = 0,
        capacity: Int = 4096,
        maximumRetryAfter: Duration = .seconds(600)
    ) -> FailureBackoffStateMachine {
        FailureBackoffStateMachine(
            policy: ImagePipeline.FailureBackoff(
                jitter: jitter,
                maximumRetryAfter: maximumRetryAfter,
                capacity: capacity
            )
        )
    }

    /// Fails `url` once more, as an admitted attempt at `now`, and returns the wait.
    private func fail(
        _ machine: inout FailureBackoffStateMachine,
        _ error: ImagePipeline.Error = .statusCodeUnacceptable(500),
        url: String = Self.url,
        retryAfter: Duration? = nil,
        at now: Duration = .zero
    ) -> FailureBackoffStateMachine.Outcome {
        _ = machine.admit(url, now: now, bypass: true)
        return machine.recordFailure(url, error: error, retryAfter: retryAfter, now: now)
    }

    private func isAllowed(_ denial: ImagePipeline.Error?) -> Bool {
        if case .none = denial { return true }
        return false
    }

    private func retryIn(_ denial: ImagePipeline.Error?) -> Duration?? {
        if case .failureBackoff(_, let retryIn) = denial { return .some(retryIn) }
        return .none
    }

    // MARK: - Schedule

    @Test func waitsDoubleFromOneSecondUpToTheCap() {
        var machine = machine()
        let waits = (1...9).map { _ in fail(&machine) }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60, 60].map { .backingOff(retryIn: .seconds($0)) })
        #expect(machine.record(for: Self.url)?.failureCount == 9)
    }

    @Test func theCapHoldsForHugeFailureCountsAndOddSettings() {
        let machine = machine()
        #expect(machine.delay(afterFailure: 10_000, of: Self.url) == .seconds(60))
        #expect(machine.delay(afterFailure: .max, of: Self.url) == .seconds(60))
        var shrinking = ImagePipeline.FailureBackoff(multiplier: 0.5, jitter: 0)
        shrinking.maximumDelay = .seconds(5)
        let flat = FailureBackoffStateMachine(policy: shrinking)
        #expect(flat.delay(afterFailure: 5, of: Self.url) == .seconds(1))  // a multiplier below 1 counts as 1
    }

    @Test func jitterRemovesAtMostItsShareAndRepeats() {
        let machine = machine(jitter: 0.2)
        var fractions: Set<Double> = []
        for index in 0..<500 {
            let url = "https://example.com/\(index).jpg"
            for failure in 1...8 {
                let base = min(60.0, pow(2, Double(failure - 1)))
                let wait = machine.delay(afterFailure: failure, of: url).secondsValue
                #expect(wait <= base + 1e-9)
                #expect(wait >= base * 0.8 - 1e-9)
                #expect(machine.delay(afterFailure: failure, of: url).secondsValue == wait)  // deterministic
                fractions.insert((base - wait) / base)
            }
        }
        // URLs that failed together do not retry together: the waits are spread, not one value.
        #expect(fractions.count > 3000)
        let mean = fractions.reduce(0, +) / Double(fractions.count)
        #expect(abs(mean - 0.1) < 0.01)
    }

    @Test func jitterFractionIsStableAcrossRunsAndInRange() {
        // Fixed values: a change of hash would silently change every app's schedule.
        let a = FailureBackoffStateMachine.jitterFraction(url: Self.url, attempt: 1)
        let b = FailureBackoffStateMachine.jitterFraction(url: Self.url, attempt: 2)
        #expect(a != b)
        #expect((0..<1).contains(a) && (0..<1).contains(b))
        #expect(a == FailureBackoffStateMachine.jitterFraction(url: Self.url, attempt: 1))
    }

    // MARK: - Admission

    @Test func aURLWaitsUntilItsRetryTimeThenOneAttemptGoesAhead() {
        var machine = machine()
        #expect(isAllowed(machine.admit(Self.url, now: .zero)))  // no record: go ahead
        #expect(
            machine.recordFailure(Self.url, error: .statusCodeUnacceptable(500), now: .zero)
                == .backingOff(retryIn: .seconds(1))
        )
        #expect(retryIn(machine.check(Self.url, now: .milliseconds(400))) == .some(.milliseconds(600)))
        #expect(retryIn(machine.admit(Self.url, now: .milliseconds(999))) == .some(.milliseconds(1)))
        guard case .failureBackoff(.statusCodeUnacceptable(500, _), _) = machine.check(Self.url, now: .zero) else {
            Issue.record("the denial should carry the last error"); return
        }
        #expect(isAllowed(machine.admit(Self.url, now: .seconds(1))))
        #expect(
            machine.recordFailure(Self.url, error: .dataIsEmpty, now: .seconds(1)) == .backingOff(retryIn: .seconds(2))
        )
        #expect(retryIn(machine.check(Self.url, now: .seconds(2))) == .some(.seconds(1)))
        #expect(isAllowed(machine.check("https://example.com/other.jpg", now: .zero)))
    }

    @Test func aFailureCountsOncePerAttempt() {
        var machine = machine()
        #expect(
            machine.recordFailure(Self.url, error: .noDecoder(header: "3c"), now: .zero)
                == .backingOff(retryIn: .seconds(1))
        )
        // A second decode of the same bytes (or a request that shared the download) fails too: not a new attempt.
        #expect(
            machine.recordFailure(Self.url, error: .noDecoder(header: "3c"), now: .milliseconds(10))
                == .backingOff(retryIn: .milliseconds(990))
        )
        #expect(machine.record(for: Self.url)?.failureCount == 1)
        _ = machine.admit(Self.url, now: .seconds(1))
        #expect(
            machine.recordFailure(Self.url, error: .noDecoder(header: "3c"), now: .seconds(1))
                == .backingOff(retryIn: .seconds(2))
        )
        #expect(machine.record(for: Self.url)?.failureCount == 2)
    }

    @Test func aBypassGoesAheadDuringTheWaitAndItsFailureCounts() {
        var machine = machine()
        _ = fail(&machine)
        #expect(!isAllowed(machine.admit(Self.url, now: .milliseconds(1))))
        #expect(isAllowed(machine.admit(Self.url, now: .milliseconds(1), bypass: true)))
        #expect(
            machine.recordFailure(Self.url, error: .statusCodeUnacceptable(500), now: .milliseconds(1))
                == .backingOff(retryIn: .seconds(2))
        )
    }

    @Test func successAndForgettingClearTheRecord() {
        var machine = machine()
        _ = fail(&machine)
        _ = fail(&machine)
        machine.forget(Self.url)
        #expect(machine.record(for: Self.url) == nil)
        #expect(isAllowed(machine.check(Self.url, now: .zero)))
        #expect(fail(&machine) == .backingOff(retryIn: .seconds(1)))  // the schedule starts over
        _ = fail(&machine, url: "https://example.com/b.jpg")
        machine.forget(Self.url)
        #expect(machine.count == 1)
        machine.forgetAll()
        #expect(machine.count == 0)
    }

    // MARK: - Classes of failure

    @Test(arguments: [400, 401, 403, 404, 410, 451])
    func clientErrorsAreNotRetriedAutomatically(code: Int) {
        var machine = machine()
        #expect(fail(&machine, .statusCodeUnacceptable(code)) == .permanent)
        #expect(retryIn(machine.check(Self.url, now: .seconds(86_400))) == .some(nil))
        #expect(isAllowed(machine.admit(Self.url, now: .zero, bypass: true)))
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func timeoutsThrottlingAndServerErrorsBackOff(code: Int) {
        var machine = machine()
        #expect(fail(&machine, .statusCodeUnacceptable(code)) == .backingOff(retryIn: .seconds(1)))
        #expect(isAllowed(machine.check(Self.url, now: .seconds(1))))
    }

    @Test func changedCredentialsForgetOnlyTheFailuresThatRefusedThem() {
        var machine = machine()
        let failures: [(String, ImagePipeline.Error)] = [
            ("401", .statusCodeUnacceptable(401)),
            ("403", .dataLoadingFailed(DataLoadingError.statusCodeUnacceptable(403, nil))),
            ("404", .statusCodeUnacceptable(404)),
            ("503", .statusCodeUnacceptable(503)),
        ]
        for (url, error) in failures {
            _ = fail(&machine, error, url: url)
        }
        machine.forgetAuthenticationFailures()
        #expect(isAllowed(machine.check("401", now: .zero)))
        #expect(isAllowed(machine.check("403", now: .zero)))
        #expect(!isAllowed(machine.check("404", now: .zero)), "a missing image stays missing")
        #expect(!isAllowed(machine.check("503", now: .zero)))
    }

    @Test func limitsAndUnloadableURLsArePermanent() {
        for error in [
            ImagePipeline.Error.responseTooLarge(limit: 10), .imageTooLarge(width: 1, height: 1, limit: 0),
            .invalidURL(nil),
        ] {
            #expect(FailureBackoffStateMachine.classify(error) == .permanent)
        }
    }

    @Test func cancellationsAndWhatIsNotTheURLsFaultNeverCount() {
        var machine = machine()
        for error in [
            ImagePipeline.Error.cancelled, .pipelineInvalidated, .dataMissingInCache,
            .processingFailed(identifier: "p", message: "m"),
        ] {
            #expect(fail(&machine, error) == .ignored)
        }
        #expect(machine.count == 0)
        for error in [
            ImagePipeline.Error.dataLoadingFailed(URLError(.timedOut)), .dataIsEmpty, .noDecoder(header: "3c68"),
            .decodingFailed(codec: "JPEG", message: "truncated"),
        ] {
            #expect(FailureBackoffStateMachine.classify(error) == .transient)
        }
    }

    // MARK: - Retry-After

    @Test func retryAfterOn503And429IsHonouredAndCapped() {
        var machine = machine(maximumRetryAfter: .seconds(120))
        #expect(
            fail(&machine, .statusCodeUnacceptable(503), retryAfter: .seconds(30)) == .backingOff(retryIn: .seconds(30))
        )
        #expect(!isAllowed(machine.check(Self.url, now: .seconds(29))))
        #expect(isAllowed(machine.check(Self.url, now: .seconds(30))))
        let other = "https://example.com/throttled.jpg"
        #expect(
            fail(&machine, .statusCodeUnacceptable(429), url: other, retryAfter: .seconds(86_400))
                == .backingOff(retryIn: .seconds(120))
        )
        // A shorter Retry-After than the backoff: the backoff wins (never more often than it allows).
        for _ in 1...4 { _ = fail(&machine, .statusCodeUnacceptable(503), url: "https://example.com/c.jpg") }
        #expect(
            fail(&machine, .statusCodeUnacceptable(503), url: "https://example.com/c.jpg", retryAfter: .seconds(1))
                == .backingOff(retryIn: .seconds(16))
        )
    }

    @Test func retryAfterOnOtherStatusesIsIgnored() {
        var machine = machine()
        #expect(
            fail(&machine, .statusCodeUnacceptable(500), retryAfter: .seconds(30)) == .backingOff(retryIn: .seconds(1))
        )
    }

    // MARK: - Bound

    @Test func rememberedURLsAreBoundedLeastRecentlyUsedFirst() {
        var machine = machine(capacity: 3)
        for index in 1...3 { _ = fail(&machine, url: "https://example.com/\(index).jpg") }
        _ = machine.check("https://example.com/1.jpg", now: .zero)  // 1 is used again: 2 is now the oldest
        _ = fail(&machine, url: "https://example.com/4.jpg")
        #expect(machine.count == 3)
        #expect(machine.record(for: "https://example.com/2.jpg") == nil)
        #expect(machine.record(for: "https://example.com/1.jpg") != nil)
        for index in 5...10_000 { _ = fail(&machine, url: "https://example.com/\(index).jpg") }
        #expect(machine.count == 3)
    }
}
