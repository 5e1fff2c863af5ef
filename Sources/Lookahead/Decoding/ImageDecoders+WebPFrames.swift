// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CWebP)
import CWebP
public import Foundation

extension ImageDecoders.WebP {
    /// Reads the frames' durations and the loop count, checks the frame count and canvas against the limits, and
    /// decodes the first frame; libwebp's animation decoder decodes the others as they play, composited as the file
    /// says. `nil` for a still WebP or an animation of one frame.
    public func decodeAnimation(
        _ data: Data,
        context: ImageDecodingContext
    ) throws(ImageDecodingError) -> AnimatedImage? {
        let layout = try ImageDecoders.withBytes(of: data, codec: name) { source, size throws(ImageDecodingError) in
            try Self.animationLayout(source, size, context)
        }
        guard let layout else { return nil }
        return try AnimatedImage.opening(
            data,
            codec: name,
            frameDurations: layout.durations,
            loopCount: layout.loopCount,
            context: context
        ) { (bytes) throws(ImageDecodingError) in try FrameReader(bytes, layout) }
    }

    /// What the demuxer says of an animation without decoding it.
    struct AnimationLayout {
        var width: Int
        var height: Int
        var durations: [Duration]
        var loopCount: Int
        var profile: [UInt8]?
    }

    /// The canvas, durations and loop count, checked against the limits; `nil` for a still WebP or one frame.
    private static func animationLayout(
        _ source: UnsafePointer<UInt8>,
        _ size: Int,
        _ context: ImageDecodingContext
    ) throws(ImageDecodingError) -> AnimationLayout? {
        var input = WebPData(bytes: source, size: size)
        guard let demuxer = WebPDemux(&input) else { throw failure("invalid container") }
        defer { WebPDemuxDelete(demuxer) }
        let width = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH))
        let height = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
        let frameCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        let isAnimation = WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & ANIMATION_FLAG.rawValue != 0
        guard isAnimation, frameCount > 1 else { return nil }
        guard width > 0, height > 0 else { throw failure("invalid canvas \(width)×\(height)") }
        try context.checkPixelLimit(codec: "WebP", width: width, height: height)
        let error = context.animationLimitError(codec: "WebP", frameCount: frameCount, width: width, height: height)
        if let error { throw error }
        var durations: [Duration] = []
        var iterator = WebPIterator()
        for number in 1...frameCount where WebPDemuxGetFrame(demuxer, Int32(number), &iterator) != 0 {
            durations.append(AnimatedImage.frameDuration(milliseconds: Int(iterator.duration)))
            WebPDemuxReleaseIterator(&iterator)
        }
        guard durations.count > 1 else { return nil }
        let loopCount = Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT))
        return AnimationLayout(
            width: width,
            height: height,
            durations: durations,
            loopCount: loopCount,
            profile: metadataChunk("ICCP", source, size)
        )
    }

    /// Decodes an animated WebP's frames in order with libwebp's animation decoder, which composites each on the
    /// canvas; converted to sRGB when the file has a colour profile.
    final class FrameReader: AnimationFrameReading {
        private let bytes: EncodedBytes
        private let decoder: OpaquePointer
        private let layout: AnimationLayout
        private var decodedCount = 0

        /// Opens the bytes at the first frame; `layout` comes from `animationLayout`.
        init(_ bytes: EncodedBytes, _ layout: AnimationLayout) throws(ImageDecodingError) {
            decoder = try animationDecoder(bytes.buffer.baseAddress, bytes.buffer.count)
            self.bytes = bytes
            self.layout = layout
        }

        deinit {
            WebPAnimDecoderDelete(decoder)
        }

        func nextFrame() throws(ImageDecodingError) -> PlatformImage? {
            guard decodedCount < layout.durations.count, WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
            var buffer: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else {
                throw failure("frame \(decodedCount + 1) does not decode")
            }
            decodedCount += 1
            let pixels = [UInt8](UnsafeBufferPointer(start: buffer, count: layout.width * layout.height * 4))
            let frame = Bitmap(width: layout.width, height: layout.height, pixels: pixels)
            return PlatformImage.make(from: frame.convertedToSRGB(from: layout.profile))
        }
    }
}
#endif
