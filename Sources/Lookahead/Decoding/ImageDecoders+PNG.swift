// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CSPNG)
import CSPNG
import Foundation

extension ImageDecoders {
    /// Decodes PNG with libspng: every colour type and bit depth, interlacing, `tRNS`, 16-bit reduced to 8, the
    /// `eXIf` orientation applied. Ancillary chunks are capped at 4 MiB each and 16 MiB together; a file past that is
    /// decoded again without them. CRC errors fail. An `iCCP` profile converts to sRGB; `cHRM` and `gAMA` only with
    /// ``convertsGammaAndChromaticities``, since most files carry values their writer never meant.
    public struct PNG: BundledImageDecoder {
        /// Whether `cHRM` primaries and a `gAMA` exponent that differ from sRGB's, in a file without an `iCCP` or
        /// `sRGB` chunk, convert the colours to sRGB (as a browser with colour management shows them). Default off.
        public var convertsGammaAndChromaticities: Bool

        /// Creates the decoder.
        public init(convertsGammaAndChromaticities: Bool = false) {
            self.convertsGammaAndChromaticities = convertsGammaAndChromaticities
        }

        func decodeBitmap(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> Bitmap {
            var status: Int32 = 0
            do {
                return try decodeOnce(data, context, status: &status)
            } catch {
                // Metadata past the chunk limits stops libspng; the image does not need it.
                guard status == Int32(SPNG_ECHUNK_LIMITS.rawValue), let essential = Self.essentialChunks(of: data)
                else { throw error }
                return try decodeOnce(essential, context, status: &status)
            }
        }

        /// The file with only the chunks that make the picture (`IHDR`, `PLTE`, `tRNS`, `IDAT`, `IEND`) and the small
        /// ones about its colour and orientation (`sRGB`, `gAMA`, `cHRM`, `eXIf` of at most 64 KiB), each copied
        /// whole with its CRC; `nil` when nothing is left out or the chunks do not parse.
        static func essentialChunks(of data: Data) -> Data? {
            let kept: Set<String> = ["IHDR", "PLTE", "tRNS", "IDAT", "IEND", "sRGB", "gAMA", "cHRM", "eXIf"]
            let bytes = [UInt8](data)
            guard bytes.count > 8 else { return nil }
            var output = Array(bytes[0..<8])
            var offset = 8
            var skipped = false
            while offset + 12 <= bytes.count {
                let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
                let end = offset + 12 + length
                guard length < 1 << 31, end <= bytes.count else { return nil }
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                if kept.contains(type), type != "eXIf" || length <= 1 << 16 {
                    output += bytes[offset..<end]
                } else {
                    skipped = true
                }
                offset = end
                if type == "IEND" { break }
            }
            return skipped ? Data(output) : nil
        }

        /// Decodes to RGBA, recording libspng's last status in `status`.
        private func decodeOnce(
            _ data: Data,
            _ context: ImageDecodingContext,
            status: inout Int32
        ) throws(ImageDecodingError) -> Bitmap {
            guard let decoder = Self.makeDecoder() else { throw Self.failure("out of memory") }
            defer { spng_ctx_free(decoder) }
            func check(_ result: Int32) throws(ImageDecodingError) {
                status = result
                guard result == 0 else { throw Self.error(result) }
            }
            // No side may exceed the pixel limit: rejected while the header is read.
            let side = UInt32(clamping: min(context.maximumPixelCount, Int(Int32.max)))
            spng_set_image_limits(decoder, side, side)
            return try ImageDecoders.withBytes(of: data, codec: name) { source, size throws(ImageDecodingError) in
                try check(spng_set_png_buffer(decoder, source, size))
                var header = spng_ihdr()
                try check(spng_get_ihdr(decoder, &header))
                let (width, height) = (Int(header.width), Int(header.height))
                try context.checkPixelLimit(codec: "PNG", width: width, height: height)
                let format = Int32(SPNG_FMT_RGBA8.rawValue)
                var length = 0
                try check(spng_decoded_image_size(decoder, format, &length))
                guard length == width * height * 4 else { throw Self.failure("unexpected decoded size \(length)") }
                var decoded: Int32 = 0
                let pixels = PixelBufferPool.shared.makeBuffer(count: length) { buffer in
                    decoded = spng_decode_image(
                        decoder,
                        buffer.baseAddress,
                        length,
                        format,
                        Int32(SPNG_DECODE_TRNS.rawValue)
                    )
                }
                try check(decoded)
                // Read on to IEND: this checks the CRC of the last IDAT chunk, which the decoder can finish without.
                try check(spng_decode_chunks(decoder))
                let profile = Self.colorProfile(decoder, gammaAndChromaticities: convertsGammaAndChromaticities)
                return Bitmap(width: width, height: height, pixels: pixels).convertedToSRGB(from: profile)
                    .applying(Self.exifOrientation(decoder))
            }
        }

        /// A libspng decoder whose ancillary chunks are capped at 4 MiB each and 16 MiB together.
        fileprivate static func makeDecoder() -> OpaquePointer? {
            guard let decoder = spng_ctx_new(0) else { return nil }
            spng_set_chunk_limits(decoder, 4 << 20, 16 << 20)
            return decoder
        }

        /// The orientation of an `eXIf` chunk read so far (before or after the image data); `.up` without one.
        fileprivate static func exifOrientation(_ decoder: OpaquePointer) -> ExifOrientation {
            var exif = spng_exif()
            guard spng_get_exif(decoder, &exif) == 0, let data = exif.data, exif.length > 0 else { return .up }
            return ExifOrientation.exifPayload([UInt8](UnsafeRawBufferPointer(start: data, count: exif.length)))
        }

        /// The colour space of the pixels when it is not plainly sRGB: the `iCCP` profile; else, when asked, without an
        /// `sRGB` chunk, a profile made of `cHRM`'s primaries and `gAMA`'s exponent when they differ from sRGB's.
        fileprivate static func colorProfile(_ decoder: OpaquePointer, gammaAndChromaticities: Bool) -> [UInt8]? {
            var iccp = spng_iccp()
            if spng_get_iccp(decoder, &iccp) == 0, let profile = iccp.profile, iccp.profile_len > 0 {
                return [UInt8](UnsafeRawBufferPointer(start: profile, count: iccp.profile_len))
            }
            guard gammaAndChromaticities else { return nil }
            var intent: UInt8 = 0
            if spng_get_srgb(decoder, &intent) == 0 { return nil }
            #if canImport(CLCMS)
            var chrm = spng_chrm_int()
            let hasChromaticities = spng_get_chrm_int(decoder, &chrm) == 0
            var fileGamma: UInt32 = 0
            // 45455 is 1/2.2, what sRGB is usually written as: taken as sRGB's own curve.
            let gamma =
                spng_get_gama_int(decoder, &fileGamma) == 0 && fileGamma > 0 && abs(Int(fileGamma) - 45_455) > 1_000
                ? 100_000 / Double(fileGamma) : nil
            let sRGB = ColorManagement.sRGBPrimaries
            func xy(_ x: UInt32, _ y: UInt32) -> (Double, Double) { (Double(x) / 100_000, Double(y) / 100_000) }
            let red = hasChromaticities ? xy(chrm.red_x, chrm.red_y) : sRGB.red
            let green = hasChromaticities ? xy(chrm.green_x, chrm.green_y) : sRGB.green
            let blue = hasChromaticities ? xy(chrm.blue_x, chrm.blue_y) : sRGB.blue
            let white = hasChromaticities ? xy(chrm.white_point_x, chrm.white_point_y) : sRGB.white
            let pairs = [(red, sRGB.red), (green, sRGB.green), (blue, sRGB.blue), (white, sRGB.white)]
            let isSRGBGamut = pairs.allSatisfy { abs($0.0 - $1.0) < 0.005 && abs($0.1 - $1.1) < 0.005 }
            guard gamma != nil || !isSRGBGamut else { return nil }
            return ColorManagement.profile((red, green, blue, white), gamma: gamma, name: "PNG cHRM and gAMA")
            #else
            return nil
            #endif
        }

        static let format = BundledFormat(name: "PNG", mediaType: "image/png") { $0.isPNG }

        /// The error for a libspng status.
        static func error(_ status: Int32) -> ImageDecodingError {
            failure(String(cString: spng_strerror(status)))
        }
    }
}
extension ImageDecoders.PNG: ImageMetadataReading {
    /// The chunks before the image data (and an `eXIf` there); an `eXIf` after the image data is read by decoding.
    package func metadata(of data: Data) -> ImageMetadata {
        guard let decoder = Self.makeDecoder() else { return ImageMetadata(format: name) }
        defer { spng_ctx_free(decoder) }
        return data.withUnsafeBytes { raw in
            var header = spng_ihdr()
            guard let base = raw.baseAddress, spng_set_png_buffer(decoder, base, raw.count) == 0,
                spng_get_ihdr(decoder, &header) == 0
            else { return ImageMetadata(format: name) }
            return ImageDecoders.metadata(
                format: name,
                orientation: Self.exifOrientation(decoder),
                profile: Self.colorProfile(decoder, gammaAndChromaticities: convertsGammaAndChromaticities)
            )
        }
    }
}
#endif
