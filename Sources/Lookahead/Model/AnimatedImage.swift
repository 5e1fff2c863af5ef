// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// An animated GIF or WebP (``ImageResponse/animation``): its first frame decoded, the others decoded when they are
/// played, from the encoded data it keeps. Frames are whole pictures, at the thumbnail size and with the request's
/// processors applied.
///
/// ```swift
/// let response = try await ImagePipeline.shared.image(for: ImageRequest(url: url, isAnimated: true))
/// if let animation = response.animation {
///     var frames = animation.makeFrameIterator()  // decodes on the calling thread: not the main one
///     var start = Duration.zero
///     while let frame = try frames.next() {
///         start += frame.duration
///         show(frame.image, until: start)
///     }
/// }
/// ```
/// An ``AnimationPlayer`` plays it on screen, decoding a few frames ahead off the main thread.
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

    /// The first frame: what a still image of the animation shows (``ImageResponse/image``).
    public private(set) var poster: PlatformImage
    /// How long each frame shows, in order; never empty.
    public let frameDurations: [Duration]
    /// How many times the animation plays; `0` plays it forever.
    public let loopCount: Int
    /// The bytes of the encoded data the frames are decoded from.
    public let encodedByteCount: Int
    /// Opens the encoded data for one play, at the first frame.
    private let makeReader: @Sendable () throws(ImageDecodingError) -> any AnimationFrameReading
    /// What is applied to each decoded frame, in order: the thumbnail's fit, processors, the scale.
    private var transforms: [@Sendable (PlatformImage) throws -> PlatformImage] = []

    /// Creates an animation whose frames `makeReader` decodes, in order, each time it is played.
    /// - Parameters:
    ///   - poster: The first frame, decoded.
    ///   - frameDurations: How long each frame shows; at least one frame.
    ///   - loopCount: How many times it plays; `0` forever.
    ///   - encodedByteCount: The memory the encoded data takes, for the memory cache's cost.
    ///   - makeReader: Opens the data at the first frame; called on a decoding thread.
    public init(
        poster: PlatformImage,
        frameDurations: [Duration],
        loopCount: Int = 0,
        encodedByteCount: Int,
        makeReader: @escaping @Sendable () throws(ImageDecodingError) -> any AnimationFrameReading
    ) {
        precondition(!frameDurations.isEmpty, "An animation has at least one frame")
        self.poster = poster
        self.frameDurations = frameDurations
        self.loopCount = max(0, loopCount)
        self.encodedByteCount = max(0, encodedByteCount)
        self.makeReader = makeReader
    }

    /// The number of frames.
    public var frameCount: Int { frameDurations.count }

    /// The time one play of every frame takes.
    public var duration: Duration { frameDurations.reduce(.zero, +) }

    /// The most bytes of decoded frames a player keeps ahead of the frame it shows: a few frames.
    public var frameBufferByteLimit: Int { poster.decodedCost * Self.framesAhead }

    /// How many frames a player decodes ahead of the one it shows.
    package static let framesAhead = 3

    /// The animation's cost in the memory cache: the encoded data, the first frame and a player's frame buffer.
    public var cost: Int { encodedByteCount + poster.decodedCost + frameBufferByteLimit }

    /// Decodes the frames of one play, in order, on the calling thread.
    public func makeFrameIterator() -> FrameIterator {
        FrameIterator(animation: self)
    }

    /// The index of the frame to show `elapsed` after the animation started; after its last loop, the last frame.
    public func frameIndex(at elapsed: Duration) -> Int {
        let total = duration
        guard frameCount > 1, total > .zero, elapsed > .zero else { return 0 }
        if loopCount > 0, elapsed >= total * loopCount { return frameCount - 1 }
        return frame(at: elapsed).index
    }

    /// When (from the start) the frame after the one shown at `elapsed` begins; `nil` when nothing changes any more.
    public func nextFrameTime(after elapsed: Duration) -> Duration? {
        let total = duration
        guard frameCount > 1, total > .zero else { return nil }
        let elapsed = max(.zero, elapsed)
        let end = loopCount > 0 ? total * loopCount : nil
        if let end, elapsed >= end { return nil }
        let next = frame(at: elapsed).end
        if let end, next >= end { return nil }
        return next
    }

    /// The frame shown at `elapsed` (not negative) in the loop it falls in, and when, from the start, it ends.
    private func frame(at elapsed: Duration) -> (index: Int, end: Duration) {
        let total = duration
        var end = total * Int(elapsed / total)
        for (index, frameDuration) in frameDurations.enumerated() {
            end += frameDuration
            if end > elapsed { return (index, end) }
        }
        return (frameCount - 1, end)
    }

    /// A frame's duration from what its file says: 10 ms or less ("as fast as possible") shows for 100 ms.
    package static func frameDuration(milliseconds: Int) -> Duration {
        milliseconds <= 10 ? .milliseconds(100) : .milliseconds(milliseconds)
    }

    /// The same animation with `transform` applied to the poster now and to every other frame as it is decoded.
    func mapImages<E: Error>(
        _ transform: @escaping @Sendable (PlatformImage) throws(E) -> PlatformImage
    ) throws(E) -> AnimatedImage {
        var copy = self
        copy.poster = try transform(poster)
        copy.transforms.append { image in try transform(image) }
        return copy
    }
}

// MARK: - Frames

/// Decodes an animation's frames in order, from the first: one play, opened for each play. A reader is used on one
/// thread at a time, never shared.
public protocol AnimationFrameReading: AnyObject {
    /// The next frame, composited on the canvas; `nil` after the last. A file cut short ends at its last whole
    /// frame; a frame that does not decode throws.
    func nextFrame() throws(ImageDecodingError) -> PlatformImage?
}

extension AnimatedImage {
    /// Decodes the frames of one play of an animation, in order, each with its duration (``makeFrameIterator()``).
    /// Decoding blocks: use it off the main thread.
    public struct FrameIterator {
        private let animation: AnimatedImage
        private var reader: (any AnimationFrameReading)?
        /// The index of the frame ``next()`` returns.
        public private(set) var index = 0

        init(animation: AnimatedImage) {
            self.animation = animation
        }

        /// The next frame; `nil` after the last, or where the data ends early.
        public mutating func next() throws(ImageDecodingError) -> Frame? {
            guard let image = try nextImage() else { return nil }
            var transformed = image
            do {
                for transform in animation.transforms { transformed = try transform(transformed) }
            } catch let error as ImageDecodingError {
                throw error
            } catch {
                throw ImageDecodingError(codec: "Processor", message: "\(error)")
            }
            return Frame(image: transformed, duration: animation.frameDurations[index - 1])
        }

        /// Decodes the next frame without making it ready to show: it still changes the canvas. `false` at the end.
        package mutating func skip() throws(ImageDecodingError) -> Bool {
            try nextImage() != nil
        }

        private mutating func nextImage() throws(ImageDecodingError) -> PlatformImage? {
            guard index < animation.frameCount else { return nil }
            let reader: any AnimationFrameReading
            if let open = self.reader {
                reader = open
            } else {
                reader = try animation.makeReader()
                self.reader = reader
            }
            guard let image = try reader.nextFrame() else {
                index = animation.frameCount
                return nil
            }
            index += 1
            return image
        }
    }
}

#if LOOKAHEAD_NONSENDABLE_IMAGE
// SAFETY: as for `ImageResponse`: the poster and frames are images the pipeline made and never mutates.
extension AnimatedImage: @unchecked Sendable {}
extension AnimatedImage.Frame: @unchecked Sendable {}
#else
extension AnimatedImage: Sendable {}
extension AnimatedImage.Frame: Sendable {}
#endif
