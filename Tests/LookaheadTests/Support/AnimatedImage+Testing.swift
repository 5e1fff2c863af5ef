// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — animations from frames in memory, and every frame of an animation, decoded in order.

@testable import Lookahead

extension AnimatedImage {
    /// An animation of `images` (the first is the poster), shown for `durations`; `reads` counts the frames read.
    static func inMemory(
        _ images: [PlatformImage],
        durations: [Duration],
        loopCount: Int = 0,
        reads: AsyncCondition<Int>? = nil
    ) -> AnimatedImage {
        // Frames, not images: `AnimatedImage.Frame` is `Sendable` where the platform image is not (NSImage).
        let frames = images.map { Frame(image: $0, duration: .zero) }
        return AnimatedImage(
            poster: images[0],
            frameDurations: durations,
            loopCount: loopCount,
            encodedByteCount: 0,
            makeReader: { ArrayFrameReader(frames.map(\.image), reads: reads) }
        )
    }

    /// Frames `index` pixels wide (frame 0 is 1 pixel wide), so an image tells which frame it is.
    static func numbered(_ milliseconds: [Int], loopCount: Int = 0, reads: AsyncCondition<Int>? = nil) -> AnimatedImage
    {
        inMemory(
            milliseconds.indices.map { Bitmap(width: $0 + 1, height: 1, red: 0, green: 0, blue: 0).platformImage },
            durations: milliseconds.map { .milliseconds($0) },
            loopCount: loopCount,
            reads: reads
        )
    }

    /// Every frame of one play, decoded in order.
    func allFrames() throws -> [Frame] {
        var iterator = makeFrameIterator()
        var frames: [Frame] = []
        while let frame = try iterator.next() { frames.append(frame) }
        return frames
    }
}

/// Hands out images from an array, in order.
final class ArrayFrameReader: AnimationFrameReading {
    private let images: [PlatformImage]
    private let reads: AsyncCondition<Int>?
    private var index = 0

    init(_ images: [PlatformImage], reads: AsyncCondition<Int>?) {
        self.images = images
        self.reads = reads
    }

    func nextFrame() throws(ImageDecodingError) -> PlatformImage? {
        guard index < images.count else { return nil }
        defer { index += 1 }
        reads?.update { $0 += 1 }
        return images[index]
    }
}
