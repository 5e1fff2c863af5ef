// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — animated requests through the pipeline: the encoded animation in the response and the memory
// cache, processed frame by frame as frames are decoded, and never given to a request that did not ask for it.

import Foundation
import Testing

@testable import Lookahead

#if canImport(CWebP) && canImport(CGIF) && canImport(CSPNG)
/// Inverts the red channel of every pixel.
private struct InvertRed: ImageProcessing {
    var identifier: String { "invert-red" }

    func process(_ image: Bitmap) throws -> Bitmap {
        var pixels = image.pixels
        for offset in stride(from: 0, to: pixels.count, by: 4) { pixels[offset] = 255 - pixels[offset] }
        return Bitmap(width: image.width, height: image.height, pixels: pixels)
    }
}

@Suite(.timeLimit(.minutes(1))) struct ImagePipelineAnimationTests {
    let url = URL(string: "https://example.com/spinner.gif")!
    /// Three 20×10 frames: red, green, blue; 100, 200 and 300 ms.
    let gif = TestEncoders.animatedGIF(
        width: 20,
        height: 10,
        palette: [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)],
        frames: (0..<3).map {
            TestEncoders.GIFFrame(
                indices: [UInt8](repeating: UInt8($0), count: 200),
                width: 20,
                height: 10,
                delayCentiseconds: 10 * ($0 + 1)
            )
        }
    )

    private func pipeline(
        memoryCache: MemoryCache? = MemoryCache(costLimit: 1 << 24),
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) -> (ImagePipeline, GatedDataLoader) {
        let loader = GatedDataLoader(
            isGated: false,
            defaultResponse: { [gif] _ in .success(DataLoadResponse(data: gif)) }
        )
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
            $0.memoryCache = memoryCache
            configure(&$0)
        }
        return (pipeline, loader)
    }

    @Test func anAnimatedRequestGetsEveryFrameAndTheFirstAsItsImage() async throws {
        let (pipeline, _) = pipeline()
        let response = try await pipeline.image(for: ImageRequest(url: url, isAnimated: true))
        let animation = try #require(response.animation)
        let frames = try animation.allFrames()
        #expect(frames.count == 3)
        #expect(frames.map(\.duration) == [.milliseconds(100), .milliseconds(200), .milliseconds(300)])
        #expect(response.image.makeBitmap()?[5, 5].red == 255)
        #expect(frames[2].image.makeBitmap()?[5, 5].blue == 255)
    }

    @Test func aStillRequestGetsTheFirstFrameOnly() async throws {
        let (pipeline, loader) = pipeline()
        let still = try await pipeline.image(for: ImageRequest(url: url))
        #expect(still.animation == nil)
        #expect(still.image.makeBitmap()?[5, 5].red == 255)
        // Another key: the animated request decodes again (from the same download when it is cached).
        let animated = try await pipeline.image(for: ImageRequest(url: url, isAnimated: true))
        #expect(animated.animation?.frameCount == 3)
        #expect(animated.cacheType == nil)
        #expect(loader.record.value.started.count == 2)
    }

    @Test func theMemoryCacheKeepsTheEncodedDataAndTheFirstFrame() async throws {
        let cache = MemoryCache(costLimit: 1 << 24)
        let (pipeline, loader) = pipeline(memoryCache: cache)
        let request = ImageRequest(url: url, isAnimated: true)
        _ = try await pipeline.image(for: request)
        // The GIF's bytes, the first frame, and a player's buffer of three frames; not every frame.
        let frame = 20 * 10 * 4
        #expect(cache.totalCost == gif.count + frame + AnimatedImage.framesAhead * frame)
        let cached = try #require(cache.animation(for: request.imageKey))
        #expect(cached.encodedByteCount == gif.count)
        #expect(cached.frameCount == 3)
        #expect(try cached.allFrames().map { $0.image.makeBitmap()?[5, 5].green } == [0, 255, 0])
        let again = try await pipeline.image(for: request)
        #expect(again.cacheType == .memory)
        #expect(again.animation?.frameCount == 3)
        #expect(loader.record.value.started.count == 1)
        // The still key has nothing: the animation is not a still image's entry.
        #expect(pipeline.cachedImage(for: ImageRequest(url: url)) == nil)
    }

    @Test func anAnimationLargerThanTheEntryLimitDecodedIsCachedEncoded() async throws {
        // 200 frames of 64×64: 3.2 MB decoded, against an entry limit of 1 MB; encoded, a few kilobytes.
        let frames = (0..<200).map {
            TestEncoders.GIFFrame(indices: [UInt8](repeating: UInt8($0 % 3), count: 64 * 64), width: 64, height: 64)
        }
        let large = TestEncoders.animatedGIF(
            width: 64,
            height: 64,
            palette: [(255, 0, 0), (0, 255, 0), (0, 0, 255), (0, 0, 0)],
            frames: frames
        )
        let cache = MemoryCache(costLimit: 1 << 24, entryCostLimit: 1 << 20)
        let loader = GatedDataLoader(isGated: false, defaultResponse: { _ in .success(DataLoadResponse(data: large)) })
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
            $0.memoryCache = cache
        }
        let request = ImageRequest(url: url, isAnimated: true)
        _ = try await pipeline.image(for: request)
        #expect(cache.animation(for: request.imageKey)?.frameCount == 200)
        #expect(cache.totalCost < 200 * 64 * 64 * 4 / 10)
        #expect(try await pipeline.image(for: request).cacheType == .memory)
        #expect(loader.record.value.started.count == 1)
    }

    @Test func processorsApplyToEveryFrame() async throws {
        let (pipeline, _) = pipeline()
        let response = try await pipeline.image(
            for: ImageRequest(url: url, processors: [InvertRed()], isAnimated: true)
        )
        let frames = try #require(response.animation).allFrames()
        #expect(frames.map { $0.image.makeBitmap()?[1, 1].red } == [0, 255, 255])
        #expect(response.image.makeBitmap()?[1, 1].red == 0)
    }

    @Test func aThumbnailAnimationHasEveryFrameAtTheThumbnailSize() async throws {
        let (pipeline, _) = pipeline()
        let request = ImageRequest(url: url, thumbnail: .init(maximumPixelSize: 10), isAnimated: true)
        let response = try await pipeline.image(for: request)
        let frames = try #require(response.animation).allFrames()
        #expect(frames.allSatisfy { $0.image.pixelWidth == 10 && $0.image.pixelHeight == 5 })
        #expect(response.animation?.poster.pixelWidth == 10)
    }

    @Test func anAnimationOverTheFrameLimitFailsWithATypedError() async throws {
        let (pipeline, _) = pipeline { $0.maximumAnimationFrameCount = 2 }
        await #expect {
            try await pipeline.image(for: ImageRequest(url: url, isAnimated: true))
        } throws: { error in
            guard case .animationTooLarge(let frames, let width, let height) = error as? ImagePipeline.Error else {
                return false
            }
            return frames == 3 && width == 20 && height == 10
        }
        // The same data is a fine still image.
        #expect(try await pipeline.image(for: ImageRequest(url: url)).image.pixelWidth == 20)
    }

    @Test func anAnimatedRequestForAStillImageGetsTheImage() async throws {
        let png = TestEncoders.png(
            rgba: Bitmap(width: 4, height: 4, red: 9, green: 9, blue: 9).pixels,
            width: 4,
            height: 4
        )
        let loader = GatedDataLoader(isGated: false, defaultResponse: { _ in .success(DataLoadResponse(data: png)) })
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.diskCache = nil
        }
        let response = try await pipeline.image(for: ImageRequest(url: url, isAnimated: true))
        #expect(response.animation == nil)
        #expect(response.image.pixelWidth == 4)
    }

    @Test func theAnimatedFlagIsPartOfTheKeys() {
        let still = ImageRequest(url: url)
        var animated = ImageRequest(url: url, isAnimated: true)
        #expect(still.imageKey != animated.imageKey)
        #expect(still.dataKey == animated.dataKey)
        #expect(still.decodeKey != animated.decodeKey)
        animated.isAnimated = false
        #expect(still.imageKey == animated.imageKey)
    }
}
#endif
