// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CSPNG)
import CSPNG
#endif
#if canImport(CTurboJPEG)
import CTurboJPEG
public import Foundation  // `Data` in `JPEG.encode` and `PNG.encode`
#else
import Foundation
#endif
#if canImport(ImageIO)
import ImageIO
#endif

/// Encoders that turn bitmaps back into PNG and JPEG files: libspng and libjpeg-turbo on Linux, ImageIO on Apple.
public enum ImageEncoders {
    /// The file the disk cache keeps for a request's final image: JPEG (quality 90) when every pixel is opaque, so a
    /// photo's thumbnail stays small; PNG when any pixel is transparent (rounded corners); `nil` when it cannot be.
    static func diskCacheFile(for bitmap: Bitmap) -> Data? {
        #if canImport(CTurboJPEG) && canImport(CSPNG)
        return bitmap.isOpaque ? try? JPEG.encode(bitmap, quality: 90) : try? PNG.encode(bitmap)
        #elseif canImport(ImageIO) && canImport(CoreGraphics) && (canImport(UIKit) || canImport(AppKit))
        return bitmap.isOpaque
            ? imageIO(bitmap, type: "public.jpeg", quality: 0.9) : imageIO(bitmap, type: "public.png", quality: nil)
        #else
        return nil
        #endif
    }

    #if canImport(ImageIO) && canImport(CoreGraphics) && (canImport(UIKit) || canImport(AppKit))
    /// The bitmap as a file of a uniform type (`public.jpeg`, `public.png`), written by ImageIO.
    private static func imageIO(_ bitmap: Bitmap, type: String, quality: Double?) -> Data? {
        guard let image = bitmap.cgImage else { return nil }
        let data = NSMutableData()
        guard let destination = CGImageDestinationCreateWithData(data as CFMutableData, type as CFString, 1, nil) else {
            return nil
        }
        let options = quality.map { [kCGImageDestinationLossyCompressionQuality: $0] as CFDictionary }
        CGImageDestinationAddImage(destination, image, options)
        guard CGImageDestinationFinalize(destination) else { return nil }
        return data as Data
    }
    #endif

    #if canImport(CTurboJPEG)
    /// Encodes RGBA bitmaps as baseline JPEG (4:2:0) with libjpeg-turbo; alpha is dropped.
    public enum JPEG {
        /// The JPEG file for a bitmap, at a quality from 1 to 100.
        public static func encode(_ image: Bitmap, quality: Int = 90) throws(ImageDecodingError) -> Data {
            guard let handle = tjInitCompress() else {
                throw ImageDecodingError(codec: "JPEG", message: "could not create a compressor")
            }
            defer { tjDestroy(handle) }
            var buffer: UnsafeMutablePointer<UInt8>?
            var size: UInt = 0
            let status = image.pixels.withUnsafeBufferPointer { pixels in
                tjCompress2(
                    handle,
                    pixels.baseAddress,
                    Int32(image.width),
                    Int32(image.bytesPerRow),
                    Int32(image.height),
                    Int32(TJPF_RGBA.rawValue),
                    &buffer,
                    &size,
                    Int32(TJSAMP_420.rawValue),
                    Int32(min(100, max(1, quality))),
                    0
                )
            }
            defer { tjFree(buffer) }
            guard status == 0, let buffer else { throw ImageDecoders.JPEG.libraryError(handle) }
            return Data(bytes: buffer, count: Int(size))
        }
    }
    #endif

    #if canImport(CSPNG)
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
    #endif
}
