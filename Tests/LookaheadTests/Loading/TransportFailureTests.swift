// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — what a libcurl failure means to an app: its CURLcode, errno and message read as one kind.

import Testing

@testable import Lookahead

@Suite struct TransportFailureTests {
    private func kind(_ code: Int, errno: Int = 0, _ message: String = "") -> TransportFailure.Kind {
        TransportFailure(curlCode: code, systemError: errno, message: message).kind
    }

    @Test func aTLSAlertOnTheFirstReadIsATLSFailureNotAReset() {
        let required =
            "OpenSSL SSL_read: OpenSSL/3.0.19: error:0A00045C:SSL routines::tlsv13 alert certificate required"
        #expect(kind(56, required) == .tls, "TLS 1.3: a server refusing the client certificate")
        #expect(kind(56, "OpenSSL SSL_read: error:0A000418:SSL routines::tlsv1 alert unknown ca") == .tls)
        #expect(kind(56, errno: 104, "Recv failure: Connection reset by peer") == .connectionReset)
        #expect(kind(58, "could not load PKCS12 client certificate") == .tls, "CURLE_SSL_CERTPROBLEM")
    }

    @Test func aConnectFailureIsOfflineOnlyWhenTheNetworkIsDownOrUnreachable() {
        #expect(kind(7, errno: 101) == .offline)
        #expect(kind(7, errno: 111) == .connectionRefused)
        #expect(kind(6) == .hostNotFound)
    }
}
