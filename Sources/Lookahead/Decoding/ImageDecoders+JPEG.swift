// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CTurboJPEG)
import CTurboJPEG
public import Foundation

extension ImageDecoders {
    /// Decodes JPEG with libjpeg-turbo: baseline, progressive, grayscale, CMYK and YCCK, the EXIF orientation applied.
    /// Thumbnails use the smallest DCT scale (1/8 … 1) that covers the target. Any library warning (a truncated file,
    /// a corrupt segment) fails, so a partly grey image is never shown.
    public struct JPEG: ImageDecoding {
        public let name = "JPEG"
        public var mediaTypes: [String] { ["image/jpeg"] }
        /// The most block passes a progressive JPEG may cost: its scans × its 8×8 blocks, so a small file of thousands
        /// of scans cannot hold a decode thread for long. Default 2²⁶.
        public var maximumProgressiveWork: Int

        /// Creates the decoder.
        public init(maximumProgressiveWork: Int = 1 << 26) {
            self.maximumProgressiveWork = maximumProgressiveWork
        }

        public func canDecode(_ header: Data) -> Bool { header.isJPEG }

        public func decode(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> PlatformImage {
            guard let handle = tjInitDecompress() else { throw Self.failure("could not create a decompressor") }
            defer { tjDestroy(handle) }
            let orientation = ExifOrientation.jpeg(data)
            let profile = EmbeddedColorProfile.jpeg(data)
            let bitmap = try ImageDecoders.withBytes(of: data, codec: name) { base, count throws(ImageDecodingError) in
                let bytes = UnsafeRawBufferPointer(start: base, count: count)
                if let problem = Self.excessiveScans(bytes, budget: maximumProgressiveWork) { throw problem }
                let header = try Self.readHeader(handle, bytes, context, orientation: orientation)
                return try Self.decompress(handle, bytes, header, profile: profile)
            }
            return PlatformImage.make(from: bitmap.convertedToSRGB(from: profile).applying(orientation))
        }

        /// What a decode needs from the header: the size it writes and whether the samples are CMYK (or YCCK).
        private typealias Header = (width: Int, height: Int, isCMYK: Bool)

        /// Reads the header and picks the DCT scale; fails when the pixels the decode holds exceed the limit: the output
        /// of a one-pass (sequential) decode, else the declared size, since a progressive decode holds every block.
        private static func readHeader(
            _ handle: tjhandle,
            _ bytes: UnsafeRawBufferPointer,
            _ context: ImageDecodingContext,
            orientation: ExifOrientation
        ) throws(ImageDecodingError) -> Header {
            let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var (width, height, subsampling, colorspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
            guard
                tjDecompressHeader3(handle, source, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0
            else { throw libraryError(handle) }
            guard width > 0, height > 0 else { throw failure("invalid dimensions \(width)×\(height)") }
            // The thumbnail's target is upright; compare it with the upright size.
            let factor =
                orientation.swapsDimensions
                ? scalingFactor(width: height, height: width, thumbnail: context.thumbnail)
                : scalingFactor(width: width, height: height, thumbnail: context.thumbnail)
            let output = (
                width: Int(lookahead_tj_scaled(width, factor)), height: Int(lookahead_tj_scaled(height, factor))
            )
            let isStreamed = output != (Int(width), Int(height)) && decodesInOnePass(bytes)
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
            if isCMYK, let profile,
                let converted = ColorManagement.convertInvertedCMYKToSRGB(
                    pixels,
                    width: width,
                    height: height,
                    from: profile
                )
            {
                return converted
            }
            #endif
            if isCMYK { convertCMYKToRGBA(&pixels) }
            return Bitmap(width: width, height: height, pixels: pixels)
        }

        /// An error when the data is a progressive JPEG whose scans × blocks exceed the budget.
        private static func excessiveScans(_ raw: UnsafeRawBufferPointer, budget: Int) -> ImageDecodingError? {
            guard let (scans, blocks) = progressiveWork(raw), scans > 1 else { return nil }
            let (work, overflow) = scans.multipliedReportingOverflow(by: blocks)
            guard overflow || work > budget else { return nil }
            return failure("too many scans: \(scans) scans × \(blocks) blocks exceed the decode budget of \(budget)")
        }

        /// The work of decoding a progressive JPEG: its scans and its 8×8 blocks. `nil` for a sequential JPEG, whose
        /// work is bounded by its pixels alone.
        static func progressiveWork(_ bytes: UnsafeRawBufferPointer) -> (scans: Int, blocks: Int)? {
            let walk = JPEGScanWalk(bytes)
            guard let frame = walk.frame, frame.isProgressive else { return nil }
            return (walk.scans, ((frame.width + 7) / 8) * ((frame.height + 7) / 8))
        }

        /// Whether libjpeg decodes the file in one pass, holding a few rows of blocks: a sequential frame whose first
        /// scan interleaves every component. Reads the markers up to the first scan only.
        static func decodesInOnePass(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count >= 4 else {
                return false
            }
            var offset = 2  // after SOI
            var components: Int?
            while offset + 3 < bytes.count {
                guard base[offset] == 0xFF else { return false }
                let marker = base[offset + 1]
                if marker == 0xFF {
                    offset += 1
                    continue
                }
                switch marker {
                case 0xC0, 0xC1, 0xC9:
                    // FF Cn, length (2), precision (1), height (2), width (2), components (1).
                    guard components == nil, offset + 9 < bytes.count else { return false }
                    components = Int(base[offset + 9])
                case 0xC2, 0xC3, 0xC5...0xC7, 0xCA, 0xCB, 0xCD...0xCF, 0xD8, 0xD9:
                    return false
                case 0xDA:
                    // FF DA, length (2), components in the scan (1).
                    guard let components, offset + 4 < bytes.count else { return false }
                    return Int(base[offset + 4]) == components
                default:
                    break
                }
                offset += 2 + (Int(base[offset + 2]) << 8 | Int(base[offset + 3]))
            }
            return false
        }

        /// The smallest DCT scaling factor whose output still covers the thumbnail; 1/1 without a thumbnail.
        private static func scalingFactor(width: Int32, height: Int32, thumbnail: ThumbnailOptions?)
            -> tjscalingfactor
        {
            let full = tjscalingfactor(num: 1, denom: 1)
            guard let thumbnail else { return full }
            let scale = thumbnail.scale(forWidth: Int(width), height: Int(height))
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

        /// The error libjpeg-turbo reports for `handle`.
        static func libraryError(_ handle: tjhandle) -> ImageDecodingError {
            failure(tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error")
        }

        private static func failure(_ message: String) -> ImageDecodingError {
            ImageDecodingError(codec: "JPEG", message: message)
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
