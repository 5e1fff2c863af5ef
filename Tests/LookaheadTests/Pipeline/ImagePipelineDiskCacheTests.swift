// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — memory → disk → network, and the cache options, with a real DiskCache.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ImagePipelineDiskCacheTests {
    let folder = TemporaryDirectory("lookahead-pipeline-disk")
    let loader = GatedDataLoader(isGated: false)
    let disk: DiskCache
    let url = URL(string: "https://example.com/photo.jpg")!

    init() {
        disk = DiskCache(directory: folder.url)
    }

    private func makePipeline(memory: Bool = true) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = disk
            $0.memoryCache = memory ? MemoryCache(costLimit: 1 << 24) : nil
        }
    }

    private func request(_ options: ImageRequest.Options = [], thumbnail: ThumbnailOptions? = nil) -> ImageRequest {
        ImageRequest(url: url, thumbnail: thumbnail, options: options)
    }

    private var loads: Int { loader.record.value.started.count }

    @Test func aDiskHitDecodesAndFillsTheMemoryCache() async throws {
        let first = try await makePipeline().image(for: request())
        #expect(first.cacheType == nil)
        await disk.flush()
        // A new pipeline (a relaunch): empty memory, same disk.
        let pipeline = makePipeline()
        let second = try await pipeline.image(for: request())
        #expect(second.cacheType == .disk)
        #expect(second.image == first.image)
        #expect(pipeline.cachedImage(for: request()) == first.image)
        let third = try await pipeline.image(for: request())
        #expect(third.cacheType == .memory)
        #expect(loads == 1)
    }

    @Test func aCacheOfAnotherKindIsHeldWhileThePipelineDecodes() async throws {
        let cache = HoldCountingCache()
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = cache
            $0.memoryCache = nil
        }
        _ = try await pipeline.image(for: request())
        #expect(cache.holds.value.held == 1)
        // Released once the decode's work is over, which may be just after the image is delivered.
        await cache.holds.wait(until: { $0.released == 1 })
    }

    @Test func thumbnailsOfTwoSizesShareOneDownload() async throws {
        let pipeline = makePipeline()
        let small = try await pipeline.image(for: request(thumbnail: .init(maximumPixelSize: 16)))
        let large = try await pipeline.image(for: request(thumbnail: .init(maximumPixelSize: 32)))
        #expect(small.image.pixelWidth == 16)
        #expect(large.image.pixelWidth == 32)
        #expect(large.cacheType == .disk)
        #expect(loads == 1)
    }

    @Test func reloadIgnoringCachedDataSkipsReadsButStillWrites() async throws {
        disk.storeData(Data("stale, not an image".utf8), for: url.absoluteString)
        let response = try await makePipeline().image(for: request([.reloadIgnoringCachedData]))
        #expect(response.cacheType == nil)
        #expect(loads == 1)
        await disk.flush()
        #expect(disk.cachedData(for: url.absoluteString) == TestImages.jpeg)
    }

    @Test func returnCacheDataDontLoadAnswersFromDiskOrFailsWithoutLoading() async throws {
        let pipeline = makePipeline(memory: false)
        await #expect {
            try await pipeline.image(for: request([.returnCacheDataDontLoad]))
        } throws: { error in
            if case ImagePipeline.Error.dataMissingInCache = error { return true }
            return false
        }
        #expect(loads == 0)
        disk.storeData(TestImages.jpeg, for: url.absoluteString)
        let response = try await pipeline.image(for: request([.returnCacheDataDontLoad]))
        #expect(response.cacheType == .disk)
        #expect(loads == 0)
    }

    @Test func disableDiskCacheReadsAndWrites() async throws {
        let pipeline = makePipeline(memory: false)
        _ = try await pipeline.image(for: request([.disableDiskCacheWrites]))
        await disk.flush()
        #expect(disk.totalCount == 0)
        _ = try await pipeline.image(for: request())
        await disk.flush()
        #expect(disk.totalCount == 1)
        let response = try await pipeline.image(for: request([.disableDiskCacheReads]))
        #expect(response.cacheType == nil)
        #expect(loads == 3)
    }

    @Test func aCacheOnlyRequestNeverJoinsANetworkLoad() async throws {
        let gated = GatedDataLoader()
        let pipeline = ImagePipeline {
            $0.dataLoader = gated
            $0.diskCache = disk
        }
        let network = pipeline.imageTask(with: request())
        await gated.waitForPending(1)
        let cacheOnly = pipeline.imageTask(with: request([.returnCacheDataDontLoad]))
        await expectFailure(cacheOnly) { if case .dataMissingInCache = $0 { true } else { false } }
        gated.release()
        _ = try await network.response
    }

    @Test func aCorruptDiskEntryFallsBackToTheNetwork() async throws {
        _ = try await makePipeline().image(for: request())
        await disk.flush()
        let path = disk.filePath(for: url.absoluteString)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        let response = try await makePipeline().image(for: request())
        #expect(response.cacheType == nil)
        #expect(response.image.pixelWidth == 64)
        #expect(loads == 2)
    }

    /// A decode in progress holds the disk cache's writes back: a store made meanwhile is written once the decode
    /// has ended, not while it runs.
    @Test func aDecodeInProgressHoldsTheDiskCacheWritesBack() async throws {
        await disk.flush()
        // Only the hold keeps the write back: the drain that would write it anyway comes an hour later.
        disk.writes.setDelay(.seconds(3600))
        let decoder = GatedDecoder()
        // A failed check below still lets the decode go.
        defer { decoder.release.signal() }
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = disk
            $0.decoders = [decoder]
        }
        // The image's own data is not stored: the store below is the only write.
        let task = pipeline.imageTask(with: request([.disableDiskCacheWrites]))
        await decoder.started.wait { $0 }
        disk.storeData(Data("other".utf8), for: "other")
        disk.writes.waitForWriteQueue()
        try #require(!FileManager.default.fileExists(atPath: disk.filePath(for: "other")))

        let written = DispatchSemaphore(value: 0)
        disk.setDuringChange { written.signal() }
        decoder.release.signal()
        #expect(try await task.response.image.pixelWidth == 64)
        // The timeout only keeps a hold that is never released from hanging the run.
        #expect(written.wait(timeout: .now() + 60) == .success)
        disk.writes.waitForWriteQueue()
        disk.setDuringChange(nil)
        #expect(FileManager.default.fileExists(atPath: disk.filePath(for: "other")))
    }

    @Test func theDefaultConfigurationUsesTheSharedCacheAndAReplacementStaysPut() {
        let configuration = ImagePipeline.Configuration()
        #expect((configuration.diskCache as? DiskCache) === DiskCache.shared)
        var replaced = ImagePipeline.Configuration()
        replaced.diskCache = nil
        #expect(replaced.diskCache == nil)
        let folder = TemporaryDirectory()
        let mine = DiskCache(directory: folder.url)
        replaced.diskCache = mine
        #expect((replaced.diskCache as? DiskCache) === mine)
    }
}

/// A decoder of any data into a 64 × 48 image, stopped inside `decode` until the test releases it.
private final class GatedDecoder: ImageDecoding {
    let name = "Gated"
    let started = AsyncCondition(false)
    let release = DispatchSemaphore(value: 0)

    func canDecode(_ header: Data) -> Bool { true }

    func decode(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> PlatformImage {
        started.update { $0 = true }
        release.wait()
        return PlatformImage.make(
            from: Bitmap(width: 64, height: 48, pixels: [UInt8](repeating: 255, count: 64 * 48 * 4))
        )
    }
}

/// A cache that is not a ``DiskCache``, counting the holds of its writes the pipeline asks for.
private final class HoldCountingCache: DataCaching {
    let base = DictionaryCache()
    let holds = AsyncCondition((held: 0, released: 0))

    func cachedData(for key: String) -> Data? { base.cachedData(for: key) }
    func storeData(_ data: Data, for key: String) { base.storeData(data, for: key) }
    func removeData(for key: String) { base.removeData(for: key) }
    func removeAll() { base.removeAll() }
    func holdWrites() { holds.update { $0.held += 1 } }
    func releaseWrites() { holds.update { $0.released += 1 } }
}
