// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — a prefetch started and stopped at once asks the server for nothing, over loopback HTTP.

import Foundation
import Lookahead
import LookaheadFixtures
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(2))) struct PrefetchStartThenStopOverHTTPTests {
    /// An app's main thread: every pair is a pass of a run loop, the prefetcher the default one with the default
    /// loader. A last prefetch, not stopped, shows the prefetcher's queue has run every turn before it.
    @Test func pairsFromARunLoopsPassesAskTheServerForNothing() async throws {
        let server = try await FixtureServer.start()
        let pipeline = ImagePipeline { $0.diskCache = nil }
        let prefetcher = ImagePrefetcher(pipeline: pipeline, maxConcurrentRequestCount: 2)
        let pairs = (1...200).map { server.imageURL($0, width: 16, height: 16) }
        let last = server.imageURL(999, width: 16, height: 16)
        let loop = RunLoopThread(
            passes: pairs.map { url in
                {
                    prefetcher.startPrefetching(with: [url])
                    prefetcher.stopPrefetching(with: [url])
                }
            } + [{ prefetcher.startPrefetching(with: [last]) }]
        )
        // The turns run in order on the prefetcher's queue: once the last one has asked the server, the pairs'
        // turns have all begun, and found nothing to start.
        await server.waitForRequests(path: "/images/999.jpg", count: 1)
        loop.stop()
        let asked = (1...200).filter { server.requestCount(forPath: "/images/\($0).jpg") > 0 }
        #expect(asked.isEmpty, "asked for \(asked)")
        #expect(server.totalRequestCount == 1)
        prefetcher.stopPrefetching()
        await server.stop()
    }
}

/// A thread running its own run loop, like an app's main thread, that runs `passes` one after the other, each
/// from a callout of the loop scheduled by the one before.
private final class RunLoopThread: Sendable {
    private let isStopped = Mutex(false)

    init(passes: [@Sendable () -> Void]) {
        @Sendable func run(from index: Int) {
            guard index < passes.count else { return }
            passes[index]()
            RunLoop.current.perform(inModes: [.common]) { run(from: index + 1) }
        }
        Thread { [self] in
            RunLoop.current.perform(inModes: [.common]) { run(from: 0) }
            // A timer keeps the loop alive; a pass returns as soon as it has run something.
            let timer = Timer(timeInterval: 3600, repeats: false) { _ in }
            RunLoop.current.add(timer, forMode: .default)
            while !self.isStopped.withLock({ $0 }) {
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.002))
            }
            timer.invalidate()
        }.start()
    }

    func stop() { isStopped.withLock { $0 = true } }
}
