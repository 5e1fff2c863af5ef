// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CHeif)
import CHeif
public import Foundation

extension ImageDecoders {
    /// Decodes HEIC (HEVC) and AVIF (AV1) images with libheif: the primary image with its rotation, mirroring and
    /// crop applied, alpha kept, or the smallest stored thumbnail that covers a thumbnail request's target.
    public struct HEIF: ImageDecoding {
        public let name = "HEIF"
        /// AVIF and HEIC, each when this libheif has a decoder for it (AV1, HEVC).
        public var mediaTypes: [String] {
            _ = Self.initialized
            return (heif_have_decoder_for_format(heif_compression_AV1) != 0 ? ["image/avif"] : [])
                + (heif_have_decoder_for_format(heif_compression_HEVC) != 0 ? ["image/heic", "image/heif"] : [])
        }

        /// Creates the decoder.
        public init() {}

        /// The `ftyp` brands of still HEIF images: HEVC (`heic`, `heix`, `heim`, `heis`), image sequences
        /// (`hevc`, `hevx`, `hevm`, `hevs`: the primary image), AV1 (`avif`, `avis`) and the generic `mif1`/`msf1`.
        static let brands: Set<String> = [
            "heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1", "avif", "avis",
        ]

        public func canDecode(_ header: Data) -> Bool {
            // ftyp: size (4), "ftyp", the major brand, a version (4), then compatible brands.
            let bytes = [UInt8](header.prefix(32))
            guard bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) else { return false }
            let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
            return ([8] + stride(from: 16, to: min(max(size, 16), bytes.count) - 3, by: 4)).contains { offset in
                offset + 4 <= bytes.count
                    && Self.brands.contains(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self))
            }
        }

        public func decode(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> PlatformImage {
            let bitmap = try Self.withPrimaryImage(of: data) { primary, codedSizes throws(ImageDecodingError) in
                // The size as shown (rotation applied) and every picture the video decoder allocates for.
                let width = Int(heif_image_handle_get_width(primary))
                let height = Int(heif_image_handle_get_height(primary))
                try context.checkSize(codec: name, width: width, height: height)
                guard let codedSizes else {
                    throw Self.failure("an AV1 configuration without a sequence header: the decode cannot be bounded")
                }
                for size in codedSizes where context.exceedsPixelLimit(width: size.width, height: size.height) {
                    throw .tooLarge(
                        codec: name,
                        width: size.width,
                        height: size.height,
                        limit: context.maximumPixelCount,
                        picture: "a coded picture"
                    )
                }
                if let thumbnail = Self.smallestThumbnail(of: primary, for: context.thumbnail) {
                    defer { heif_image_handle_release(thumbnail) }
                    if let small = try? Self.decodeImage(thumbnail),
                        Self.hasSameShape(small.width, small.height, as: width, height)
                    {
                        return small.convertedToSRGB(from: Self.colorProfile(thumbnail) ?? Self.colorProfile(primary))
                    }
                }
                // No thumbnail, or one whose coded picture is not the shape its boxes claim: the primary image.
                return try Self.decodeImage(primary).convertedToSRGB(from: Self.colorProfile(primary))
            }
            return PlatformImage.make(from: bitmap)
        }

        /// `heif_init` once per process: it registers the decoder plugins.
        fileprivate static let initialized = heif_init(nil).code == heif_error_Ok

        /// Reads the file with libheif, once its boxes show that is safe, and hands `body` its primary image and the
        /// sizes its coded pictures declare.
        fileprivate static func withPrimaryImage<T>(
            of data: Data,
            _ body: (OpaquePointer, [HEIFCodedSizes.Size]?) throws(ImageDecodingError) -> T
        ) throws(ImageDecodingError) -> T {
            _ = initialized
            let inspection = HEIFCodedSizes.inspect(data)
            guard inspection.referencesAreBounded else {
                throw failure("its item references loop or chain too deep to be followed")
            }
            return try ImageDecoders.withBytes(of: data, codec: "HEIF") { base, count throws(ImageDecodingError) in
                guard let heif = heif_context_alloc() else { throw failure("out of memory") }
                defer { heif_context_free(heif) }
                // Grid tiles are decoded on this thread: the pipeline's decode queue already runs one decode per core.
                heif_context_set_max_decoding_threads(heif, 0)
                try check(heif_context_read_from_memory_without_copy(heif, base, count, nil))
                var primary: OpaquePointer?
                try check(heif_context_get_primary_image_handle(heif, &primary))
                guard let primary else { throw failure("no primary image") }
                defer { heif_image_handle_release(primary) }
                return try body(primary, inspection.sizes)
            }
        }

        /// Whether a picture has the shape of an image (within a pixel): a thumbnail of another shape (an unrotated
        /// one, a crop, a coded size that is not the declared one) would give a wrong picture.
        private static func hasSameShape(_ width: Int, _ height: Int, as imageWidth: Int, _ imageHeight: Int) -> Bool {
            abs(width * imageHeight - height * imageWidth) <= max(imageWidth, imageHeight)
        }

        /// The colour space of an image when it is not plainly sRGB: its ICC profile, or a profile made of its `nclx`
        /// primaries when they are not BT.709's and the curve is SDR (libheif has already reduced HDR to 8 bits).
        fileprivate static func colorProfile(_ handle: OpaquePointer) -> [UInt8]? {
            switch heif_image_handle_get_color_profile_type(handle) {
            case heif_color_profile_type_prof, heif_color_profile_type_rICC:
                let size = heif_image_handle_get_raw_color_profile_size(handle)
                guard size > 0, size <= 16 << 20 else { return nil }
                var bytes = [UInt8](repeating: 0, count: size)
                guard heif_image_handle_get_raw_color_profile(handle, &bytes).code == heif_error_Ok else { return nil }
                return bytes
            case heif_color_profile_type_nclx:
                #if canImport(CLCMS)
                var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
                guard heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else {
                    return nil
                }
                defer { heif_nclx_color_profile_free(nclx) }
                let colour = nclx.pointee
                let sdrCurves = [
                    heif_transfer_characteristic_IEC_61966_2_1, heif_transfer_characteristic_ITU_R_BT_709_5,
                    heif_transfer_characteristic_unspecified,
                ]
                guard colour.color_primaries != heif_color_primaries_ITU_R_BT_709_5,
                    colour.color_primaries != heif_color_primaries_unspecified,
                    sdrCurves.contains(colour.transfer_characteristics)
                else { return nil }
                let primaries = (
                    red: (Double(colour.color_primary_red_x), Double(colour.color_primary_red_y)),
                    green: (Double(colour.color_primary_green_x), Double(colour.color_primary_green_y)),
                    blue: (Double(colour.color_primary_blue_x), Double(colour.color_primary_blue_y)),
                    white: (Double(colour.color_primary_white_x), Double(colour.color_primary_white_y))
                )
                return ColorManagement.profile(
                    primaries,
                    name: colour.color_primaries == heif_color_primaries_SMPTE_EG_432_1
                        ? "Display P3 (nclx)" : "nclx primaries \(colour.color_primaries.rawValue)"
                )
                #else
                return nil
                #endif
            default:
                return nil
            }
        }

        /// The smallest thumbnail stored for `image` whose shown size covers the target of `options` in both
        /// directions, with the same aspect ratio (within a pixel), or `nil`.
        private static func smallestThumbnail(
            of image: OpaquePointer,
            for options: ThumbnailOptions?
        ) -> OpaquePointer? {
            let count = Int(heif_image_handle_get_number_of_thumbnails(image))
            guard let options, count > 0, count <= 16 else { return nil }
            var ids = [heif_item_id](repeating: 0, count: count)
            let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(image, &ids, Int32(count)))
            let width = Int(heif_image_handle_get_width(image))
            let height = Int(heif_image_handle_get_height(image))
            let target = options.targetSize(forWidth: width, height: height)
            var best: (handle: OpaquePointer, pixels: Int)?
            for id in ids.prefix(listed) {
                var handle: OpaquePointer?
                guard heif_image_handle_get_thumbnail(image, id, &handle).code == heif_error_Ok, let handle else {
                    continue
                }
                let thumbWidth = Int(heif_image_handle_get_width(handle))
                let thumbHeight = Int(heif_image_handle_get_height(handle))
                let sameShape = hasSameShape(thumbWidth, thumbHeight, as: width, height)
                let pixels = thumbWidth * thumbHeight
                // Never larger than the image itself: a hostile thumbnail must not decode bigger than what was checked.
                if sameShape, thumbWidth >= target.width, thumbHeight >= target.height, thumbWidth <= width,
                    thumbHeight <= height,
                    best.map({ pixels < $0.pixels }) ?? true
                {
                    if let previous = best { heif_image_handle_release(previous.handle) }
                    best = (handle, pixels)
                } else {
                    heif_image_handle_release(handle)
                }
            }
            return best?.handle
        }

        /// Decodes an image (or a thumbnail) to 8-bit RGBA, transformations applied.
        private static func decodeImage(_ handle: OpaquePointer) throws(ImageDecodingError) -> Bitmap {
            guard let options = heif_decoding_options_alloc() else { throw failure("out of memory") }
            defer { heif_decoding_options_free(options) }
            options.pointee.ignore_transformations = 0
            options.pointee.convert_hdr_to_8bit = 1
            var image: OpaquePointer?
            try check(heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options))
            guard let image else { throw failure("decoding gave no image") }
            defer { heif_image_release(image) }
            let width = Int(heif_image_get_primary_width(image))
            let height = Int(heif_image_get_primary_height(image))
            var stride: Int32 = 0
            guard width > 0, height > 0,
                let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
                Int(stride) >= width * 4
            else { throw failure("decoded image has no RGBA plane") }
            let pixels = PixelBufferPool.shared.makeBuffer(count: width * height * 4) { buffer in
                for row in 0..<height {
                    (buffer.baseAddress! + row * width * 4).update(from: plane + row * Int(stride), count: width * 4)
                }
            }
            return Bitmap(width: width, height: height, pixels: pixels)
        }

        /// Throws the decoder's error for a failed libheif call.
        private static func check(_ error: heif_error) throws(ImageDecodingError) {
            guard error.code != heif_error_Ok else { return }
            throw failure(error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)")
        }

        private static func failure(_ message: String) -> ImageDecodingError {
            ImageDecodingError(codec: "HEIF", message: message)
        }
    }
}
extension ImageDecoders.HEIF: ImageMetadataReading {
    /// The primary image's colour profile; HEIF's rotation and mirroring are boxes, not EXIF, and always applied.
    package func metadata(of data: Data) -> ImageMetadata {
        let profile = try? Self.withPrimaryImage(of: data) { primary, _ in Self.colorProfile(primary) }
        return ImageDecoders.metadata(format: name, orientation: .up, profile: profile)
    }
}
#endif
