// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — how many downloads run at once by default, and the priority a loader is told.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct DownloadPriorityTests {
    private func url(_ name: String) -> URL { URL(string: "https://example.com/\(name).jpg")! }

    @Test func byDefaultTwelveDownloadsRunAndPrefetchesTakeFourOfThem() {
        let configuration = ImagePipeline.Configuration()
        #expect(configuration.dataLoadingConcurrency == 12)
        #expect(configuration.backgroundDataLoadLimit == 4)
        let pipeline = ImagePipeline(configuration: configuration)
        #expect(pipeline.inspectGraph { ($0.dataQueue.limit, $0.dataQueue.backgroundLimit) } == (12, 4))
    }

    @Test func prefetchesAlwaysLeaveTwoSlotsAndAnExplicitLimitWins() {
        var configuration = ImagePipeline.Configuration()
        configuration.dataLoadingConcurrency = 5
        #expect(configuration.backgroundDataLoadLimit == 3)
        configuration.dataLoadingConcurrency = 2
        #expect(configuration.backgroundDataLoadLimit == 1, "at least one, or nothing would prefetch")
        configuration.maximumBackgroundDataLoads = 7
        #expect(configuration.backgroundDataLoadLimit == 7)
    }

    @Test func aSharedDownloadTellsTheLoaderTheHighestPriorityOfItsRequests() async throws {
        let loader = GatedDataLoader()
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
            $0.dataLoadingConcurrency = 1
        }
        // The one slot is taken, so the shared download starts after both requests joined it.
        let first = pipeline.imageTask(with: ImageRequest(url: url("first"), priority: .veryLow))
        await loader.waitForPending(1)
        let prefetch = pipeline.imageTask(with: ImageRequest(url: url("shared"), priority: .low))
        let visible = pipeline.imageTask(with: ImageRequest(url: url("shared"), priority: .high))
        // Submitting is synchronous: the shared stage already runs at the higher priority, still queued.
        #expect(pipeline.inspectGraph { graph in graph.stages.values.contains { $0.priority == .high } })
        loader.release()
        _ = try await first.response
        await loader.waitForPending(1)
        loader.release()
        _ = try await (prefetch.response, visible.response)
        #expect(loader.record.value.started == [url("first"), url("shared")].map(\.absoluteString))
        #expect(loader.record.value.priorities == [.veryLow, .high])
    }

    @Test func everyPriorityHasAStreamWeightRisingWithIt() {
        let weights = ImageRequest.Priority.allCases.map(\.streamWeight)
        #expect(weights == weights.sorted() && Set(weights).count == weights.count)
        #expect(weights.allSatisfy { (1...256).contains($0) }, "RFC 9113's range")
        #expect(ImageRequest.Priority.normal.streamWeight > 16, "above a default stream, below a visible image")
    }
}
