// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the launcher's pause after a batch of downloads: starts made during it wait for it (and cost
// nothing when cancelled first), while an operation that ends starts its successors without waiting.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct LaunchBatchingTests {
    /// Downloads as plain tasks, decoding on a dispatch queue, and a launcher that pauses for an hour after each
    /// batch: anything that waited for it would never start within the test.
    private struct PausingExecutor: ImagePipelineExecutor {
        let decodeQueue = DispatchQueue(label: "LaunchBatchingTests.decode", attributes: .concurrent)

        func runLoad(priority: TaskPriority, _ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
            Task(priority: priority, operation: work)
        }

        func runDecode(_ work: @escaping @Sendable () -> Void) { decodeQueue.async(execute: work) }

        var launchBatchInterval: Duration? { .seconds(3600) }
    }

    private let loader = GatedDataLoader()
    private let pipeline: ImagePipeline

    init() {
        let loader = loader
        pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.dataLoader = loader
            $0.dataLoadingConcurrency = 1
            $0.executor = PausingExecutor()
        }
    }

    private func url(_ name: String) -> URL { URL(string: "https://example.com/\(name).jpg")! }

    @Test func aDownloadStartedDuringThePauseWaitsForItAndCostsNothingWhenCancelled() async throws {
        let first = pipeline.imageTask(with: ImageRequest(url: url("first")))
        await loader.waitForPending(url("first").absoluteString)
        // Once `first` has stopped its slot is free, so `second` is made ready at once; the launcher, paused after
        // starting `first`, is what would start it.
        first.cancel()
        await pipeline.waitUntilIdle()
        let second = pipeline.imageTask(with: ImageRequest(url: url("second")))
        #expect(pipeline.inspectGraph { $0.pendingLoads.count } == 1, "the second download waits for the launcher")
        second.cancel()
        #expect(pipeline.inspectGraph { $0.pendingLoads.isEmpty }, "cancelled, it was taken back without running")
        await pipeline.waitUntilIdle()
        #expect(loader.record.value.started == [url("first").absoluteString], "the second never reached the loader")
    }

    @Test func anOperationThatEndsStartsTheNextDownloadWithoutTheLauncher() async throws {
        let first = pipeline.imageTask(with: ImageRequest(url: url("first")))
        await loader.waitForPending(url("first").absoluteString)
        // Queued behind `first` (one slot) while the launcher pauses for an hour.
        let second = pipeline.imageTask(with: ImageRequest(url: url("second")))
        loader.release(url("first").absoluteString)
        _ = try await first.response
        // Taken by the thread that reported the first download's end, before the first image was decoded; the
        // launcher would have left it waiting for an hour.
        try #require(pipeline.inspectGraph { $0.pendingLoads.isEmpty }, "the next download was started")
        await loader.waitForPending(url("second").absoluteString)
        loader.release(url("second").absoluteString)
        _ = try await second.response
        #expect(loader.record.value.started.count == 2)
    }
}
