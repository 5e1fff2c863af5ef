// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — cache management by request: contains, store, remove, empty, and cancelling every task.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ImagePipelineCachesTests {
    let folder = TemporaryDirectory("lookahead-caches")
    let disk: DiskCache
    let url = URL(string: "https://example.com/cached.jpg")!

    init() {
        disk = DiskCache(directory: folder.url)
    }

    private func pipeline(
        _ loader: GatedDataLoader = GatedDataLoader(isGated: false),
        content: DiskCacheContent = .originalData
    )
        -> ImagePipeline
    {
        ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = disk
            $0.diskCacheContent = content
            $0.memoryCache = MemoryCache(costLimit: 1 << 24)
        }
    }

    @Test func aLoadedImageIsInBothCachesUntilRemovedFromEach() async throws {
        let pipeline = pipeline()
        let request = ImageRequest(url: url)
        #expect(!pipeline.containsCachedImage(for: request))
        _ = try await pipeline.image(for: request)
        await pipeline.flush()
        #expect(pipeline.containsCachedImage(for: request, in: .memory))
        #expect(pipeline.containsCachedImage(for: request, in: .disk))
        pipeline.removeCachedImage(for: request, from: .memory)
        #expect(!pipeline.containsCachedImage(for: request, in: .memory))
        #expect(pipeline.containsCachedImage(for: request, in: .disk), "the disk keeps it")
        pipeline.removeCachedImage(for: request, from: .disk)
        #expect(!pipeline.containsCachedImage(for: request))
    }

    @Test func aFinalImageOnDiskIsFoundAndRemovedByItsRequest() async throws {
        let pipeline = pipeline(content: .automatic)
        let thumbnail = ImageRequest(url: url, thumbnail: ThumbnailOptions(maximumPixelSize: 16))
        _ = try await pipeline.image(for: thumbnail)
        await pipeline.flush()
        #expect(pipeline.containsCachedImage(for: thumbnail, in: .disk))
        #expect(!pipeline.containsCachedImage(for: ImageRequest(url: url), in: .disk), "the original was not kept")
        pipeline.removeCachedImage(for: thumbnail, from: .all)
        #expect(!pipeline.containsCachedImage(for: thumbnail))
    }

    @Test func storedBytesAreWhatTheNextLoadReadsAndGarbageIsRefused() async throws {
        let loader = GatedDataLoader(isGated: false)
        let pipeline = pipeline(loader)
        #expect(!pipeline.storeCachedData(Data("<html>".utf8), for: ImageRequest(url: url)))
        #expect(pipeline.storeCachedData(TestImages.jpeg, for: ImageRequest(url: url)))
        let response = try await pipeline.image(for: ImageRequest(url: url))
        #expect(response.cacheType == .disk)
        #expect(loader.record.value.started.isEmpty)
        pipeline.removeAllCachedImages()
        await pipeline.flush()
        #expect(!pipeline.containsCachedImage(for: ImageRequest(url: url)))
    }

    @Test func cancellingEveryTaskLeavesThePipelineWorking() async throws {
        let loader = GatedDataLoader()
        let pipeline = pipeline(loader)
        let tasks = (1...3).map {
            pipeline.imageTask(with: ImageRequest(url: URL(string: "https://example.com/\($0).jpg")))
        }
        await loader.waitForPending(3)
        pipeline.cancelAllTasks()
        for task in tasks {
            var last: ImageTask.Event?
            for await event in task.events { last = event }
            guard case .cancelled? = last else {
                Issue.record("ended with \(String(describing: last))")
                continue
            }
        }
        await loader.waitForCancellations(3)
        let later = pipeline.imageTask(with: ImageRequest(url: url))
        await loader.waitForPending(1)
        _ = loader.release()
        #expect(try await later.response.image.pixelWidth == 64, "not invalidated: new work runs")
    }
}
