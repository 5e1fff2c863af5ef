// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — per-task metrics: each stage's interval in order, the bytes, the outcome, shared work shared.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ImageTaskMetricsTests {
    let loader = GatedDataLoader()
    let reports = AsyncCondition<[ImageTaskMetrics]>([])
    let folder = TemporaryDirectory("lookahead-metrics")

    private func makePipeline(disk: DiskCache? = nil) -> ImagePipeline {
        let reports = reports
        return ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = disk
            $0.memoryCache = MemoryCache(costLimit: 1 << 24)
            $0.taskMetricsHandler = { metrics in reports.update { $0.append(metrics) } }
        }
    }

    private let url = URL(string: "https://example.com/1.jpg")!

    private func waitForReports(_ count: Int) async -> [ImageTaskMetrics] {
        await reports.wait { $0.count >= count }
        return reports.value
    }

    @Test func aDownloadReportsEachStageInOrderWithItsBytes() async throws {
        let pipeline = makePipeline()
        let task = pipeline.imageTask(with: ImageRequest(url: url, processors: [ImageProcessors.Circle()]))
        await loader.waitForPending(1)
        loader.release()
        _ = try await task.response
        let metrics = try #require(await waitForReports(1).first)
        #expect(metrics.taskID == task.id)
        guard case .succeeded(cacheType: nil) = metrics.outcome else {
            Issue.record("outcome \(metrics.outcome)")
            return
        }
        let stages = metrics.stages
        let dataLoad = try #require(stages.dataLoad)
        let download = try #require(stages.download)
        let decode = try #require(stages.decode)
        let processing = try #require(stages.processing)
        // Task start ≤ data stage ⊇ download, then decode, then processing, then the task's end.
        #expect(metrics.task.start <= dataLoad.start)
        #expect(dataLoad.start <= download.start && download.end <= dataLoad.end)
        #expect(dataLoad.end <= decode.start && decode.end <= processing.start)
        #expect(processing.end <= metrics.task.end)
        #expect(stages.downloadedBytes == TestImages.jpeg.count)
        #expect(stages.resumedBytes == 0)
    }

    @Test func aDiskHitHasADataStageAndNoDownload() async throws {
        let disk = DiskCache(directory: folder.url)
        disk.storeData(TestImages.jpeg, for: url.absoluteString)
        await disk.flush()
        let pipeline = makePipeline(disk: disk)
        _ = try await pipeline.image(for: ImageRequest(url: url))
        let metrics = try #require(await waitForReports(1).first)
        guard case .succeeded(cacheType: .disk) = metrics.outcome else {
            Issue.record("outcome \(metrics.outcome)")
            return
        }
        #expect(metrics.stages.dataLoad != nil)
        #expect(metrics.stages.download == nil)
        #expect(metrics.stages.downloadedBytes == 0)
        #expect(metrics.stages.decode != nil)
        #expect(loader.record.value.started.isEmpty)
    }

    @Test func aMemoryHitHasNoStages() async throws {
        let pipeline = makePipeline()
        pipeline.storeCachedImage(
            Bitmap(width: 2, height: 2, red: 1, green: 2, blue: 3).platformImage,
            for: ImageRequest(url: url)
        )
        // A task answered from memory; `image(for:)` answered from memory makes no task and reports nothing.
        _ = try await pipeline.imageTask(with: ImageRequest(url: url)).response
        let metrics = try #require(await waitForReports(1).first)
        guard case .succeeded(cacheType: .memory) = metrics.outcome else {
            Issue.record("outcome \(metrics.outcome)")
            return
        }
        #expect(metrics.stages == ImageTaskMetrics.Stages())
    }

    @Test func coalescedTasksShareTheRecordOfTheirSharedWork() async throws {
        let pipeline = makePipeline()
        let first = pipeline.imageTask(with: ImageRequest(url: url))
        let second = pipeline.imageTask(with: ImageRequest(url: url))
        await loader.waitForPending(1)
        loader.release()
        _ = try await first.response
        _ = try await second.response
        let metrics = await waitForReports(2)
        #expect(Set(metrics.map(\.taskID)) == [first.id, second.id])
        #expect(metrics[0].stages == metrics[1].stages)
        #expect(metrics[0].stages.download != nil)
        #expect(loader.record.value.started.count == 1)
    }

    @Test func failuresAndCancellationsAreReportedWithoutStages() async throws {
        let failing = GatedDataLoader(isGated: false) { _ in .failure(.statusCodeUnacceptable(404, nil)) }
        let reports = reports
        let pipeline = ImagePipeline {
            $0.dataLoader = failing
            $0.diskCache = nil
            $0.taskMetricsHandler = { metrics in reports.update { $0.append(metrics) } }
        }
        await #expect(throws: ImagePipeline.Error.self) { try await pipeline.image(for: ImageRequest(url: url)) }
        let pipeline2 = makePipeline()
        let cancelled = pipeline2.imageTask(with: ImageRequest(url: url))
        await loader.waitForPending(1)
        cancelled.cancel()
        let metrics = await waitForReports(2)
        guard case .failed(.statusCodeUnacceptable(404, _)) = metrics[0].outcome, case .cancelled = metrics[1].outcome
        else {
            Issue.record("outcomes \(metrics.map(\.outcome))")
            return
        }
        #expect(metrics.allSatisfy { $0.stages == ImageTaskMetrics.Stages() })
    }

    @Test func withoutAHandlerATaskTakesNoTime() {
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
        }
        let task = pipeline.imageTask(with: ImageRequest(url: url))
        task.cancel()
        #expect(reports.value.isEmpty)
    }
}
