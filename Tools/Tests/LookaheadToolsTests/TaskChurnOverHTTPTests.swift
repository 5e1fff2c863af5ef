// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — many tasks under churn over loopback HTTP: every task ends, none is left waiting.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(3))) struct TaskChurnOverHTTPTests {
    @Test(arguments: [1, 2] as [UInt64])
    func everyTaskEndsUnderCancelsPriorityChangesReloadsAndDuplicates(seed: UInt64) async throws {
        let server = try await FixtureServer.start()
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.memoryCache = MemoryCache(costLimit: 4 << 20)
        }
        let report = await TaskChurn.run(
            pipeline: pipeline,
            server: server,
            tasks: 1500,
            distinctImages: 150,
            seed: seed
        )
        #expect(report.ended == report.started, "\(report)")
        #expect(report.succeeded > 0 && report.cancelled > 0, "\(report)")
        #expect(report.failed == 0 && report.wrongImages == 0, "\(report)")
        // Duplicates share downloads: far fewer requests than tasks.
        #expect(server.totalRequestCount < report.started / 2, "\(server.totalRequestCount) requests")
        await server.stop()
    }
}
