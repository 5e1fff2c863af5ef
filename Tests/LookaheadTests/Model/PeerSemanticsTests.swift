// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — semantics the peers (Nuke, Kingfisher) get right: task ids across pipelines, flat
// compositions, fill-and-crop without upscaling, the disk cache's empty key and deleted folder, memory-cache TTL.

import Foundation
import Testing

@testable import Lookahead

@Suite struct PeerSemanticsTests {
    @Test func taskIdsAreUniqueAcrossPipelines() {
        let first = ImagePipeline { $0.diskCache = nil }
        let second = ImagePipeline { $0.diskCache = nil }
        let request = ImageRequest(url: URL(string: "data:,x"))
        let tasks = (0..<3).flatMap { _ in [first.imageTask(with: request), second.imageTask(with: request)] }
        #expect(Set(tasks.map(\.id)).count == tasks.count)
        for task in tasks { task.cancel() }
    }

    @Test func aNestedCompositionIsTheFlatOne() {
        let a = ImageProcessors.Resize(width: 10)
        let b = ImageProcessors.Circle()
        let c = ImageProcessors.RoundedCorners(radius: 2)
        let nested = ImageProcessors.Composition([
            a, ImageProcessors.Composition([b, ImageProcessors.Composition([c])]),
        ])
        let flat = ImageProcessors.Composition([a, b, c])
        #expect(nested.identifier == flat.identifier)
        #expect(nested.processors.count == 3)
        #expect(
            ImageRequest(url: URL(string: "https://example.com/1.jpg"), processors: [nested]).imageKey
                == ImageRequest(url: URL(string: "https://example.com/1.jpg"), processors: [flat]).imageKey
        )
    }

    @Test func fillAndCropWithoutUpscalingKeepsTheRequestedShape() throws {
        let image = Bitmap(width: 300, height: 200, red: 10, green: 20, blue: 30)
        let square = try ImageProcessors.Resize(width: 400, height: 400, contentMode: .aspectFill, crop: true)
            .process(image)
        #expect((square.width, square.height) == (200, 200))
        let wide = try ImageProcessors.Resize(width: 800, height: 200, contentMode: .aspectFill, crop: true)
            .process(image)
        #expect((wide.width, wide.height) == (300, 75))
        // With room to scale down, the crop is the exact size, as before.
        let small = try ImageProcessors.Resize(width: 100, height: 100, contentMode: .aspectFill, crop: true)
            .process(image)
        #expect((small.width, small.height) == (100, 100))
    }

    @Test func aHeaderWhoseSizeOverflowsIsOverTheLimitNotACrash() {
        let context = ImageDecodingContext(maximumPixelCount: 100)
        #expect(!context.exceedsPixelLimit(width: 10, height: 10))
        #expect(context.exceedsPixelLimit(width: 11, height: 10))
        #expect(context.exceedsPixelLimit(width: Int.max / 2, height: 4), "the product overflows: over the limit")
        #expect(ImageDecodingContext().exceedsPixelLimit(width: 1 << 40, height: 1 << 40))
    }

    @Test func theDiskCacheRejectsAnEmptyKey() {
        let folder = TemporaryDirectory()
        let cache = DiskCache(directory: folder.url)
        cache.storeData(Data("x".utf8), for: "")
        cache.flush()
        #expect(cache.totalCount == 0)
        #expect(cache.cachedData(for: "") == nil)
    }

    @Test func totalSizeIsZeroAsSoonAsTheFolderIsDeletedFromOutside() throws {
        let folder = TemporaryDirectory()
        let cache = DiskCache(directory: folder.url)
        for key in ["a", "b"] { cache.storeData(Data(repeating: 1, count: 1000), for: key) }
        cache.flush()
        #expect(cache.totalSize > 0)
        try FileManager.default.removeItem(at: folder.url)
        #expect(cache.totalSize == 0, "Kingfisher: the size reads 0 before any write")
        #expect(cache.totalCount == 0)
        cache.storeData(Data(repeating: 2, count: 500), for: "c")
        cache.flush()
        #expect(cache.cachedData(for: "c") == Data(repeating: 2, count: 500), "and the cache keeps working")
    }

    @Test func totalSizeIsRightAfterTheFolderWasDeletedFromOutside() throws {
        let folder = TemporaryDirectory()
        let cache = DiskCache(directory: folder.url)
        for key in ["a", "b", "c"] { cache.storeData(Data(repeating: 1, count: 1000), for: key) }
        cache.flush()
        #expect(cache.totalCount == 3)
        try FileManager.default.removeItem(at: folder.url)
        cache.storeData(Data(repeating: 2, count: 500), for: "d")
        cache.flush()
        #expect(cache.totalCount == 1, "only the entry written after the deletion is on disk")
        #expect(cache.totalSize == folder.bytes { !$0.hasPrefix(".") })
        #expect(cache.cachedData(for: "d") == Data(repeating: 2, count: 500))
        #expect(cache.cachedData(for: "a") == nil)
    }

    @Test(.timeLimit(.minutes(1))) func aReloadAndADefaultRequestMadeTogetherDownloadOnce() async throws {
        // Nuke: dataOnlyLoadedOnceWithDifferentCachePolicy, with the default request held in its disk lookup.
        let cache = GatedLookupCache()
        let loader = GatedDataLoader(isGated: false)
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = cache
            $0.memoryCache = nil
        }
        let url = URL(string: "https://example.com/once.jpg")!
        let first = pipeline.imageTask(with: ImageRequest(url: url))
        await cache.lookups.wait { $0 == 1 }
        let reload = pipeline.imageTask(with: ImageRequest(url: url, options: [.reloadIgnoringCachedData]))
        cache.gate.signal()
        #expect(try await first.response.image.pixelWidth == 64)
        #expect(try await reload.response.cacheType == nil)
        #expect(loader.record.value.started == [url.absoluteString], "one download for both")
    }
}

/// An empty disk cache whose lookups wait until the test signals the gate.
private final class GatedLookupCache: DataCaching {
    let lookups = AsyncCondition(0)
    let gate = DispatchSemaphore(value: 0)

    func cachedData(for key: String) -> Data? {
        lookups.update { $0 += 1 }
        gate.wait()
        return nil
    }
    func storeData(_ data: Data, for key: String) {}
    func removeData(for key: String) {}
    func removeAll() {}
}
