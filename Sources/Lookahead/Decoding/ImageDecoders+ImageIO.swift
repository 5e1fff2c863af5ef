// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(ImageIO) && canImport(CoreGraphics) && (canImport(UIKit) || canImport(AppKit))
import CoreGraphics
public import Foundation
import ImageIO

extension ImageDecoders {
    /// Decodes every format ImageIO knows with `CGImageSourceCreateThumbnailAtIndex`: oriented, at the thumbnail's
    /// size, and decoded at once on the decode queue so it is display-ready on the main thread. Animated GIF, WebP
    /// and PNG decode to every frame (``decodeAnimation(_:context:)``).
    public struct ImageIODecoder: AnimatedImageDecoding {
        public let name = "ImageIO"
        /// What ImageIO reads on every supported system (iOS 16, macOS 13 and later read AVIF).
        public var mediaTypes: [String] {
            ["image/avif", "image/webp", "image/heic", "image/jpeg", "image/png", "image/gif"]
        }

        /// Creates the decoder.
        public init() {}

        public func canDecode(_ header: Data) -> Bool {
            guard let source = CGImageSourceCreateWithData(header as CFData, nil) else { return false }
            return CGImageSourceGetType(source) != nil
        }

        public func decode(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> PlatformImage {
            guard let source = CGImageSourceCreateWithData(data as CFData, nil) else {
                throw ImageDecodingError(codec: name, message: "unreadable image header")
            }
            return try decodeFrame(source, at: 0, context: context)
        }

        /// An animated GIF, WebP or PNG: the frames' delays from ImageIO, the frame count and canvas checked against
        /// the limits, and the first frame; the others are decoded as they play. `nil` for one frame.
        public func decodeAnimation(
            _ data: Data,
            context: ImageDecodingContext
        ) throws(ImageDecodingError) -> AnimatedImage? {
            guard let source = CGImageSourceCreateWithData(data as CFData, nil) else {
                throw ImageDecodingError(codec: name, message: "unreadable image header")
            }
            // Only the animated formats: a HEIC or TIFF of several images is not an animation.
            let animatedTypes = ["com.compuserve.gif", "org.webmproject.webp", "public.png"]
            guard let type = CGImageSourceGetType(source) as String?, animatedTypes.contains(type) else { return nil }
            let count = CGImageSourceGetCount(source)
            guard count > 1 else { return nil }
            guard let first = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any],
                let width = first[kCGImagePropertyPixelWidth] as? Int,
                let height = first[kCGImagePropertyPixelHeight] as? Int
            else { throw ImageDecodingError(codec: name, message: "unreadable image header") }
            if let error = context.animationLimitError(codec: name, frameCount: count, width: width, height: height) {
                throw error
            }
            let durations = (0..<count).map { index in
                let properties = CGImageSourceCopyPropertiesAtIndex(source, index, nil) as? [CFString: Any] ?? [:]
                let delay = Self.animationValue(in: properties, Self.delayKeys) ?? 0
                return AnimatedImage.frameDuration(milliseconds: Int((delay * 1000).rounded()))
            }
            let container = CGImageSourceCopyProperties(source, nil) as? [CFString: Any] ?? [:]
            let decoder = self
            return AnimatedImage(
                poster: try decodeFrame(source, at: 0, context: context),
                frameDurations: durations,
                loopCount: Self.animationValue(in: container, Self.loopCountKeys).map { Int($0) } ?? 1,
                encodedByteCount: data.count,
                makeReader: { FrameReader(decoder: decoder, data: data, count: count, context: context) }
            )
        }

        /// Decodes an animation's frames by index, in order: ImageIO composites each one.
        private final class FrameReader: AnimationFrameReading {
            let decoder: ImageIODecoder
            let source: CGImageSource?
            let count: Int
            let context: ImageDecodingContext
            var index = 0

            init(decoder: ImageIODecoder, data: Data, count: Int, context: ImageDecodingContext) {
                self.decoder = decoder
                self.source = CGImageSourceCreateWithData(data as CFData, nil)
                self.count = count
                self.context = context
            }

            func nextFrame() throws(ImageDecodingError) -> PlatformImage? {
                guard let source, index < count else { return nil }
                defer { index += 1 }
                return try decoder.decodeFrame(source, at: index, context: context)
            }
        }

        /// The animated formats' delay keys, each in its format's dictionary, the unclamped delay first.
        private static var delayKeys: [(CFString, CFString)] {
            [
                (kCGImagePropertyGIFDictionary, kCGImagePropertyGIFUnclampedDelayTime),
                (kCGImagePropertyGIFDictionary, kCGImagePropertyGIFDelayTime),
                (kCGImagePropertyWebPDictionary, kCGImagePropertyWebPUnclampedDelayTime),
                (kCGImagePropertyWebPDictionary, kCGImagePropertyWebPDelayTime),
                (kCGImagePropertyPNGDictionary, kCGImagePropertyAPNGUnclampedDelayTime),
                (kCGImagePropertyPNGDictionary, kCGImagePropertyAPNGDelayTime),
            ]
        }
        private static var loopCountKeys: [(CFString, CFString)] {
            [
                (kCGImagePropertyGIFDictionary, kCGImagePropertyGIFLoopCount),
                (kCGImagePropertyWebPDictionary, kCGImagePropertyWebPLoopCount),
                (kCGImagePropertyPNGDictionary, kCGImagePropertyAPNGLoopCount),
            ]
        }

        /// The first number (0 or more) under one of `keys`: a dictionary of `properties` and a key in it.
        private static func animationValue(in properties: [CFString: Any], _ keys: [(CFString, CFString)]) -> Double? {
            let values = keys.lazy.compactMap { ((properties[$0] as? [CFString: Any])?[$1] as? NSNumber)?.doubleValue }
            return values.first { $0 >= 0 }
        }

        /// Decodes frame `index` (0 for a still image), oriented and at the thumbnail's size.
        fileprivate func decodeFrame(
            _ source: CGImageSource,
            at index: Int,
            context: ImageDecodingContext
        ) throws(ImageDecodingError) -> PlatformImage {
            guard let properties = CGImageSourceCopyPropertiesAtIndex(source, index, nil) as? [CFString: Any],
                let storedWidth = properties[kCGImagePropertyPixelWidth] as? Int,
                let storedHeight = properties[kCGImagePropertyPixelHeight] as? Int
            else { throw ImageDecodingError(codec: name, message: "unreadable image header") }
            try context.checkPixelLimit(codec: name, width: storedWidth, height: storedHeight)
            let orientation = ExifOrientation(rawValue: properties[kCGImagePropertyOrientation] as? Int ?? 1) ?? .up
            let (width, height) = orientation.uprightSize(width: storedWidth, height: storedHeight)
            let target =
                context.thumbnail?.targetSize(forWidth: width, height: height) ?? (width: width, height: height)
            let options: [CFString: Any] = [
                kCGImageSourceCreateThumbnailFromImageAlways: true,
                kCGImageSourceCreateThumbnailWithTransform: true,
                kCGImageSourceShouldCacheImmediately: true,
                kCGImageSourceThumbnailMaxPixelSize: max(1, target.width, target.height),
            ]
            guard var image = CGImageSourceCreateThumbnailAtIndex(source, index, options as CFDictionary) else {
                throw ImageDecodingError(codec: name, message: "decoding failed")
            }
            // ImageIO may round the shorter side differently from the pipeline: draw it to the exact size.
            if (image.width, image.height) != (target.width, target.height), let exact = Self.redraw(image, to: target)
            {
                image = exact
            }
            return PlatformImage.make(from: image)
        }

        private static func redraw(_ image: CGImage, to size: (width: Int, height: Int)) -> CGImage? {
            // An RGB context (a grey or indexed space cannot take premultiplied alpha): the image's own space when
            // it is RGB (Display P3 stays P3), else sRGB.
            let space =
                image.colorSpace.flatMap { $0.model == .rgb ? $0 : nil } ?? CGColorSpace(name: CGColorSpace.sRGB)
            guard let space,
                let context = CGContext(
                    data: nil,
                    width: size.width,
                    height: size.height,
                    bitsPerComponent: 8,
                    bytesPerRow: 0,
                    space: space,
                    bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue
                )
            else { return nil }
            context.interpolationQuality = .high
            context.draw(image, in: CGRect(x: 0, y: 0, width: size.width, height: size.height))
            return context.makeImage()
        }
    }
}
#endif
