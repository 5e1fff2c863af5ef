// Lookahead — the Apple-platform decoder: ImageIO (cannot be built on Linux; kept deliberately small).

#if canImport(ImageIO) && canImport(CoreGraphics)
import CoreGraphics
public import Foundation
import ImageIO

extension ImageDecoders {
    /// Decodes every format ImageIO knows with `CGImageSourceCreateThumbnailAtIndex`, the orientation applied,
    /// into an RGBA ``Bitmap`` (straight alpha).
    public struct ImageIODecoder: ImageDecoding {
        public let name = "ImageIO"

        /// Creates the decoder.
        public init() {}

        public func canDecode(_ header: Data) -> Bool {
            guard let source = CGImageSourceCreateWithData(header as CFData, nil) else { return false }
            return CGImageSourceGetType(source) != nil
        }

        public func decode(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> Bitmap {
            guard let source = CGImageSourceCreateWithData(data as CFData, nil),
                let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any],
                let width = properties[kCGImagePropertyPixelWidth] as? Int,
                let height = properties[kCGImagePropertyPixelHeight] as? Int
            else { throw ImageDecodingError(codec: name, message: "unreadable image header") }
            if width * height > context.maximumPixelCount {
                throw ImageDecodingError(
                    codec: name,
                    message: "\(width)×\(height) exceeds \(context.maximumPixelCount) pixels",
                    reason: .tooLarge(width: width, height: height, limit: context.maximumPixelCount)
                )
            }
            let scale = context.thumbnail?.scale(forWidth: width, height: height) ?? 1
            let options: [CFString: Any] = [
                kCGImageSourceCreateThumbnailFromImageAlways: true,
                kCGImageSourceCreateThumbnailWithTransform: true,
                kCGImageSourceShouldCacheImmediately: true,
                kCGImageSourceThumbnailMaxPixelSize: max(1, Int((Double(max(width, height)) * scale).rounded())),
            ]
            guard let image = CGImageSourceCreateThumbnailAtIndex(source, 0, options as CFDictionary) else {
                throw ImageDecodingError(codec: name, message: "decoding failed")
            }
            var pixels = [UInt8](repeating: 0, count: image.width * image.height * 4)
            let drawn = pixels.withUnsafeMutableBytes { buffer -> Bool in
                guard
                    let context = CGContext(
                        data: buffer.baseAddress,
                        width: image.width,
                        height: image.height,
                        bitsPerComponent: 8,
                        bytesPerRow: image.width * 4,
                        space: CGColorSpaceCreateDeviceRGB(),
                        bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue
                    )
                else { return false }
                context.draw(image, in: CGRect(x: 0, y: 0, width: image.width, height: image.height))
                return true
            }
            guard drawn else { throw ImageDecodingError(codec: name, message: "could not draw the image") }
            for offset in stride(from: 0, to: pixels.count, by: 4)
            where pixels[offset + 3] != 0 && pixels[offset + 3] != 255 {
                let alpha = Int(pixels[offset + 3])
                for channel in 0..<3 {
                    pixels[offset + channel] = UInt8(min(255, Int(pixels[offset + channel]) * 255 / alpha))
                }
            }
            return Bitmap(width: image.width, height: image.height, pixels: pixels)
        }
    }
}
#endif
