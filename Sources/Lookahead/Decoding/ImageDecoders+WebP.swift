// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CWebP)
import CWebP
import Foundation

extension ImageDecoders {
    /// Decodes WebP with libwebp: lossy, lossless, alpha, the `EXIF` orientation, and an animation's first frame on
    /// its canvas, or the animation, decoded as it plays (``decodeAnimation(_:context:)``). Thumbnails decode at
    /// their size with libwebp's rescaler, never allocating the full-size image.
    public struct WebP: AnimatedImageDecoding, BundledImageDecoder {
        /// Creates the decoder.
        public init() {}

        func decodeBitmap(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> Bitmap {
            try ImageDecoders.withBytes(of: data, codec: name) { source, size throws(ImageDecodingError) in
                var features = WebPBitstreamFeatures()
                let status = WebPGetFeatures(source, size, &features)
                guard status == VP8_STATUS_OK else { throw Self.error("invalid header", status) }
                let width = Int(features.width)
                let height = Int(features.height)
                guard width > 0, height > 0 else { throw Self.error("invalid dimensions", status) }
                try context.checkPixelLimit(codec: "WebP", width: width, height: height)
                let profile = Self.metadataChunk("ICCP", source, size)
                if features.has_animation != 0 {
                    return try Self.firstFrame(source, size, canvasWidth: width, canvasHeight: height)
                        .convertedToSRGB(from: profile)
                }
                // The scale is chosen for the picture as shown: turned a quarter, its width is the stored height.
                let orientation = Self.metadataChunk("EXIF", source, size).map(ExifOrientation.exifPayload) ?? .up
                let upright = orientation.uprightSize(width: width, height: height)
                let scale = context.thumbnail?.scale(forWidth: upright.width, height: upright.height) ?? 1
                let outWidth = scale < 1 ? max(1, Int((Double(width) * scale).rounded())) : width
                let outHeight = scale < 1 ? max(1, Int((Double(height) * scale).rounded())) : height
                return try Self.decodeStill(source, size, width: outWidth, height: outHeight, scaled: scale < 1)
                    .convertedToSRGB(from: profile).applying(orientation)
            }
        }

        /// The bytes of an `ICCP` or `EXIF` chunk when the `VP8X` header's flags say the file has one.
        static func metadataChunk(_ name: String, _ source: UnsafePointer<UInt8>, _ size: Int) -> [UInt8]? {
            // RIFF header (12 bytes), then "VP8X", its size (4), and its flags: 0x20 ICC profile, 0x08 EXIF.
            guard size >= 21, UnsafeBufferPointer(start: source + 12, count: 4).elementsEqual("VP8X".utf8),
                source[20] & (name == "ICCP" ? 0x20 : 0x08) != 0
            else { return nil }
            var input = WebPData(bytes: source, size: size)
            guard let demuxer = WebPDemux(&input) else { return nil }
            defer { WebPDemuxDelete(demuxer) }
            var chunk = WebPChunkIterator()
            guard WebPDemuxGetChunk(demuxer, name, 1, &chunk) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&chunk) }
            guard let bytes = chunk.chunk.bytes, chunk.chunk.size > 0 else { return nil }
            return [UInt8](UnsafeBufferPointer(start: bytes, count: chunk.chunk.size))
        }

        /// Decodes a still image (or one frame's bitstream) into a new bitmap, optionally scaled.
        private static func decodeStill(
            _ source: UnsafePointer<UInt8>,
            _ size: Int,
            width: Int,
            height: Int,
            scaled: Bool
        ) throws(ImageDecodingError) -> Bitmap {
            var config = WebPDecoderConfig()
            guard WebPInitDecoderConfig(&config) != 0 else { throw failure("library version mismatch") }
            if scaled {
                config.options.use_scaling = 1
                config.options.scaled_width = Int32(width)
                config.options.scaled_height = Int32(height)
            }
            var status = VP8_STATUS_OK
            let pixels = PixelBufferPool.shared.makeBuffer(count: width * height * 4) { buffer in
                config.output.colorspace = MODE_RGBA
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = buffer.baseAddress
                config.output.u.RGBA.stride = Int32(width * 4)
                config.output.u.RGBA.size = buffer.count
                status = WebPDecode(source, size, &config)
            }
            WebPFreeDecBuffer(&config.output)
            guard status == VP8_STATUS_OK else { throw error("decoding failed", status) }
            return Bitmap(width: width, height: height, pixels: pixels)
        }

        /// The first frame of an animation on its transparent canvas, by libwebp's animation decoder. Later frames
        /// are never read.
        private static func firstFrame(
            _ source: UnsafePointer<UInt8>,
            _ size: Int,
            canvasWidth: Int,
            canvasHeight: Int
        ) throws(ImageDecodingError) -> Bitmap {
            let decoder = try animationDecoder(source, size)
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            var frame: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0, Int(info.canvas_width) == canvasWidth,
                Int(info.canvas_height) == canvasHeight, WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0,
                let frame
            else { throw failure("the first frame does not decode") }
            let pixels = [UInt8](UnsafeBufferPointer(start: frame, count: canvasWidth * canvasHeight * 4))
            return Bitmap(width: canvasWidth, height: canvasHeight, pixels: pixels)
        }

        /// libwebp's animation decoder for the bytes, compositing RGBA frames on the calling thread.
        static func animationDecoder(
            _ source: UnsafePointer<UInt8>?,
            _ size: Int
        ) throws(ImageDecodingError) -> OpaquePointer {
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw failure("library version mismatch") }
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            var input = WebPData(bytes: source, size: size)
            guard let decoder = WebPAnimDecoderNew(&input, &options) else { throw failure("invalid animation") }
            return decoder
        }

        static let format = BundledFormat(name: "WebP", mediaType: "image/webp") { $0.isWebP }

        private static func error(_ message: String, _ status: VP8StatusCode) -> ImageDecodingError {
            let reason: String
            switch status {
            case VP8_STATUS_OUT_OF_MEMORY: reason = "out of memory"
            case VP8_STATUS_INVALID_PARAM: reason = "invalid parameter"
            case VP8_STATUS_BITSTREAM_ERROR: reason = "bitstream error"
            case VP8_STATUS_UNSUPPORTED_FEATURE: reason = "unsupported feature"
            case VP8_STATUS_SUSPENDED: reason = "suspended"
            case VP8_STATUS_USER_ABORT: reason = "aborted"
            case VP8_STATUS_NOT_ENOUGH_DATA: reason = "not enough data (truncated)"
            default: reason = "status \(status.rawValue)"
            }
            return failure("\(message): \(reason)")
        }
    }
}
extension ImageDecoders.WebP: ImageMetadataReading {
    package func metadata(of data: Data) -> ImageMetadata {
        let metadata = try? ImageDecoders.withBytes(of: data, codec: name) { base, count in
            ImageDecoders.metadata(
                format: name,
                orientation: Self.metadataChunk("EXIF", base, count).map(ExifOrientation.exifPayload) ?? .up,
                profile: Self.metadataChunk("ICCP", base, count)
            )
        }
        return metadata ?? ImageMetadata(format: name)
    }
}
#endif
