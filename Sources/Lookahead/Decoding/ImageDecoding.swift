// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// Decodes one image format into a ``PlatformImage``. Decoders are chosen by sniffing the data, never by the URL or
/// the Content-Type. Implementations must be thread safe: the pipeline calls them on its decode queue.
public protocol ImageDecoding: Sendable {
    /// The codec's name, used in errors and logs ("JPEG").
    var name: String { get }
    /// The media types this decoder reads, best first, for a download's `Accept` header
    /// (``ImagePipeline/Configuration/advertisesDecodableFormats``). Empty by default.
    var mediaTypes: [String] { get }
    /// Whether the data looks like this format; `header` holds at least the first 16 bytes when available.
    func canDecode(_ header: Data) -> Bool
    /// Decodes the data, checking its size against `context.maximumPixelCount` before any large allocation.
    func decode(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> PlatformImage
}

extension ImageDecoding {
    public var mediaTypes: [String] { [] }
}

/// A decoder that can also decode an animation (GIF, WebP), for requests that ask for it (``ImageRequest/isAnimated``).
public protocol AnimatedImageDecoding: ImageDecoding {
    /// Reads an animation's frame durations and decodes its first frame; the other frames are decoded when they
    /// play, composited and at the thumbnail's size (``ImageDecoders/fitThumbnail(_:context:)``). `nil` for a still
    /// image. The limits are checked before any frame is decoded
    /// (``ImageDecodingContext/animationLimitError(codec:frameCount:width:height:)``).
    func decodeAnimation(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> AnimatedImage?
}

/// What a decoder is told about the request it decodes for.
public struct ImageDecodingContext: Sendable {
    /// Decode at reduced size, if the codec can.
    public var thumbnail: ThumbnailOptions?
    /// The most pixels (width × height, as the header declares) a decoder may decode; a one-pass decode at a reduced
    /// size that holds only its output (a sequential JPEG) counts the pixels it outputs.
    public var maximumPixelCount: Int
    /// The most frames an animation may have.
    public var maximumFrameCount: Int
    /// The most pixels all the frames of an animation may have: the canvas's pixels times the frame count.
    public var maximumAnimationPixelCount: Int

    /// Whether a declared size has more pixels than allowed; a product that overflows (a hostile header) does.
    package func exceedsPixelLimit(width: Int, height: Int) -> Bool {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow || pixels > maximumPixelCount
    }

    /// Throws when a declared size has more pixels than allowed.
    package func checkPixelLimit(codec: String, width: Int, height: Int) throws(ImageDecodingError) {
        guard exceedsPixelLimit(width: width, height: height) else { return }
        throw .tooLarge(codec: codec, width: width, height: height, limit: maximumPixelCount)
    }

    /// Throws when a declared size is empty or has more pixels than allowed.
    package func checkSize(codec: String, width: Int, height: Int) throws(ImageDecodingError) {
        guard width > 0, height > 0 else {
            throw ImageDecodingError(codec: codec, message: "invalid dimensions \(width)×\(height)")
        }
        try checkPixelLimit(codec: codec, width: width, height: height)
    }

    /// The error when `frameCount` frames of `width` × `height` exceed the frame or total pixel limit; `nil` within.
    public func animationLimitError(codec: String, frameCount: Int, width: Int, height: Int) -> ImageDecodingError? {
        let (canvas, overflow) = width.multipliedReportingOverflow(by: height)
        let (pixels, overflowAgain) = canvas.multipliedReportingOverflow(by: frameCount)
        guard frameCount > maximumFrameCount || overflow || overflowAgain || pixels > maximumAnimationPixelCount else {
            return nil
        }
        return ImageDecodingError(
            codec: codec,
            message: "an animation of \(frameCount) frames of \(width)×\(height) pixels exceeds the limits "
                + "(\(maximumFrameCount) frames, \(maximumAnimationPixelCount) pixels in all)",
            reason: .animationTooLarge(frameCount: frameCount, width: width, height: height)
        )
    }

    /// Creates a context.
    public init(
        thumbnail: ThumbnailOptions? = nil,
        maximumPixelCount: Int = .max,
        maximumFrameCount: Int = .max,
        maximumAnimationPixelCount: Int = .max
    ) {
        self.thumbnail = thumbnail
        self.maximumPixelCount = maximumPixelCount
        self.maximumFrameCount = maximumFrameCount
        self.maximumAnimationPixelCount = maximumAnimationPixelCount
    }
}

/// A decoder's failure: which codec, what the library said, and a machine-readable reason.
public struct ImageDecodingError: Error, Sendable, CustomStringConvertible {
    /// Why decoding failed.
    public enum Reason: Sendable, Equatable {
        /// The data is truncated, corrupt, or of an unsupported variant.
        case invalidData
        /// The header declares more pixels than allowed.
        case tooLarge(width: Int, height: Int, limit: Int)
        /// An animation has more frames, or more pixels across its frames, than allowed.
        case animationTooLarge(frameCount: Int, width: Int, height: Int)
    }

    /// The codec's name.
    public var codec: String
    /// The library's message, or ours.
    public var message: String
    /// The reason.
    public var reason: Reason

    /// Creates an error.
    public init(codec: String, message: String, reason: Reason = .invalidData) {
        self.codec = codec
        self.message = message
        self.reason = reason
    }

    public var description: String { "\(codec): \(message)" }

    /// The error for an image of `width` × `height` pixels when `limit` is less; `picture` names what has that
    /// size when it is not the image itself ("a coded picture").
    package static func tooLarge(
        codec: String,
        width: Int,
        height: Int,
        limit: Int,
        picture: String? = nil
    ) -> ImageDecodingError {
        ImageDecodingError(
            codec: codec,
            message: (picture.map { "\($0) of " } ?? "") + "\(width)×\(height) exceeds \(limit) pixels",
            reason: .tooLarge(width: width, height: height, limit: limit)
        )
    }
}

/// The decoders that ship with Lookahead, and the default selection.
public enum ImageDecoders {
    /// The decoders available on this platform, tried in order.
    public static var `default`: [any ImageDecoding] {
        #if canImport(ImageIO) && canImport(CoreGraphics) && (canImport(UIKit) || canImport(AppKit))
        [ImageIODecoder()]  // every format ImageIO knows, on Apple platforms
        #elseif canImport(CTurboJPEG) && canImport(CSPNG) && canImport(CWebP) && canImport(CGIF) && canImport(CHeif)
        [JPEG(), PNG(), WebP(), GIF(), HEIF()]
        #else
        []
        #endif
    }

    /// The `Accept` header that asks for what `decoders` read: AVIF and WebP first, then the rest in the decoders'
    /// order, then any image and anything at lower weights. `nil` when no decoder names a media type.
    public static func acceptHeader(for decoders: [any ImageDecoding]) -> String? {
        var types: [String] = []
        for type in decoders.flatMap(\.mediaTypes) where !types.contains(type) { types.append(type) }
        guard !types.isEmpty else { return nil }
        let preferred = ["image/avif", "image/webp"].filter(types.contains)
        let ordered = preferred + types.filter { !preferred.contains($0) }
        return (ordered + ["image/*;q=0.8", "*/*;q=0.5"]).joined(separator: ",")
    }

    /// Decodes data with the first decoder that recognises it, then resamples to the exact thumbnail size.
    public static func decode(
        _ data: Data,
        with decoders: [any ImageDecoding] = ImageDecoders.default,
        context: ImageDecodingContext
    ) -> Result<(image: PlatformImage, codec: String), ImagePipeline.Error> {
        decoder(for: data, in: decoders).flatMap { decoder in
            Result { () throws(ImageDecodingError) in
                let image = try decoder.decode(data, context: context)
                return (try fitThumbnail(image, context: context, decoder: decoder), decoder.name)
            }
            .mapError(ImagePipeline.Error.init(decoding:))
        }
    }

    /// Decodes an animation's first frame with the first decoder that recognises the data, and keeps the data to
    /// decode the others as they play, at the thumbnail size when the context asks for one. `.success(nil)` when the
    /// data is not animated or its decoder cannot decode animations: decode it with ``decode(_:with:context:)``.
    public static func decodeAnimation(
        _ data: Data,
        with decoders: [any ImageDecoding] = ImageDecoders.default,
        context: ImageDecodingContext
    ) -> Result<(animation: AnimatedImage, codec: String)?, ImagePipeline.Error> {
        decoder(for: data, in: decoders).flatMap { decoder in
            Result { () throws(ImageDecodingError) in
                guard let animated = decoder as? any AnimatedImageDecoding,
                    let animation = try animated.decodeAnimation(data, context: context)
                else { return nil }
                // Frames a decoder left at full size are resampled here, like a still image.
                let fitted = try animation.mapImages { (image) throws(ImageDecodingError) in
                    try fitThumbnail(image, context: context, decoder: decoder)
                }
                return (fitted, decoder.name)
            }
            .mapError(ImagePipeline.Error.init(decoding:))
        }
    }

    /// The image at the exact size of `context`'s thumbnail, resampled when the codec's own steps did not reach it.
    /// Decoders of animations call it on each frame as it is made, so full-size frames never pile up.
    public static func fitThumbnail(
        _ image: PlatformImage,
        context: ImageDecodingContext
    ) throws(ImageDecodingError) -> PlatformImage {
        try fitThumbnail(image, context: context, decoder: nil)
    }

    private static func fitThumbnail(
        _ image: PlatformImage,
        context: ImageDecodingContext,
        decoder: (any ImageDecoding)?
    ) throws(ImageDecodingError) -> PlatformImage {
        guard let thumbnail = context.thumbnail else { return image }
        let size = (width: image.pixelWidth, height: image.pixelHeight)
        let target = thumbnail.targetSize(forWidth: size.width, height: size.height)
        guard size != target else { return image }
        guard let bitmap = image.makeBitmap() else {
            throw ImageDecodingError(
                codec: decoder?.name ?? "Resampler",
                message: "the decoded image has no readable pixels"
            )
        }
        // Every bitmap the JPEG decoder makes is opaque: the resampler need not scan the alpha.
        #if canImport(CTurboJPEG)
        let isOpaque: Bool? = decoder is JPEG ? true : nil
        #else
        let isOpaque: Bool? = nil
        #endif
        return PlatformImage.make(
            from: Resampler.resize(
                bitmap,
                width: target.width,
                height: target.height,
                filter: thumbnailFilter(from: size, to: target),
                isOpaque: isOpaque
            )
        )
    }

    /// The filter that brings a decoded image to its thumbnail size: a tent under 2×, Catmull-Rom for more.
    static func thumbnailFilter(from source: (width: Int, height: Int), to target: (width: Int, height: Int))
        -> Resampler.Filter
    {
        source.width < 2 * target.width && source.height < 2 * target.height ? .triangle : .catmullRom
    }

    /// The first decoder that recognises the data, or ``ImagePipeline/Error/noDecoder(header:)``.
    static func decoder(
        for data: Data,
        in decoders: [any ImageDecoding]
    ) -> Result<any ImageDecoding, ImagePipeline.Error> {
        let header = data.prefix(32)
        guard let decoder = decoders.first(where: { $0.canDecode(header) }) else {
            let hex = data.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
            return .failure(.noDecoder(header: hex))
        }
        return .success(decoder)
    }

    /// Runs `body` on the bytes of `data` (base address and count); fails with "empty data" when there are none.
    static func withBytes<T>(
        of data: Data,
        codec: String,
        _ body: (UnsafePointer<UInt8>, Int) throws(ImageDecodingError) -> T
    ) throws(ImageDecodingError) -> T {
        let result = data.withUnsafeBytes { raw -> Result<T, ImageDecodingError> in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else {
                return .failure(ImageDecodingError(codec: codec, message: "empty data"))
            }
            return Result { () throws(ImageDecodingError) in try body(base, raw.count) }
        }
        return try result.get()
    }
}

/// A bundled codec's name (in errors and logs), the media type it reads, and whether a header has its signature.
struct BundledFormat: Sendable {
    let name: String
    let mediaType: String
    let matches: @Sendable (Data) -> Bool
}

/// A decoder that ships with Lookahead: its name, media type and sniffing come from its ``BundledFormat``.
protocol BundledImageDecoder: ImageDecoding {
    static var format: BundledFormat { get }
    /// Decodes the data to an upright sRGB bitmap.
    func decodeBitmap(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> Bitmap
}

extension BundledImageDecoder {
    public var name: String { Self.format.name }
    public var mediaTypes: [String] { [Self.format.mediaType] }

    public func canDecode(_ header: Data) -> Bool { Self.format.matches(header) }

    public func decode(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> PlatformImage {
        PlatformImage.make(from: try decodeBitmap(data, context: context))
    }

    /// This codec's error with `message`.
    static func failure(_ message: String) -> ImageDecodingError {
        ImageDecodingError(codec: format.name, message: message)
    }
}

/// The signatures of the formats the bundled decoders read, for sniffing.
extension Data {
    var isJPEG: Bool { starts(with: [0xFF, 0xD8, 0xFF]) }
    var isPNG: Bool { starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }
    var isGIF: Bool { starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) }
    var isWebP: Bool { starts(with: Array("RIFF".utf8)) && dropFirst(8).starts(with: Array("WEBP".utf8)) }
}
