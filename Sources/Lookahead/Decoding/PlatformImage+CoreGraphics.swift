// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// UIImage and NSImage as the pipeline's image: conversions only, every decision is in platform-neutral code.

#if canImport(CoreGraphics) && (canImport(UIKit) || canImport(AppKit))
public import CoreGraphics
import Foundation
#if canImport(UIKit)
import UIKit
#else
import AppKit
#endif

extension PlatformImage: PixelImage {
    /// The image's pixels as CoreGraphics holds them.
    var pixelImage: CGImage? {
        #if canImport(UIKit)
        cgImage
        #else
        cgImage(forProposedRect: nil, context: nil, hints: nil)
        #endif
    }

    var pixelWidth: Int { pixelImage?.width ?? 0 }
    var pixelHeight: Int { pixelImage?.height ?? 0 }
    var decodedCost: Int { pixelImage.map { $0.bytesPerRow * $0.height } ?? 0 }

    static func make(from bitmap: Bitmap) -> PlatformImage {
        guard let image = bitmap.cgImage else { return PlatformImage() }
        return make(from: image)
    }

    /// The platform image of a `CGImage`, one pixel per point.
    static func make(from image: CGImage) -> PlatformImage {
        #if canImport(UIKit)
        UIImage(cgImage: image)
        #else
        NSImage(cgImage: image, size: .zero)  // .zero: the CGImage's own size
        #endif
    }

    func makeBitmap() -> Bitmap? { pixelImage.flatMap(Bitmap.init(drawing:)) }

    func withScale(_ scale: Double) -> PlatformImage {
        guard let pixels = pixelImage else { return self }
        #if canImport(UIKit)
        return UIImage(cgImage: pixels, scale: CGFloat(scale), orientation: .up)  // the pipeline's pixels are upright
        #else
        let size = CGSize(
            width: CGFloat(pixels.width) / CGFloat(scale),
            height: CGFloat(pixels.height) / CGFloat(scale)
        )
        return NSImage(cgImage: pixels, size: size)
        #endif
    }
}

extension Bitmap {
    /// The bitmap as a `CGImage` (8-bit RGBA, straight alpha, sRGB), sharing nothing with later mutations.
    public var cgImage: CGImage? {
        guard let provider = CGDataProvider(data: Data(pixels) as CFData) else { return nil }
        return CGImage(
            width: width,
            height: height,
            bitsPerComponent: 8,
            bitsPerPixel: 32,
            bytesPerRow: bytesPerRow,
            space: CGColorSpace(name: CGColorSpace.sRGB) ?? CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue),
            provider: provider,
            decode: nil,
            shouldInterpolate: true,
            intent: .defaultIntent
        )
    }

    /// The pixels of a `CGImage`, drawn into sRGB RGBA and taken back to straight alpha.
    init?(drawing image: CGImage) {
        var pixels = [UInt8](repeating: 0, count: image.width * image.height * 4)
        let drawn = pixels.withUnsafeMutableBytes { buffer -> Bool in
            guard
                let context = CGContext(
                    data: buffer.baseAddress,
                    width: image.width,
                    height: image.height,
                    bitsPerComponent: 8,
                    bytesPerRow: image.width * 4,
                    space: CGColorSpace(name: CGColorSpace.sRGB) ?? CGColorSpaceCreateDeviceRGB(),
                    bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue
                )
            else { return false }
            context.draw(image, in: CGRect(x: 0, y: 0, width: image.width, height: image.height))
            return true
        }
        guard drawn else { return nil }
        for offset in stride(from: 0, to: pixels.count, by: 4)
        where pixels[offset + 3] != 0 && pixels[offset + 3] != 255 {
            let alpha = Int(pixels[offset + 3])
            for channel in 0..<3 {
                pixels[offset + channel] = UInt8(min(255, Int(pixels[offset + channel]) * 255 / alpha))
            }
        }
        self.init(width: image.width, height: image.height, pixels: pixels)
    }
}
#endif
