// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — CurlConnectionReuseTests: the default loader keeps its connections between a list's downloads.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(1)))
struct CurlConnectionReuseTests {
    /// Six downloads at once, all finished, then six more: the second batch reuses the first batch's six idle
    /// connections. With libcurl's default connection cache (4 per transfer still running when one ends) the last
    /// downloads of the first batch closed connections, and the second batch opened new ones.
    @Test func aSecondBatchReusesTheFirstBatchsConnections() async throws {
        // The latency keeps the six of a batch in flight together: six connections. The jitter makes them end one at
        // a time, so the last one ends alone (libcurl's default then keeps 4 connections).
        let server = try await FixtureServer.start(
            configuration: .init {
                $0.latency = .milliseconds(50)
                $0.jitter = .milliseconds(200)
                $0.seed = 7
            }
        )
        let loader = DefaultDataLoader()
        func batch(_ numbers: ClosedRange<Int>) async throws {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for number in numbers {
                    group.addTask {
                        try await loader.loadData(for: DataLoadRequest(url: server.imageURL(number, width: 32))).data
                            .count
                    }
                }
                for try await count in group { #expect(count > 0) }
            }
        }
        try await batch(1...6)
        let first = server.connectionCount
        try await batch(7...12)
        #expect(server.totalRequestCount == 12)
        #expect(first == 6)
        #expect(server.connectionCount == first)
        await server.stop()
    }
}
