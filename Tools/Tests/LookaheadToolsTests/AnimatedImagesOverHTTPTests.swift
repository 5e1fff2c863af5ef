// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — animated GIFs and WebPs from the fixture server over loopback HTTP, through the pipeline.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(2))) struct AnimatedImagesOverHTTPTests {
    @Test(arguments: ["gif", "webp"]) func anAnimationDecodesToItsFramesAndDurations(format: String) async throws {
        let server = try await FixtureServer.start()
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.memoryCache = MemoryCache(costLimit: 64 << 20)
        }
        let url = server.url("/animated/5.\(format)").appending(queryItems: [
            URLQueryItem(name: "frames", value: "9"), URLQueryItem(name: "delayMs", value: "70"),
            URLQueryItem(name: "w", value: "120"), URLQueryItem(name: "h", value: "80"),
        ])
        let response = try await pipeline.image(for: ImageRequest(url: url, isAnimated: true))
        let animation = try #require(response.animation)
        #expect(animation.frameCount == 9)
        #expect(animation.frameDurations.allSatisfy { $0 == .milliseconds(70) })
        #expect(animation.loopCount == 0)
        let frames = try decodedFrames(animation)
        #expect(frames.count == 9)
        #expect(frames.allSatisfy { $0.image.width == 120 && $0.image.height == 80 })
        // The band sweeps from left to right: it is light at the left in the first frame, at the right in the last.
        func brightness(_ image: Bitmap, x: Int) -> Int {
            (0..<image.height).reduce(0) { sum, y in sum + Int(image[x, y].red) + Int(image[x, y].green) }
        }
        let first = frames[0].image
        let last = frames[8].image
        #expect(first == animation.poster)
        #expect(brightness(first, x: 5) > brightness(last, x: 5))
        #expect(brightness(last, x: 114) > brightness(first, x: 114))
        // The memory cache holds the encoded file and the first frame, and counts a player's buffer: not nine frames.
        let frame = 120 * 80 * 4
        #expect(animation.encodedByteCount > 0)
        #expect(
            pipeline.configuration.memoryCache?.totalCost
                == animation.encodedByteCount + frame + animation.frameBufferByteLimit
        )
        #expect(animation.frameBufferByteLimit == 3 * frame)
        await server.stop()
    }

    @MainActor
    @Test(arguments: ["gif", "webp"]) func anAnimationPlaysFromTheMemoryCacheWithoutDownloadingAgain(format: String)
        async throws
    {
        let server = try await FixtureServer.start()
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.memoryCache = MemoryCache(costLimit: 64 << 20, entryCostLimit: 2 << 20)
        }
        // 60 frames of 160×120: 4.6 MB decoded, over the entry limit of 2 MB; the encoded file fits.
        let url = server.url("/animated/8.\(format)").appending(queryItems: [
            URLQueryItem(name: "frames", value: "60"), URLQueryItem(name: "delayMs", value: "20"),
            URLQueryItem(name: "w", value: "160"), URLQueryItem(name: "h", value: "120"),
        ])
        let request = ImageRequest(url: url, isAnimated: true)
        let animation = try #require(try await pipeline.image(for: request).animation)
        let again = try await pipeline.image(for: request)
        #expect(again.cacheType == .memory)
        #expect(again.animation?.frameCount == 60)
        // Played from the cached entry in real time: 20 changes of frame, none back to the frame it left. How many
        // frames a change skips depends on how late a busy machine wakes the player, so it is not asserted here
        // (the library's player tests pace it with a manual clock).
        let player = AnimationPlayer(try #require(again.animation))
        var shown: [Int] = [0]
        var play: Task<Void, Never>?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            player.onFrameChange = { _ in
                shown.append(player.frameIndex)
                if shown.count == 21 { continuation.resume() }
            }
            play = Task { await player.play() }
        }
        play?.cancel()
        #expect(shown.allSatisfy { (0..<60).contains($0) })
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $0 != $1 })
        #expect(animation.cost < 2 << 20)
        #expect(server.requestCount(forPath: "/animated/8.\(format)") == 1, "played without downloading again")
        await server.stop()
    }

    @Test(arguments: ["gif", "webp"]) func aStillRequestOfAnAnimationGetsItsFirstFrameOnly(format: String) async throws
    {
        let server = try await FixtureServer.start()
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.memoryCache = MemoryCache(costLimit: 64 << 20)
        }
        let url = server.url("/animated/6.\(format)").appending(queryItems: [URLQueryItem(name: "frames", value: "20")])
        let request = ImageRequest(url: url, thumbnail: ThumbnailOptions(maximumPixelSize: 64))
        let response = try await pipeline.image(for: request)
        #expect(response.animation == nil)
        #expect(response.image.width == 64 && response.image.height == 48)
        #expect(pipeline.configuration.memoryCache?.totalCost == 64 * 48 * 4)
        await server.stop()
    }

    @Test func anAnimationOverTheFrameLimitIsATypedErrorAndItsStillImageStillLoads() async throws {
        let server = try await FixtureServer.start()
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.maximumAnimationFrameCount = 100
        }
        let url = server.url("/animated/7.gif").appending(queryItems: [
            URLQueryItem(name: "frames", value: "300"), URLQueryItem(name: "w", value: "16"),
            URLQueryItem(name: "h", value: "16"),
        ])
        await #expect {
            try await pipeline.image(for: ImageRequest(url: url, isAnimated: true))
        } throws: { error in
            guard case .animationTooLarge(let frames, 16, 16) = error as? ImagePipeline.Error else { return false }
            return frames == 101  // counting stops one past the limit
        }
        #expect(try await pipeline.image(for: ImageRequest(url: url)).image.width == 16)
        await server.stop()
    }

    /// Every frame of one play, decoded in order.
    private func decodedFrames(_ animation: AnimatedImage) throws -> [AnimatedImage.Frame] {
        var iterator = animation.makeFrameIterator()
        var frames: [AnimatedImage.Frame] = []
        while let frame = try iterator.next() { frames.append(frame) }
        return frames
    }
}
