// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureConnectionCountTests: the fixture server counts the TCP connections requests arrive on.

import Foundation
import Testing

@testable import LookaheadFixtures

@Suite(.timeLimit(.minutes(1)))
struct FixtureConnectionCountTests {
    @Test func everyConnectionThatCarriedARequestCountsOnce() async throws {
        try await withFixtureServer { server, client in
            #expect(server.connectionCount == 0)
            // "Connection: close" makes the server close each connection after its response: three connections.
            for number in 1...3 {
                _ = try await client.get(server.imageURL(number, width: 16), closingConnection: true)
            }
            #expect(server.connectionCount == 3)
            #expect(server.totalRequestCount == 3)
            server.resetCounters()
            #expect(server.connectionCount == 0)
            _ = try await client.get(server.imageURL(4, width: 16), closingConnection: true)
            #expect(server.connectionCount == 1)
        }
    }

    @Test func theLedgerTellsConnectionsApartByTheirClientEndpoint() {
        let ledger = RequestLedger()
        _ = ledger.recordRequest(path: "/a", connection: "127.0.0.1:50000")
        _ = ledger.recordRequest(path: "/b", connection: "127.0.0.1:50000")
        _ = ledger.recordRequest(path: "/a", connection: "127.0.0.1:50001")
        #expect(ledger.connectionCount == 2)
        #expect(ledger.totalRequests == 3)
    }
}
