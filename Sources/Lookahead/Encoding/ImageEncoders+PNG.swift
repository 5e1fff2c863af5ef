// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CSPNG)
import CSPNG
public import Foundation

extension ImageEncoders {
    /// Encodes RGBA bitmaps as 8-bit RGBA PNG with libspng.
    public enum PNG {
        /// The PNG file for a bitmap.
        public static func encode(_ image: Bitmap) throws(ImageDecodingError) -> Data {
            try encode(image) { _ in 0 }
        }

        /// The PNG file for a bitmap, with what `configure` sets on the libspng encoder before the image is written
        /// (ancillary chunks; it returns libspng's status).
        package static func encode(
            _ image: Bitmap,
            configure: (OpaquePointer) -> Int32
        ) throws(ImageDecodingError) -> Data {
            guard let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
                throw ImageDecodingError(codec: "PNG", message: "out of memory")
            }
            defer { spng_ctx_free(context) }
            spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1)
            var header = spng_ihdr(
                width: UInt32(image.width),
                height: UInt32(image.height),
                bit_depth: 8,
                color_type: UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue),
                compression_method: 0,
                filter_method: 0,
                interlace_method: 0
            )
            spng_set_ihdr(context, &header)
            let configured = configure(context)
            guard configured == 0 else { throw ImageDecoders.PNG.error(configured) }
            let rows =
                image.bytesPerRow == image.width * 4
                ? image : image.region(left: 0, top: 0, width: image.width, height: image.height)
            let status = rows.pixels.withUnsafeBytes {
                spng_encode_image(
                    context,
                    $0.baseAddress,
                    $0.count,
                    Int32(SPNG_FMT_PNG.rawValue),
                    Int32(SPNG_ENCODE_FINALIZE.rawValue)
                )
            }
            guard status == 0 else { throw ImageDecoders.PNG.error(status) }
            var length = 0
            var error: Int32 = 0
            guard let buffer = spng_get_png_buffer(context, &length, &error) else {
                throw ImageDecoders.PNG.error(error)
            }
            defer { free(buffer) }
            return Data(bytes: buffer, count: length)
        }
    }
}
#endif
