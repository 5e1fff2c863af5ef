// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — per-task metrics over real loopback HTTP: the bytes a download delivered, and its stages
// in order, through both loaders.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(2))) struct TaskMetricsOverHTTPTests {
    @Test(arguments: Transport.allCases)
    func aDownloadReportsItsBytesAndItsStages(transport: Transport) async throws {
        let server = try await FixtureServer.start()
        let url = server.imageURL(3, width: 320, height: 240)
        let body = try await transport.makeLoader().loadData(for: DataLoadRequest(url: url)).data
        let (reports, report) = AsyncStream<ImageTaskMetrics>.makeStream()
        let pipeline = ImagePipeline {
            $0.dataLoader = transport.makeLoader()
            $0.diskCache = nil
            $0.taskMetricsHandler = { report.yield($0) }
        }
        let task = pipeline.imageTask(with: ImageRequest(url: url, thumbnail: ThumbnailOptions(maximumPixelSize: 64)))
        _ = try await task.response
        var iterator = reports.makeAsyncIterator()
        let metrics = try #require(await iterator.next())
        #expect(metrics.taskID == task.id)
        #expect(metrics.stages.downloadedBytes == body.count)
        let download = try #require(metrics.stages.download)
        let decode = try #require(metrics.stages.decode)
        #expect(metrics.task.start <= download.start && download.end <= decode.start)
        #expect(decode.end <= metrics.task.end)
        await server.stop()
    }
}
