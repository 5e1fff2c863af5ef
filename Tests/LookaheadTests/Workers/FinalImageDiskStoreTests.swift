// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the processed-image stage on its own: which requests use it, and a store read back.

import Foundation
import Testing

@_spi(Simulation) @testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct FinalImageDiskStoreTests {
    let cache = DictionaryCache()
    let thumbnail = ImageRequest(
        url: URL(string: "https://example.com/a.jpg"),
        thumbnail: ThumbnailOptions(maximumPixelSize: 16)
    )

    private func stage(content: DiskCacheContent = .automatic, policy: DiskCachePolicy = .cacheForever)
        -> FinalImageDiskStore
    {
        // As the pipeline builds it from its configuration.
        var configuration = ImagePipeline.Configuration(diskCache: cache)
        configuration.diskCacheContent = content
        configuration.diskCachePolicy = policy
        return FinalImageDiskStore(
            diskCache: configuration.storesFinalImages ? cache : nil,
            keepsOriginalData: content == .all,
            decoders: ImageDecoders.default,
            maximumPixelCount: 1 << 20,
            events: nil,
            ioQueue: DispatchQueue(label: "test.io"),
            encodeQueue: DispatchQueue(label: "test.encode"),
            executor: InlineExecutor()
        )
    }

    @Test func onlyThumbnailsAndProcessedDownloadsUseIt() {
        #expect(stage().use(for: thumbnail) == .init(reads: true, stores: true, keepsOriginalData: false))
        #expect(stage(content: .all).use(for: thumbnail)?.keepsOriginalData == true)
        #expect(stage().use(for: ImageRequest(url: thumbnail.url)) == nil, "a plain request keeps the original")
        #expect(stage(content: .originalData).use(for: thumbnail) == nil)
        #expect(stage(policy: .httpSemantics).use(for: thumbnail) == nil, "freshness is the server's to say")
        var file = thumbnail
        file.url = URL(fileURLWithPath: "/tmp/a.jpg")
        #expect(stage().use(for: file) == nil, "a local file is not a download")
    }

    @Test func aStoredImageIsReadBackAsItIs() async throws {
        let stage = stage()
        #expect(try await stage.run(thumbnail).get() == nil, "a miss")
        let image = PlatformImage.make(from: Bitmap(width: 16, height: 12, red: 200, green: 10, blue: 10))
        stage.store(PreparedImage(image: image, response: nil), for: thumbnail)
        await stage.flush()
        let read = try #require(try await stage.run(thumbnail).get())
        #expect(read.image.pixelWidth == 16 && read.image.pixelHeight == 12)
        #expect(read.cacheType == .disk)
    }

    @Test func anEntryThatDoesNotDecodeIsRemovedAndIsAMiss() async throws {
        let key = FinalImageDiskStore.key(for: thumbnail)
        cache.storeData(Data("not an image".utf8), for: key)
        #expect(try await stage().run(thumbnail).get() == nil)
        #expect(cache.removals == [key])
    }
}
