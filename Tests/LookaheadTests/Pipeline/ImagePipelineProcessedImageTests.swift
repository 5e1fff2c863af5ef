// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — DiskCacheContent: final images (thumbnails, processed images) stored encoded in a real disk
// cache and read back before anything is downloaded or decoded.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct ImagePipelineProcessedImageTests {
    let folder = TemporaryDirectory("lookahead-processed")
    let loader = GatedDataLoader(isGated: false)
    let disk: DiskCache
    let url = URL(string: "https://example.com/photo.jpg")!

    init() {
        disk = DiskCache(directory: folder.url)
    }

    /// A pipeline with an empty memory cache, as after a relaunch, on the same disk.
    private func makePipeline(_ content: DiskCacheContent) -> ImagePipeline {
        ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = disk
            $0.memoryCache = MemoryCache(costLimit: 1 << 24)
            $0.diskCacheContent = content
        }
    }

    private var loads: Int { loader.record.value.started.count }
    private let thumbnail = ThumbnailOptions(maximumPixelSize: 16)

    private func stored(_ request: ImageRequest) -> Data? {
        disk.cachedData(for: FinalImageDiskStore.key(for: request))
    }

    @Test func aThumbnailIsStoredEncodedAndReadBackWithoutADownloadOrTheOriginal() async throws {
        let request = ImageRequest(url: url, thumbnail: thumbnail)
        let writer = makePipeline(.automatic)
        let first = try await writer.image(for: request)
        #expect(first.cacheType == nil && first.image.pixelWidth == 16 && first.image.pixelHeight == 12)
        await writer.flush()
        // The thumbnail is on disk as a small JPEG (the source is opaque); the 64×48 original is not.
        let entry = try #require(stored(request))
        #expect(entry.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(disk.cachedData(for: url.absoluteString) == nil)
        // A relaunch: read back, no download, the size it was stored at.
        let pipeline = makePipeline(.automatic)
        let second = try await pipeline.image(for: request)
        #expect(second.cacheType == .disk)
        #expect(second.image.pixelWidth == 16 && second.image.pixelHeight == 12)
        #expect(loads == 1)
        // Then from memory.
        #expect(try await pipeline.image(for: request).cacheType == .memory)
        // Another size of the same URL has no entry of its own and no original to scale from: it downloads.
        _ = try await pipeline.image(for: ImageRequest(url: url, thumbnail: .init(maximumPixelSize: 32)))
        #expect(loads == 2)
    }

    @Test func aRequestWithoutThumbnailOrProcessorsStoresTheOriginal() async throws {
        let request = ImageRequest(url: url)
        let writer = makePipeline(.automatic)
        _ = try await writer.image(for: request)
        await writer.flush()
        #expect(disk.cachedData(for: url.absoluteString) == TestImages.jpeg)
        #expect(stored(request) == nil)
    }

    @Test func allKeepsTheOriginalAndTheFinalImage() async throws {
        let request = ImageRequest(url: url, thumbnail: thumbnail)
        let writer = makePipeline(.all)
        _ = try await writer.image(for: request)
        await writer.flush()
        #expect(stored(request) != nil)
        #expect(disk.cachedData(for: url.absoluteString) == TestImages.jpeg)
        // Another size is made from the original on disk: no download.
        let pipeline = makePipeline(.all)
        let large = try await pipeline.image(for: ImageRequest(url: url, thumbnail: .init(maximumPixelSize: 32)))
        #expect(large.cacheType == .disk && large.image.pixelWidth == 32)
        #expect(loads == 1)
    }

    @Test func theDefaultStoresOnlyTheOriginal() async throws {
        let request = ImageRequest(url: url, thumbnail: thumbnail)
        let writer = makePipeline(.originalData)
        _ = try await writer.image(for: request)
        await writer.flush()
        #expect(stored(request) == nil)
        #expect(disk.cachedData(for: url.absoluteString) == TestImages.jpeg)
    }

    @Test func aTransparentResultIsStoredAsPNGWithItsAlpha() async throws {
        let request = ImageRequest(url: url, processors: [ImageProcessors.Circle()])
        let writer = makePipeline(.automatic)
        let first = try await writer.image(for: request)
        await writer.flush()
        let entry = try #require(stored(request))
        #expect(entry.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let second = try await makePipeline(.automatic).image(for: request)
        #expect(second.cacheType == .disk)
        #expect(second.image.makeBitmap()?.pixels == first.image.makeBitmap()?.pixels, "PNG is lossless")
        #expect(second.image.makeBitmap()?[0, 0].alpha == 0)
        #expect(loads == 1)
    }

    @Test func aBrokenEntryIsAMissThatIsRemovedAndMadeAgain() async throws {
        let request = ImageRequest(url: url, thumbnail: thumbnail)
        disk.storeData(Data("not an image".utf8), for: FinalImageDiskStore.key(for: request))
        let pipeline = makePipeline(.automatic)
        let response = try await pipeline.image(for: request)
        #expect(response.cacheType == nil && response.image.pixelWidth == 16)
        #expect(loads == 1)
        await pipeline.flush()
        #expect(try #require(stored(request)).starts(with: [0xFF, 0xD8, 0xFF]))
    }

    @Test func identicalRequestsShareOneLookupAndOneDownload() async throws {
        let gated = GatedDataLoader(isGated: true)
        let pipeline = ImagePipeline {
            $0.dataLoader = gated
            $0.diskCache = disk
            $0.diskCacheContent = .automatic
        }
        let request = ImageRequest(url: url, thumbnail: thumbnail)
        let first = pipeline.imageTask(with: request)
        let second = pipeline.imageTask(with: request)
        await gated.waitForStarts(1)
        #expect(
            pipeline.inspectGraph { $0.stageCount } == 2,
            "one stage that looked up, then waits on one data stage"
        )
        #expect(gated.release())
        let (a, b) = try await (first.response, second.response)
        #expect(a.image == b.image)
        #expect(gated.record.value.started.count == 1)
    }

    @Test func aReloadSkipsTheStoredImageButReplacesIt() async throws {
        let request = ImageRequest(url: url, thumbnail: thumbnail)
        let writer = makePipeline(.automatic)
        _ = try await writer.image(for: request)
        await writer.flush()
        let reload = ImageRequest(url: url, thumbnail: thumbnail, options: [.reloadIgnoringCachedData])
        let response = try await makePipeline(.automatic).image(for: reload)
        #expect(response.cacheType == nil)
        #expect(loads == 2)
    }

    @Test func withHTTPSemanticsOnlyTheOriginalIsStored() async throws {
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = disk
            $0.diskCacheContent = .automatic
            $0.diskCachePolicy = .httpSemantics
        }
        let request = ImageRequest(url: url, thumbnail: thumbnail)
        _ = try await pipeline.image(for: request)
        await pipeline.flush()
        #expect(stored(request) == nil)
    }
}
