// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

#if canImport(CJPEGProgressive)
import CJPEGProgressive
#endif

/// Decodes previews of a progressive JPEG from a partial body: on Linux through libjpeg's buffered-image mode, on
/// Apple platforms through ImageIO, given the bytes up to the last complete scan closed with an end-of-image marker.
///
/// Each preview decodes the bytes so far and shows the last complete scan, at the final image's size and orientation,
/// after checking the pixel limit and ``maximumScans``. Baseline and CMYK JPEGs and other formats give none.
public enum ProgressiveJPEGPreviews {
    /// The most scans a preview reads.
    public static let maximumScans = 100

    /// What a preview attempt gives.
    public enum Outcome {
        /// The image as of its `scan`th scan (1 is the first).
        case preview(PlatformImage, scan: Int)
        /// No complete scan yet: try again with more bytes.
        case needsMoreData
        /// No previews for this image (not a progressive JPEG, over a limit, or malformed); `reason` says why.
        case unsupported(reason: String)
    }

    /// Whether `header` starts like a JPEG; only JPEGs get previews.
    public static func isJPEG(_ header: Data) -> Bool { header.isJPEG }

    /// A preview of `data` (the first bytes of a JPEG), at the context's thumbnail size when it asks for one.
    public static func preview(of data: Data, context: ImageDecodingContext) -> Outcome {
        #if canImport(CJPEGProgressive)
        guard isJPEG(data) else { return .unsupported(reason: "not a JPEG") }
        return libjpegPreview(of: data, context: context)
        #elseif canImport(ImageIO) && canImport(CoreGraphics) && (canImport(UIKit) || canImport(AppKit))
        switch previewPrefix(of: data, maximumPixelCount: context.maximumPixelCount) {
        case .prefix(let prefix, let scan):
            // ImageIO shows a progressive JPEG closed after a complete scan as of that scan.
            guard let image = try? ImageDecoders.ImageIODecoder().decode(prefix, context: context) else {
                return .needsMoreData
            }
            return .preview(image, scan: scan)
        case .needsMoreData:
            return .needsMoreData
        case .unsupported(let reason):
            return .unsupported(reason: reason)
        }
        #else
        return .unsupported(reason: "previews need libjpeg or ImageIO")
        #endif
    }

    #if canImport(CJPEGProgressive)
    /// A preview through libjpeg's buffered-image mode.
    private static func libjpegPreview(of data: Data, context: ImageDecodingContext) -> Outcome {
        let denominator = scaleDenominator(for: data, thumbnail: context.thumbnail)
        var info = lookahead_preview_info()
        var pixels: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 200)
        let status = data.withUnsafeBytes { raw in
            lookahead_jpeg_preview(
                raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                raw.count,
                denominator,
                UInt64(max(0, context.maximumPixelCount)),
                Int32(maximumScans),
                &pixels,
                &info,
                &message,
                message.count
            )
        }
        defer { free(pixels) }
        switch status {
        case LOOKAHEAD_PREVIEW_OK:
            guard let pixels, info.out_width > 0, info.out_height > 0 else { return .unsupported(reason: "no pixels") }
            let (width, height) = (Int(info.out_width), Int(info.out_height))
            let buffer = Array(UnsafeBufferPointer(start: pixels, count: width * height * 4))
            let upright = Bitmap(width: width, height: height, pixels: buffer).applying(ExifOrientation.jpeg(data))
            let image = PlatformImage.make(from: upright)
            return .preview((try? ImageDecoders.fitThumbnail(image, context: context)) ?? image, scan: Int(info.scan))
        case LOOKAHEAD_PREVIEW_NEEDS_MORE:
            return .needsMoreData
        case LOOKAHEAD_PREVIEW_TOO_LARGE:
            return .unsupported(reason: "\(info.width)×\(info.height) exceeds \(context.maximumPixelCount) pixels")
        case LOOKAHEAD_PREVIEW_TOO_MANY_SCANS:
            return .unsupported(reason: "more than \(maximumScans) scans")
        case LOOKAHEAD_PREVIEW_UNSUPPORTED:
            return .unsupported(reason: "not a progressive JPEG in YCbCr or grayscale")
        default:
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .unsupported(reason: text.isEmpty ? "libjpeg error" : text)
        }
    }
    #endif

    /// 1, 2, 4 or 8: the largest DCT reduction whose output still covers the thumbnail.
    static func scaleDenominator(for data: Data, thumbnail: ThumbnailOptions?) -> UInt32 {
        guard let thumbnail, let frame = JPEGScanWalk(data).frame, frame.width > 0, frame.height > 0 else { return 1 }
        let swaps = ExifOrientation.jpeg(data).swapsDimensions
        let scale = thumbnail.scale(
            forWidth: swaps ? frame.height : frame.width,
            height: swaps ? frame.width : frame.height
        )
        return [8, 4, 2].first { 1 / Double($0) + 1e-9 >= scale } ?? 1
    }
}
