// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the frame buffer behind AnimationPlayer: its byte bound, the order of frames, frames that match
// a reference compositing of the file's frames, and a file whose frame does not decode.

import Foundation
import Testing

@testable import Lookahead

@Suite(.timeLimit(.minutes(1))) struct AnimationFrameBufferStateMachineTests {
    typealias Machine = AnimationFrameBufferStateMachine
    let image = Bitmap(width: 2, height: 2, red: 0, green: 0, blue: 0).platformImage  // 16 bytes

    /// Runs the machine's steps as a reader would, until it stops asking; returns what a waiting player got.
    @discardableResult
    func runSteps(_ machine: inout Machine, peak: inout Int) -> Machine.Take? {
        var delivered: Machine.Take?
        while let step = machine.nextStep() {
            delivered = machine.stepFinished(step, step.keeps ? .decoded(image) : .skipped) ?? delivered
            peak = max(peak, machine.byteCount)
            let indices = machine.frames.map(\.index)
            #expect(zip(indices, indices.dropFirst()).allSatisfy { ($0 + 1) % machine.frameCount == $1 })
        }
        return delivered
    }

    @Test func theBufferNeverHoldsMoreThanItsByteLimit() {
        // Room for 3 frames of 16 bytes in 50.
        var machine = Machine(frameCount: 10, byteLimit: 50, frameCost: 16, shown: 0)
        var peak = 0
        runSteps(&machine, peak: &peak)
        #expect(machine.frames.map(\.index) == [1, 2, 3])
        for index in [1, 2, 5, 9, 0, 3, 4, 8] {
            if case .wait = machine.take(index) {
                guard case .frame = runSteps(&machine, peak: &peak) else {
                    Issue.record("frame \(index) never came")
                    return
                }
            }
            runSteps(&machine, peak: &peak)
            #expect(machine.frames.first?.index == (index + 1) % 10)
        }
        #expect(peak <= 50)
        #expect(machine.peakByteCount == 48)
    }

    @Test func theReaderSkipsForwardAndReopensToGoBack() {
        var machine = Machine(frameCount: 10, byteLimit: 16, frameCost: 16, shown: 0)
        #expect(machine.nextStep() == .init(index: 0, restarts: false, keeps: false))  // frame 0 is the poster
        _ = machine.stepFinished(.init(index: 0, restarts: false, keeps: false), .skipped)
        #expect(machine.nextStep() == .init(index: 1, restarts: false, keeps: true))
        _ = machine.stepFinished(.init(index: 1, restarts: false, keeps: true), .decoded(image))
        guard case .wait = machine.take(6) else {
            Issue.record("frame 6 was not decoded")
            return
        }
        #expect(machine.frames.isEmpty)
        #expect(machine.nextStep() == .init(index: 2, restarts: false, keeps: false))
        _ = machine.stepFinished(.init(index: 2, restarts: false, keeps: false), .skipped)
        // The player went back: the reader is past frame 1, so the data reopens.
        guard case .wait = machine.take(1) else {
            Issue.record("frame 1 was kept")
            return
        }
        #expect(machine.nextStep() == .init(index: 0, restarts: true, keeps: false))
        _ = machine.stepFinished(.init(index: 0, restarts: true, keeps: false), .skipped)
        #expect(machine.nextStep() == .init(index: 1, restarts: false, keeps: true))
    }

    @Test func aFrameThatDoesNotDecodeEndsThePlay() {
        var machine = Machine(frameCount: 5, byteLimit: 64, frameCost: 16, shown: 0)
        var step = machine.nextStep()
        while let current = step, current.index < 3 {
            _ = machine.stepFinished(current, current.keeps ? .decoded(image) : .skipped)
            step = machine.nextStep()
        }
        #expect(machine.stepFinished(.init(index: 3, restarts: false, keeps: true), .ended) == nil)
        #expect(machine.nextStep() == nil)
        guard case .frame = machine.take(1), case .frame = machine.take(2), case .ended = machine.take(3) else {
            Issue.record("frames 1 and 2, then the end")
            return
        }
    }
}

#if canImport(CWebP) && canImport(CGIF) && canImport(CSPNG)
@Suite(.timeLimit(.minutes(1))) struct AnimationFrameBufferTests {
    /// Eight colours (giflib's tables have a power of two); index 4 is the transparent one where a frame has one.
    let palette: [(UInt8, UInt8, UInt8)] = [
        (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0), (9, 99, 199), (250, 200, 0), (90, 0, 90),
    ]

    /// 24 frames on a 16×12 canvas, seeded: random rectangles (some partly off the canvas), disposals 1–3 and
    /// transparency, each frame's delay its index + 2 centiseconds.
    var frames: [TestEncoders.GIFFrame] {
        var random = SplitMix64(seed: 54)
        return (0..<24).map { index in
            let (width, height) = (Int.random(in: 1...12, using: &random), Int.random(in: 1...10, using: &random))
            return TestEncoders.GIFFrame(
                indices: (0..<(width * height)).map { _ in UInt8.random(in: 0...7, using: &random) },
                left: index == 0 ? 0 : Int.random(in: 0...14, using: &random),
                top: index == 0 ? 0 : Int.random(in: 0...11, using: &random),
                width: width,
                height: height,
                delayCentiseconds: index + 2,
                disposal: Int.random(in: 1...3, using: &random),
                transparentIndex: Bool.random(using: &random) ? 4 : nil
            )
        }
    }

    /// Every frame as GIF's rules composite it, worked out here from the frames given to the encoder.
    func referenceFrames(_ frames: [TestEncoders.GIFFrame], width: Int, height: Int) -> [Bitmap] {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var result: [Bitmap] = []
        for frame in frames {
            let before = canvas
            let visible = { (x: Int, y: Int) in x < width && y < height }
            for y in 0..<frame.height {
                for x in 0..<frame.width where visible(frame.left + x, frame.top + y) {
                    let index = frame.indices[y * frame.width + x]
                    guard index != frame.transparentIndex else { continue }
                    let color = palette[Int(index)]
                    let offset = ((frame.top + y) * width + frame.left + x) * 4
                    canvas.replaceSubrange(offset..<(offset + 4), with: [color.0, color.1, color.2, 255])
                }
            }
            result.append(Bitmap(width: width, height: height, pixels: canvas))
            if frame.disposal == 3 { canvas = before }
            guard frame.disposal == 2 else { continue }
            for y in 0..<frame.height {
                for x in 0..<frame.width where visible(frame.left + x, frame.top + y) {
                    let offset = ((frame.top + y) * width + frame.left + x) * 4
                    canvas.replaceSubrange(offset..<(offset + 4), with: [0, 0, 0, 0])
                }
            }
        }
        return result
    }

    /// Takes frames `indices` from a buffer that decodes on the caller's thread, at once; checks its byte bound.
    func take(_ indices: [Int], from animation: AnimatedImage) async -> [PlatformImage?] {
        let buffer = AnimationFrameBuffer(animation, shown: 0, schedule: { $0() })
        var images: [PlatformImage?] = []
        for index in indices {
            images.append(await buffer.frame(at: index)?.image)
            #expect(buffer.byteCount.now <= animation.frameBufferByteLimit)
        }
        // The most held at once: the frames ahead, never more.
        #expect(buffer.byteCount.peak == AnimatedImage.framesAhead * animation.poster.decodedCost)
        buffer.close()
        return images
    }

    @Test func gifFramesMatchAReferenceCompositingWhateverOrderTheyAreTaken() async throws {
        let frames = frames
        let data = TestEncoders.animatedGIF(width: 16, height: 12, palette: palette, frames: frames)
        let animation = try #require(try ImageDecoders.GIF().decodeAnimation(data, context: .init()))
        let reference = referenceFrames(frames, width: 16, height: 12)
        #expect(animation.poster == reference[0])
        #expect(
            animation.frameDurations
                == (0..<24).map { .milliseconds(($0 + 2) * 10) }.map {
                    $0 <= .milliseconds(10) ? .milliseconds(100) : $0
                }
        )
        #expect(try animation.allFrames().map(\.image) == reference)
        // Forward, skipping, then round the loop (the data reopens) and on.
        let order = [1, 2, 3, 4, 7, 8, 15, 23, 0, 1, 5, 6, 22, 2]
        let images = await take(order, from: animation)
        #expect(images == order.map { reference[$0] })
    }

    @Test func webPFramesMatchTheFramesEncodedWhateverOrderTheyAreTaken() async throws {
        var random = SplitMix64(seed: 5)
        var frame = [UInt8](repeating: 255, count: 24 * 16 * 4)
        let frames = (0..<12).map { _ in
            // A few pixels change each frame: the encoder stores sub-rectangles that the decoder composites.
            for _ in 0..<6 {
                let offset = Int.random(in: 0..<(24 * 16), using: &random) * 4
                for channel in 0..<3 { frame[offset + channel] = UInt8.random(in: 0...255, using: &random) }
            }
            return frame
        }
        let data = TestEncoders.animatedWebP(
            frames: frames,
            width: 24,
            height: 16,
            durations: Array(repeating: 40, count: 12)
        )
        let animation = try #require(try ImageDecoders.WebP().decodeAnimation(data, context: .init()))
        let reference = frames.map { Bitmap(width: 24, height: 16, pixels: $0) }
        #expect(try animation.allFrames().map(\.image) == reference)
        let order = [1, 2, 6, 11, 0, 3, 4]
        #expect(await take(order, from: animation) == order.map { reference[$0] })
    }

    @Test func aGIFWhoseFrameDoesNotDecodeGivesTheFramesBeforeIt() async throws {
        let frames = (0..<6).map {
            TestEncoders.GIFFrame(indices: [UInt8](repeating: UInt8($0 % 4), count: 64), width: 8, height: 8)
        }
        var data = TestEncoders.animatedGIF(width: 8, height: 8, palette: palette, frames: frames)
        // The fifth frame's compressed data (after its descriptor, code size and block size) made nonsense: the
        // scan skips it whole, the decompression fails.
        let descriptors = data.indices.filter { data[$0] == 0x2C && $0 + 12 < data.count && data[$0 + 5] == 8 }
        let fifth = try #require(descriptors.count == 6 ? descriptors[4] : nil)
        let blockSize = Int(data[fifth + 11])
        data.replaceSubrange((fifth + 12)..<(fifth + 12 + blockSize), with: repeatElement(0xFF, count: blockSize))
        let animation = try #require(try ImageDecoders.GIF().decodeAnimation(data, context: .init()))
        #expect(animation.frameCount == 6)  // the scan does not decompress
        var iterator = animation.makeFrameIterator()
        for _ in 0..<4 { #expect(try iterator.next() != nil) }
        #expect(throws: ImageDecodingError.self) { try iterator.next() }
        let images = await take([1, 2, 3, 4], from: animation)
        #expect(images.map { $0?.pixelWidth } == [8, 8, 8, nil])
    }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct AnimationPlayerBufferTests {
    @Test func framesComeInOrderWithTheirDurationsAndLoopCount() async throws {
        let clock = SteppingClock()
        let scheduler = ManualScheduler()
        let reads = AsyncCondition(0)
        // Frames of one size, told apart by their red.
        let animation = AnimatedImage.inMemory(
            (0..<3).map { Bitmap(width: 1, height: 1, red: UInt8($0), green: 0, blue: 0).platformImage },
            durations: [100, 50, 150].map { .milliseconds($0) },
            loopCount: 2,
            reads: reads
        )
        let player = AnimationPlayer(animation, clock: clock, schedule: scheduler.schedule)
        var shown: [(frame: UInt8?, at: Duration)] = []
        player.onFrameChange = { shown.append(($0.makeBitmap()?[0, 0].red, player.elapsed)) }
        let run = Task { await player.play() }
        await clock.sleeps.wait { $0 >= 1 }
        scheduler.runAll()
        print("DBG ran")  // decodes ahead: frames 0 (skipped: the poster), 1, 2 and 0 again
        #expect(player.frameBuffer?.byteCount.now == 2 * 4)  // every frame but the one shown
        for (sleep, step) in [100, 50, 150, 100].enumerated() {
            clock.advance(by: .milliseconds(step))
            await clock.sleeps.wait { $0 >= sleep + 2 }
            scheduler.runAll()
        }
        clock.advance(by: .milliseconds(50))  // 450 ms: the second loop's last frame, which stays
        await run.value
        #expect(shown.map(\.frame) == [1, 2, 0, 1, 2])
        // Frames 0 to 2 once a loop (each loop reopens the data), and frame 0 once more, decoded ahead before the
        // player reached the end: never one frame twice in a loop.
        #expect(reads.value == 7)
        #expect(shown.map(\.at) == [100, 150, 300, 400, 450].map { .milliseconds($0) })
        #expect(player.isFinished && player.frameIndex == 2)
        #expect(player.missedFrameCount == 0)
        #expect(player.frameBuffer == nil)
    }
}
#endif
