// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CTurboJPEG)
import CTurboJPEG
import Foundation

extension ImageDecoders {
    /// Decodes JPEG with libjpeg-turbo: baseline, progressive, grayscale, CMYK and YCCK, the EXIF orientation applied.
    /// Thumbnails use the smallest DCT scale (1/8 … 1) that covers the target. Any library warning (a truncated file,
    /// a corrupt segment) fails, so a partly grey image is never shown.
    public struct JPEG: BundledImageDecoder {
        /// The most block passes a progressive JPEG may cost: its scans × its 8×8 blocks, so a small file of thousands
        /// of scans cannot hold a decode thread for long. Default 2²⁶.
        public var maximumProgressiveWork: Int

        /// Creates the decoder.
        public init(maximumProgressiveWork: Int = 1 << 26) {
            self.maximumProgressiveWork = maximumProgressiveWork
        }

        func decodeBitmap(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> Bitmap {
            guard let handle = tjInitDecompress() else { throw Self.failure("could not create a decompressor") }
            defer { tjDestroy(handle) }
            let orientation = ExifOrientation.jpeg(data)
            let profile = EmbeddedColorProfile.jpeg(data)
            let bitmap = try ImageDecoders.withBytes(of: data, codec: name) { base, count throws(ImageDecodingError) in
                let bytes = UnsafeRawBufferPointer(start: base, count: count)
                let walk = JPEGScanWalk(bytes)
                try Self.checkScans(walk, budget: maximumProgressiveWork)
                let header = try Self.readHeader(handle, bytes, context, orientation: orientation, walk: walk)
                return try Self.decompress(handle, bytes, header, profile: profile)
            }
            return bitmap.convertedToSRGB(from: profile).applying(orientation)
        }

        /// What a decode needs from the header: the size it writes and whether the samples are CMYK (or YCCK).
        private typealias Header = (width: Int, height: Int, isCMYK: Bool)

        /// Reads the header and picks the DCT scale; fails when the pixels the decode holds exceed the limit: the output
        /// of a one-pass (sequential) decode, else the declared size, since a progressive decode holds every block.
        private static func readHeader(
            _ handle: tjhandle,
            _ bytes: UnsafeRawBufferPointer,
            _ context: ImageDecodingContext,
            orientation: ExifOrientation,
            walk: JPEGScanWalk
        ) throws(ImageDecodingError) -> Header {
            let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var (width, height, subsampling, colorspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
            guard
                tjDecompressHeader3(handle, source, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0
            else { throw libraryError(handle) }
            guard width > 0, height > 0 else { throw failure("invalid dimensions \(width)×\(height)") }
            // The thumbnail's target is upright; compare it with the upright size.
            let upright = orientation.uprightSize(width: Int(width), height: Int(height))
            let factor = scalingFactor(upright, context.thumbnail)
            let output = (
                width: Int(lookahead_tj_scaled(width, factor)), height: Int(lookahead_tj_scaled(height, factor))
            )
            let isStreamed = output != (Int(width), Int(height)) && walk.decodesInOnePass
            let counted = isStreamed ? output.width * output.height : Int(width) * Int(height)
            if counted > context.maximumPixelCount {
                throw .tooLarge(codec: "JPEG", width: Int(width), height: Int(height), limit: context.maximumPixelCount)
            }
            let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            return (output.width, output.height, isCMYK)
        }

        /// Decodes to RGBA at the header's output size; any warning from libjpeg fails.
        private static func decompress(
            _ handle: tjhandle,
            _ bytes: UnsafeRawBufferPointer,
            _ header: Header,
            profile: [UInt8]?
        ) throws(ImageDecodingError) -> Bitmap {
            let (width, height, isCMYK) = header
            let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var status: Int32 = 0
            var pixels = PixelBufferPool.shared.makeBuffer(count: width * height * 4) { buffer in
                status = tjDecompress2(
                    handle,
                    source,
                    UInt(bytes.count),
                    buffer.baseAddress,
                    Int32(width),
                    Int32(width * 4),
                    Int32(height),
                    Int32((isCMYK ? TJPF_CMYK : TJPF_RGBA).rawValue),
                    Int32(TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)
                )
            }
            guard status == 0 else { throw libraryError(handle) }
            #if canImport(CLCMS)
            // A CMYK JPEG with its CMYK profile (a print file): its colours as the profile says.
            if isCMYK, let profile {
                let cmyk = Bitmap(width: width, height: height, pixels: pixels)
                if let converted = ColorManagement.convertToSRGB(cmyk, from: profile, invertedCMYK: true) {
                    return converted
                }
            }
            #endif
            if isCMYK { convertCMYKToRGBA(&pixels) }
            return Bitmap(width: width, height: height, pixels: pixels)
        }

        /// Throws when the data is a progressive JPEG whose scans × blocks exceed the budget.
        private static func checkScans(_ walk: JPEGScanWalk, budget: Int) throws(ImageDecodingError) {
            guard let (scans, blocks) = walk.progressiveWork, scans > 1 else { return }
            let (work, overflow) = scans.multipliedReportingOverflow(by: blocks)
            guard overflow || work > budget else { return }
            throw failure("too many scans: \(scans) scans × \(blocks) blocks exceed the decode budget of \(budget)")
        }

        /// The smallest DCT scaling factor whose output still covers the thumbnail; 1/1 without a thumbnail.
        private static func scalingFactor(_ size: (width: Int, height: Int), _ thumbnail: ThumbnailOptions?)
            -> tjscalingfactor
        {
            let full = tjscalingfactor(num: 1, denom: 1)
            guard let thumbnail else { return full }
            let scale = thumbnail.scale(forWidth: size.width, height: size.height)
            var count: Int32 = 0
            guard scale < 1, let factors = tjGetScalingFactors(&count), count > 0 else { return full }
            func value(_ factor: tjscalingfactor) -> Double { Double(factor.num) / Double(factor.denom) }
            // Within 1/8 … 1 (the fast IDCT paths) and at least the requested scale.
            return UnsafeBufferPointer(start: factors, count: Int(count))
                .filter { value($0) <= 1 && value($0) >= 0.125 && value($0) + 1e-9 >= scale }
                .min { value($0) < value($1) } ?? full
        }

        /// Adobe CMYK/YCCK JPEGs store inverted CMYK; turn it into RGBA in place.
        private static func convertCMYKToRGBA(_ pixels: inout [UInt8]) {
            for offset in stride(from: 0, to: pixels.count, by: 4) {
                let k = UInt16(pixels[offset + 3])
                for channel in offset..<(offset + 3) { pixels[channel] = UInt8(UInt16(pixels[channel]) * k / 255) }
                pixels[offset + 3] = 255
            }
        }

        static let format = BundledFormat(name: "JPEG", mediaType: "image/jpeg") { $0.isJPEG }

        /// The error libjpeg-turbo reports for `handle`.
        static func libraryError(_ handle: tjhandle) -> ImageDecodingError {
            failure(tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error")
        }
    }
}
extension ImageDecoders.JPEG: ImageMetadataReading {
    package func metadata(of data: Data) -> ImageMetadata {
        ImageDecoders.metadata(
            format: name,
            orientation: ExifOrientation.jpeg(data),
            profile: EmbeddedColorProfile.jpeg(data)
        )
    }
}
#endif
