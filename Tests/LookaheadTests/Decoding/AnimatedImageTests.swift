// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — animated GIF and WebP: frames, durations, loop counts, compositing, and the limits.

import Foundation
import Testing

@testable import Lookahead

#if canImport(CWebP) && canImport(CGIF) && canImport(CSPNG)
@Suite struct AnimatedImageTests {
    /// Red, green, blue, white.
    private let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]

    private func fill(_ index: UInt8, _ width: Int, _ height: Int) -> [UInt8] {
        [UInt8](repeating: index, count: width * height)
    }

    private func rgba(_ color: (UInt8, UInt8, UInt8), _ width: Int, _ height: Int) -> [UInt8] {
        Array([[UInt8]](repeating: [color.0, color.1, color.2, 255], count: width * height).joined())
    }

    private func color(_ image: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        let pixel = image[x, y]
        return [pixel.red, pixel.green, pixel.blue, pixel.alpha]
    }

    // MARK: - GIF

    /// Three frames on an 8×8 canvas: red everywhere (kept), a green 4×4 at (2, 2) with a transparent corner
    /// (cleared to the background afterwards), then a blue 2×2 at (0, 0) (restored afterwards), then white 1×1.
    private var compositedGIF: Data {
        var green = fill(1, 4, 4)
        green[0] = 3  // transparent: the red below shows
        return TestEncoders.animatedGIF(
            width: 8,
            height: 8,
            palette: palette,
            frames: [
                .init(indices: fill(0, 8, 8), width: 8, height: 8, delayCentiseconds: 10, disposal: 1),
                .init(
                    indices: green,
                    left: 2,
                    top: 2,
                    width: 4,
                    height: 4,
                    delayCentiseconds: 25,
                    disposal: 2,
                    transparentIndex: 3
                ),
                .init(indices: fill(2, 2, 2), width: 2, height: 2, delayCentiseconds: 0, disposal: 3),
                .init(indices: fill(3, 1, 1), left: 7, top: 7, width: 1, height: 1, delayCentiseconds: 5),
            ],
            loopCount: 3
        )
    }

    @Test func gifFramesHaveTheirDurationsAndTheLoopCount() throws {
        let animation = try #require(try ImageDecoders.GIF().decodeAnimation(compositedGIF, context: .init()))
        #expect(animation.frameCount == 4)
        // 10 cs; 25 cs; 0 cs shows for 100 ms, as in browsers; 5 cs.
        #expect(
            animation.frameDurations == [
                .milliseconds(100), .milliseconds(250), .milliseconds(100), .milliseconds(50),
            ]
        )
        #expect(animation.loopCount == 3)
        #expect(animation.duration == .milliseconds(500))
    }

    @Test func gifFramesAreCompositedWithTransparencyAndDisposal() throws {
        let frames = try #require(try ImageDecoders.GIF().decodeAnimation(compositedGIF, context: .init())).allFrames()
        let red: [UInt8] = [255, 0, 0, 255]
        let green: [UInt8] = [0, 255, 0, 255]
        let blue: [UInt8] = [0, 0, 255, 255]
        let clear: [UInt8] = [0, 0, 0, 0]
        // Frame 2: green over red, the transparent corner shows red.
        #expect(color(frames[1].image, 3, 3) == green)
        #expect(color(frames[1].image, 2, 2) == red)
        #expect(color(frames[1].image, 0, 0) == red)
        // Frame 3: frame 2's rectangle was cleared; blue at the top left.
        #expect(color(frames[2].image, 3, 3) == clear)
        #expect(color(frames[2].image, 2, 2) == clear)
        #expect(color(frames[2].image, 0, 0) == blue)
        #expect(color(frames[2].image, 7, 7) == red)
        // Frame 4: the blue was restored to what was there before it (red), and a white pixel is added.
        #expect(color(frames[3].image, 0, 0) == red)
        #expect(color(frames[3].image, 3, 3) == clear)
        #expect(color(frames[3].image, 7, 7) == [255, 255, 255, 255])
        // Frame 1 is what a still decode gives, and the poster.
        let still = try ImageDecoders.GIF().decode(compositedGIF, context: .init())
        #expect(frames[0].image == still)
        #expect(try ImageDecoders.GIF().decodeAnimation(compositedGIF, context: .init())?.poster == still)
    }

    @Test func aGIFWithoutLoopExtensionPlaysOnce() throws {
        let data = TestEncoders.animatedGIF(
            width: 2,
            height: 2,
            palette: palette,
            frames: [
                .init(indices: fill(0, 2, 2), width: 2, height: 2), .init(indices: fill(1, 2, 2), width: 2, height: 2),
            ],
            loopCount: nil
        )
        let animation = try #require(try ImageDecoders.GIF().decodeAnimation(data, context: .init()))
        #expect(animation.loopCount == 1)
    }

    @Test func aSingleFrameGIFIsNotAnAnimation() throws {
        let data = TestEncoders.animatedGIF(
            width: 4,
            height: 4,
            palette: palette,
            frames: [.init(indices: fill(0, 4, 4), width: 4, height: 4)]
        )
        #expect(try ImageDecoders.GIF().decodeAnimation(data, context: .init()) == nil)
    }

    @Test func aGIFCutShortKeepsItsWholeFrames() throws {
        let frames = (0..<5).map { TestEncoders.GIFFrame(indices: fill(UInt8($0 % 4), 16, 16), width: 16, height: 16) }
        let whole = TestEncoders.animatedGIF(width: 16, height: 16, palette: palette, frames: frames)
        let threeFrames = TestEncoders.animatedGIF(
            width: 16,
            height: 16,
            palette: palette,
            frames: Array(frames.prefix(3))
        )
        // Cut in the middle of the fourth frame's data (the three-frame file minus its trailer, plus a little).
        let cut = whole.prefix(threeFrames.count + 8)
        let animation = try #require(try ImageDecoders.GIF().decodeAnimation(Data(cut), context: .init()))
        #expect(animation.frameCount == 3)
        #expect(
            try animation.allFrames().map { color($0.image, 1, 1)[0...2] } == [
                [255, 0, 0], [0, 255, 0], [0, 0, 255],
            ]
        )
    }

    @Test func framesOutsideTheCanvasAreClipped() throws {
        // Found by fuzzing: a frame whose left or top lies past the canvas, disposed to the background.
        let data = TestEncoders.animatedGIF(
            width: 8,
            height: 8,
            palette: palette,
            frames: [
                .init(indices: fill(0, 8, 8), width: 8, height: 8),
                .init(indices: fill(1, 4, 4), left: 20, top: 2, width: 4, height: 4, disposal: 2),
                .init(indices: fill(2, 4, 4), left: 2, top: 30, width: 4, height: 4, disposal: 2),
                .init(indices: fill(3, 4, 4), left: 6, top: 6, width: 4, height: 4, disposal: 2),
            ]
        )
        let frames = try #require(try ImageDecoders.GIF().decodeAnimation(data, context: .init())).allFrames()
        #expect(frames.count == 4)
        #expect(color(frames[2].image, 3, 3) == [255, 0, 0, 255])  // nothing of frames 2 and 3 is visible
        #expect(color(frames[3].image, 7, 7) == [255, 255, 255, 255])  // frame 4's visible corner
        #expect(color(frames[3].image, 5, 5) == [255, 0, 0, 255])
    }

    @Test func tenThousandFramesAreAClearErrorBeforeAnyFrameIsDecoded() throws {
        // 10,000 frames of 64×64 (40 M pixels in all, 160 MB of frames) against the default limit of 1,000 frames.
        let frame = TestEncoders.GIFFrame(indices: fill(1, 64, 64), width: 64, height: 64)
        let data = TestEncoders.animatedGIF(
            width: 64,
            height: 64,
            palette: palette,
            frames: Array(repeating: frame, count: 10_000)
        )
        let context = ImageDecodingContext(maximumFrameCount: 1_000)
        #expect {
            try ImageDecoders.GIF().decodeAnimation(data, context: context)
        } throws: { error in
            // Counting stops one past the limit.
            (error as? ImageDecodingError)?.reason == .animationTooLarge(frameCount: 1_001, width: 64, height: 64)
        }
        // The first frame still decodes as a still image.
        #expect(try ImageDecoders.GIF().decode(data, context: context).width == 64)
    }

    @Test func thePixelsOfAllFramesAreBounded() throws {
        let frame = TestEncoders.GIFFrame(indices: fill(1, 100, 100), width: 100, height: 100)
        let data = TestEncoders.animatedGIF(
            width: 100,
            height: 100,
            palette: palette,
            frames: Array(repeating: frame, count: 30)
        )
        // 30 × 10,000 pixels = 300,000.
        #expect {
            try ImageDecoders.GIF().decodeAnimation(data, context: .init(maximumAnimationPixelCount: 299_999))
        } throws: { error in
            (error as? ImageDecodingError)?.reason == .animationTooLarge(frameCount: 30, width: 100, height: 100)
        }
        let animation = try ImageDecoders.GIF().decodeAnimation(
            data,
            context: .init(maximumAnimationPixelCount: 300_000)
        )
        #expect(animation?.frameCount == 30)
    }

    @Test func gifThumbnailFramesAreAtTheThumbnailSize() throws {
        let frames = (0..<3).map { TestEncoders.GIFFrame(indices: fill(UInt8($0), 200, 100), width: 200, height: 100) }
        let data = TestEncoders.animatedGIF(width: 200, height: 100, palette: palette, frames: frames)
        let animation = try #require(
            try ImageDecoders.GIF().decodeAnimation(data, context: .init(thumbnail: .init(maximumPixelSize: 50)))
        )
        let decoded = try animation.allFrames()
        #expect(decoded.allSatisfy { $0.image.width == 50 && $0.image.height == 25 })
        #expect(color(decoded[2].image, 25, 12) == [0, 0, 255, 255])
    }

    // MARK: - WebP

    @Test func webPFramesHaveTheirDurationsColoursAndLoopCount() throws {
        let data = TestEncoders.animatedWebP(
            frames: [rgba((250, 10, 10), 16, 16), rgba((10, 250, 10), 16, 16), rgba((10, 10, 250), 16, 16)],
            width: 16,
            height: 16,
            durations: [80, 120, 5],
            loopCount: 2
        )
        let animation = try #require(try ImageDecoders.WebP().decodeAnimation(data, context: .init()))
        #expect(animation.frameCount == 3)
        #expect(animation.frameDurations == [.milliseconds(80), .milliseconds(120), .milliseconds(100)])
        #expect(animation.loopCount == 2)
        let frames = try animation.allFrames()
        #expect(color(frames[0].image, 8, 8) == [250, 10, 10, 255])
        #expect(color(frames[1].image, 8, 8) == [10, 250, 10, 255])
        #expect(color(frames[2].image, 8, 8) == [10, 10, 250, 255])
        #expect(frames.map(\.duration) == animation.frameDurations)
    }

    @Test func webPFramesThatChangeOnlyAPartAreWholePictures() throws {
        // The encoder stores the second frame as the changed rectangle only; the decoder composites it.
        var second = rgba((250, 10, 10), 32, 32)
        for y in 4..<8 {
            for x in 4..<8 {
                second.replaceSubrange(((y * 32 + x) * 4)..<((y * 32 + x) * 4 + 4), with: [10, 10, 250, 255])
            }
        }
        let data = TestEncoders.animatedWebP(frames: [rgba((250, 10, 10), 32, 32), second], width: 32, height: 32)
        let frames = try #require(try ImageDecoders.WebP().decodeAnimation(data, context: .init())).allFrames()
        #expect(frames.count == 2)
        #expect(color(frames[1].image, 5, 5) == [10, 10, 250, 255])
        #expect(color(frames[1].image, 20, 20) == [250, 10, 10, 255])
    }

    @Test func webPFrameLimitIsAClearError() throws {
        let frames = (0..<12).map { rgba((UInt8($0 * 20), 10, 10), 8, 8) }
        let data = TestEncoders.animatedWebP(frames: frames, width: 8, height: 8)
        #expect {
            try ImageDecoders.WebP().decodeAnimation(data, context: .init(maximumFrameCount: 10))
        } throws: { error in
            (error as? ImageDecodingError)?.reason == .animationTooLarge(frameCount: 12, width: 8, height: 8)
        }
    }

    @Test func aStillWebPIsNotAnAnimation() throws {
        let data = TestEncoders.webp(rgba: rgba((1, 2, 3), 8, 8), width: 8, height: 8, lossless: true)
        #expect(try ImageDecoders.WebP().decodeAnimation(data, context: .init()) == nil)
    }

    @Test func aPNGIsDecodedStill() throws {
        let png = TestEncoders.png(rgba: rgba((1, 2, 3), 8, 8), width: 8, height: 8)
        #expect(try ImageDecoders.decodeAnimation(png, context: .init()).get() == nil)
    }

    // MARK: - Playback

    private func animation(_ milliseconds: [Int], loopCount: Int) -> AnimatedImage {
        .numbered(milliseconds, loopCount: loopCount)
    }

    @Test func frameIndexFollowsTheDurationsAndLoopsForever() {
        let forever = animation([100, 200, 100], loopCount: 0)
        let times = [0, 99, 100, 299, 300, 399, 400, 500, 4_000 + 350]
        #expect(times.map { forever.frameIndex(at: .milliseconds($0)) } == [0, 0, 1, 1, 2, 2, 0, 1, 2])
    }

    @Test func afterItsLoopsAnAnimationStaysOnItsLastFrame() {
        let twice = animation([100, 100], loopCount: 2)
        #expect(twice.frameIndex(at: .milliseconds(250)) == 0)
        #expect(twice.frameIndex(at: .milliseconds(399)) == 1)
        #expect(twice.frameIndex(at: .milliseconds(400)) == 1)
        #expect(twice.frameIndex(at: .seconds(60)) == 1)
    }

    @Test func nextFrameTimeIsWhenThePictureChanges() {
        let twice = animation([100, 200], loopCount: 2)
        let times = [0, 99, 100, 250, 300, 350, 450, 599, 600, 10_000]
        let next = times.map { twice.nextFrameTime(after: .milliseconds($0)) }
        let expected: [Duration?] = [100, 100, 300, 300, 400, 400, nil, nil, nil, nil].map {
            $0.map { .milliseconds($0) }
        }
        #expect(next == expected)
        let forever = animation([100, 200], loopCount: 0)
        #expect(forever.nextFrameTime(after: .milliseconds(10_050)) == .milliseconds(10_200))
        #expect(animation([100], loopCount: 0).nextFrameTime(after: .zero) == nil)
    }

    @Test func costCountsTheEncodedDataThePosterAndTheFrameBuffer() throws {
        let frames = (0..<5).map { TestEncoders.GIFFrame(indices: fill(UInt8($0 % 4), 10, 10), width: 10, height: 10) }
        let data = TestEncoders.animatedGIF(width: 10, height: 10, palette: palette, frames: frames)
        let animation = try #require(try ImageDecoders.GIF().decodeAnimation(data, context: .init()))
        #expect(animation.encodedByteCount == data.count)
        #expect(animation.frameBufferByteLimit == AnimatedImage.framesAhead * 10 * 10 * 4)
        #expect(animation.cost == data.count + 10 * 10 * 4 + animation.frameBufferByteLimit)
    }
}

#endif
