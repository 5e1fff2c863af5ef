// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — a host that answers again: the state machine forgets only that host's failures to reach it.

import Foundation
import Testing

@testable import Lookahead

@Suite struct HostRecoveryStateTests {
    private static let refused = ImagePipeline.Error.dataLoadingFailed(
        DataLoadingError.transportFailed(TransportFailure(kind: .connectionRefused, message: "refused"))
    )

    /// A machine and the events the tests send it, at time zero (a class: `#expect` takes no `inout`).
    private final class Fixture {
        var machine = FailureBackoffStateMachine(policy: ImagePipeline.FailureBackoff(jitter: 0))

        func fail(_ url: String, _ error: ImagePipeline.Error, host: String) {
            _ = machine.admit(url, now: .zero, bypass: true)
            machine.recordFailure(url, error: error, host: host, now: .zero)
        }

        func isAllowed(_ url: String) -> Bool {
            if case .none = machine.check(url, now: .zero) { return true }
            return false
        }

        func hostAnswered(_ host: String) -> Bool { machine.hostAnswered(host) }
    }

    @Test func anAnswerClearsOnlyThatHostsFailuresToReachIt() {
        let state = Fixture()
        state.fail("https://a.test/1.jpg", Self.refused, host: "a.test")
        state.fail(
            "https://a.test/2.jpg",
            .dataLoadingFailed(DataLoadingError.timedOut(.total(.seconds(5)))),
            host: "a.test"
        )
        state.fail("https://a.test/404.jpg", .statusCodeUnacceptable(404), host: "a.test")
        state.fail("https://a.test/html.jpg", .noDecoder(header: "<html>"), host: "a.test")
        state.fail("https://b.test/1.jpg", Self.refused, host: "b.test")
        #expect(state.machine.unreachableHosts == ["a.test", "b.test"])

        #expect(state.hostAnswered("a.test"))
        #expect(state.isAllowed("https://a.test/1.jpg"))
        #expect(state.isAllowed("https://a.test/2.jpg"))
        // Answers stay backed off: the server said so, and will say so again.
        #expect(!state.isAllowed("https://a.test/404.jpg"))
        #expect(!state.isAllowed("https://a.test/html.jpg"))
        // Another host is not vouched for by this answer.
        #expect(!state.isAllowed("https://b.test/1.jpg"))
        #expect(state.machine.unreachableHosts == ["b.test"])
    }

    @Test func aSecondAnswerIsNoNewsUntilTheHostFailsAgain() {
        let state = Fixture()
        state.fail("https://a.test/1.jpg", Self.refused, host: "a.test")
        #expect(state.hostAnswered("a.test"))
        #expect(!state.hostAnswered("a.test"))
        #expect(!state.hostAnswered("never-failed.test"))
        state.fail("https://a.test/1.jpg", Self.refused, host: "a.test")
        #expect(state.hostAnswered("a.test"))
    }

    @Test func aLaterAnswerForTheSameURLIsNoLongerClearedAsUnreachable() {
        let state = Fixture()
        state.fail("https://a.test/1.jpg", Self.refused, host: "a.test")
        state.fail("https://a.test/1.jpg", .statusCodeUnacceptable(500), host: "a.test")
        #expect(state.hostAnswered("a.test"))
        #expect(!state.isAllowed("https://a.test/1.jpg"))
    }

    @Test func whatCountsAsUnreachable() {
        func transport(_ kind: TransportFailure.Kind) -> ImagePipeline.Error {
            .dataLoadingFailed(DataLoadingError.transportFailed(TransportFailure(kind: kind, message: "")))
        }
        for kind in [TransportFailure.Kind.offline, .hostNotFound, .connectionRefused, .connectionReset, .other] {
            #expect(FailureBackoffStateMachine.isUnreachable(transport(kind)))
        }
        #expect(FailureBackoffStateMachine.isUnreachable(.failureBackoff(lastError: Self.refused, retryIn: nil)))
        #expect(!FailureBackoffStateMachine.isUnreachable(transport(.tls)))
        #expect(!FailureBackoffStateMachine.isUnreachable(.statusCodeUnacceptable(503)))
        #expect(!FailureBackoffStateMachine.isUnreachable(.decodingFailed(codec: "JPEG", message: "")))
        #expect(!FailureBackoffStateMachine.isUnreachable(.cancelled))
    }
}
