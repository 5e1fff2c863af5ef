// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — HEIC and AVIF files made at run time with libheif's own encoders (x265, libaom).

import Foundation

#if canImport(CHeif)
import CHeif

enum TestHEIF {
    /// Encodes RGBA pixels as HEIC (HEVC) or AVIF (AV1), with `orientation` written as `irot`/`imir` boxes, an
    /// embedded thumbnail of `thumbnailSource` (another picture, so a test can tell which was decoded) fitted in
    /// `thumbnailSize`, and an ICC profile (`colr` of type `prof`) or `nclx` colour primaries.
    static func encode(
        rgba: [UInt8],
        width: Int,
        height: Int,
        avif: Bool = false,
        orientation: heif_orientation = heif_orientation_normal,
        thumbnail: (rgba: [UInt8], size: Int)? = nil,
        iccProfile: [UInt8]? = nil,
        nclxPrimaries: heif_color_primaries? = nil,
        quality: Int32 = 92,
        bitDepth: Int = 8,
        cropsWithAGrid: Bool = true,
        savesAlpha: Bool = true
    ) -> Data {
        guard let context = heif_context_alloc() else { fatalError("heif_context_alloc") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        check(
            heif_context_get_encoder_for_format(context, avif ? heif_compression_AV1 : heif_compression_HEVC, &encoder)
        )
        defer { heif_encoder_release(encoder) }
        check(heif_encoder_set_lossy_quality(encoder, quality))
        let image = makeImage(rgba: rgba, width: width, height: height, bitDepth: bitDepth)
        defer { heif_image_release(image) }
        if let iccProfile {
            check(heif_image_set_raw_color_profile(image, "prof", iccProfile, iccProfile.count))
        }
        if let nclxPrimaries, let nclx = heif_nclx_color_profile_alloc() {
            defer { heif_nclx_color_profile_free(nclx) }
            nclx.pointee.color_primaries = nclxPrimaries
            nclx.pointee.transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1
            nclx.pointee.matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6
            nclx.pointee.full_range_flag = 1
            check(heif_image_set_nclx_color_profile(image, nclx))
        }
        guard let options = heif_encoding_options_alloc() else { fatalError("heif_encoding_options_alloc") }
        defer { heif_encoding_options_free(options) }
        options.pointee.image_orientation = orientation
        // libheif wraps a picture whose coded size differs from its own in a 1×1 grid that crops it, unless told to
        // write a `clap` box instead.
        options.pointee.macOS_compatibility_workaround = cropsWithAGrid ? 1 : 0
        options.pointee.save_alpha_channel = savesAlpha ? 1 : 0
        // libheif leaves the nclx box out for old macOS versions unless told otherwise.
        options.pointee.macOS_compatibility_workaround_no_nclx_profile = 0
        var handle: OpaquePointer?
        check(heif_context_encode_image(context, image, encoder, options, &handle))
        defer { heif_image_handle_release(handle) }
        if let thumbnail {
            let small = makeImage(rgba: thumbnail.rgba, width: width, height: height)
            defer { heif_image_release(small) }
            var thumbnailHandle: OpaquePointer?
            check(
                heif_context_encode_thumbnail(
                    context,
                    small,
                    handle,
                    encoder,
                    options,
                    Int32(thumbnail.size),
                    &thumbnailHandle
                )
            )
            heif_image_handle_release(thumbnailHandle)
        }
        final class Sink { var data = Data() }
        let sink = Sink()
        var writer = heif_writer(writer_api_version: 1) { _, bytes, size, userdata in
            let sink = Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue()
            if let bytes { sink.data.append(bytes.assumingMemoryBound(to: UInt8.self), count: size) }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        check(heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque()))
        return sink.data
    }

    /// An image of 8-bit RGBA pixels, or, for a `bitDepth` over 8, of 16-bit big-endian RGB samples holding that many
    /// bits, alpha dropped (as `heif-enc` makes of a 16-bit PNG), so the encoder writes a high-bit-depth stream.
    private static func makeImage(rgba: [UInt8], width: Int, height: Int, bitDepth: Int = 8) -> OpaquePointer {
        var image: OpaquePointer?
        let isDeep = bitDepth > 8
        let chroma = isDeep ? heif_chroma_interleaved_RRGGBB_BE : heif_chroma_interleaved_RGBA
        check(heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, chroma, &image))
        check(heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), Int32(bitDepth)))
        var stride: Int32 = 0
        guard let image, let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
            fatalError("heif_image_get_plane")
        }
        for row in 0..<height {
            let line = plane + row * Int(stride)
            for column in 0..<width {
                let source = (row * width + column) * 4
                if isDeep {
                    for channel in 0..<3 {
                        // Scaled to the full range of the depth: 255 becomes 1023 at 10 bits.
                        let value = (Int(rgba[source + channel]) * ((1 << bitDepth) - 1) + 127) / 255
                        line[(column * 3 + channel) * 2] = UInt8(value >> 8)
                        line[(column * 3 + channel) * 2 + 1] = UInt8(value & 0xFF)
                    }
                } else {
                    for channel in 0..<4 { line[column * 4 + channel] = rgba[source + channel] }
                }
            }
        }
        return image
    }

    private static func check(_ error: heif_error) {
        guard error.code != heif_error_Ok else { return }
        fatalError("libheif: \(error.message.map { String(cString: $0) } ?? "\(error.code)")")
    }
}
#endif
