// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CTurboJPEG)
import CTurboJPEG
public import Foundation  // `Data` in `JPEG.encode`
#else
import Foundation
#endif
#if canImport(ImageIO)
import ImageIO
#endif

/// Encoders that turn bitmaps back into files: PNG and JPEG (libspng and libjpeg-turbo on Linux, ImageIO on Apple
/// platforms).
public enum ImageEncoders {
    /// The file the disk cache keeps for a request's final image: JPEG (quality 90) when every pixel is opaque, so
    /// a photo's thumbnail stays small; PNG when any pixel is transparent (a circle, rounded corners). `nil` when it
    /// cannot be encoded.
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
}
