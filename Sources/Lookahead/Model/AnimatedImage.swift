// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// The decoded frames of an animated GIF or WebP with their durations (``ImageResponse/animation``): every frame a
/// whole picture, at the thumbnail size and with the processors applied.
public struct AnimatedImage {
    /// One picture of the animation and how long it stays on screen.
    public struct Frame {
        /// The whole picture at this point of the animation.
        public var image: PlatformImage
        /// How long the frame shows before the next one.
        public var duration: Duration

        /// Creates a frame.
        public init(image: PlatformImage, duration: Duration) {
            self.image = image
            self.duration = duration
        }
    }

    /// The frames, in order; never empty.
    public var frames: [Frame]
    /// How many times the animation plays; `0` plays it forever.
    public var loopCount: Int

    /// Creates an animation of at least one frame.
    public init(frames: [Frame], loopCount: Int = 0) {
        precondition(!frames.isEmpty, "An animation has at least one frame")
        self.frames = frames
        self.loopCount = max(0, loopCount)
    }

    /// The first frame: what a still image of the animation shows (``ImageResponse/image``).
    public var poster: PlatformImage { frames[0].image }

    /// The time one play of every frame takes.
    public var duration: Duration { frames.reduce(.zero) { $0 + $1.duration } }

    /// The memory the frames take, in bytes: the animation's cost in the memory cache.
    public var cost: Int { frames.reduce(0) { $0 + $1.image.decodedCost } }

    /// The index of the frame to show `elapsed` after the animation started; after its last loop, the last frame.
    public func frameIndex(at elapsed: Duration) -> Int {
        let total = duration
        guard frames.count > 1, total > .zero, elapsed > .zero else { return 0 }
        if loopCount > 0, elapsed >= total * loopCount { return frames.count - 1 }
        var remaining = elapsed - total * Int(elapsed / total)
        for (index, frame) in frames.enumerated() {
            if remaining < frame.duration { return index }
            remaining -= frame.duration
        }
        return frames.count - 1
    }

    /// When (from the start) the frame after the one shown at `elapsed` begins; `nil` when nothing changes any more.
    public func nextFrameTime(after elapsed: Duration) -> Duration? {
        let total = duration
        guard frames.count > 1, total > .zero else { return nil }
        let elapsed = max(.zero, elapsed)
        let end = loopCount > 0 ? total * loopCount : nil
        if let end, elapsed >= end { return nil }
        var start = total * Int(elapsed / total)
        for frame in frames {
            start += frame.duration
            if start > elapsed { break }
        }
        if let end, start >= end { return nil }
        return start
    }

    /// The frames at a single rate, for players with one interval for every frame (UIKit's animated `UIImage`): the
    /// durations' greatest common divisor (at least 10 ms), doubled while the sequence is over `maximumLength`.
    package func uniformSchedule(maximumLength: Int = 1_000) -> (frames: [Int], interval: Duration) {
        let milliseconds = frames.map { max(1, Int($0.duration / .milliseconds(1))) }
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        var interval = max(10, milliseconds.reduce(0, gcd))
        func repeats(_ duration: Int) -> Int { max(1, Int((Double(duration) / Double(interval)).rounded())) }
        while milliseconds.reduce(0, { $0 + repeats($1) }) > max(frames.count, maximumLength) { interval *= 2 }
        var sequence: [Int] = []
        for (index, duration) in milliseconds.enumerated() {
            sequence += repeatElement(index, count: repeats(duration))
        }
        return (sequence, .milliseconds(interval))
    }

    /// A frame's duration from what its file says: 10 ms or less ("as fast as possible") shows for 100 ms.
    package static func frameDuration(milliseconds: Int) -> Duration {
        milliseconds <= 10 ? .milliseconds(100) : .milliseconds(milliseconds)
    }

    /// The same animation with `transform` applied to every frame's image.
    func mapImages<E: Error>(_ transform: (PlatformImage) throws(E) -> PlatformImage) throws(E) -> AnimatedImage {
        var copy = self
        for index in copy.frames.indices {
            copy.frames[index].image = try transform(copy.frames[index].image)
        }
        return copy
    }
}

#if !canImport(UIKit)
extension AnimatedImage {
    /// An image that plays the frames: `nil` here, where views draw the frames themselves (UIKit has one).
    package var platformAnimation: PlatformImage? { nil }
}
#endif

#if LOOKAHEAD_NONSENDABLE_IMAGE
// SAFETY: as for `ImageResponse`: the frames are images the pipeline made and never mutates.
extension AnimatedImage: @unchecked Sendable {}
extension AnimatedImage.Frame: @unchecked Sendable {}
#else
extension AnimatedImage: Sendable {}
extension AnimatedImage.Frame: Sendable {}
#endif
