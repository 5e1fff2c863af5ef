// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

#if canImport(CJPEGProgressive)
import CJPEGProgressive
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
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
        let upright = ExifOrientation.jpeg(data).uprightSize(width: frame.width, height: frame.height)
        let scale = thumbnail.scale(forWidth: upright.width, height: upright.height)
        return [8, 4, 2].first { 1 / Double($0) + 1e-9 >= scale } ?? 1
    }
}

/// What the markers of a JPEG (or of its first bytes) say of its frame and scans, entropy-coded data skipped with
/// `memchr`. Stops at the end, at a sequential frame's first scan, or where a marker is missing.
struct JPEGScanWalk: Equatable {
    /// The frame header's facts: whether it is progressive, and its size as stored.
    struct Frame: Equatable {
        var isProgressive: Bool
        var width: Int
        var height: Int
    }

    /// The frame header, once it has been read.
    var frame: Frame?
    /// The start-of-scan markers read, the scan still arriving included.
    var scans = 0
    /// The scans whose data is followed by another marker: a decoder has all of them.
    var completeScans = 0
    /// The offset of the marker after the last complete scan; 0 before any.
    var endOfCompleteScans = 0
    /// Whether libjpeg decodes the file in one pass, holding a few rows of blocks: a sequential frame (SOF0, SOF1,
    /// SOF9) whose first scan interleaves every component.
    var decodesInOnePass = false

    init(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count >= 4,
            base[0] == 0xFF, base[1] == 0xD8
        else { return }
        let count = bytes.count
        var offset = 2  // after SOI
        var onePassComponents: Int?
        while offset + 1 < count {
            guard base[offset] == 0xFF else { return }
            let marker = base[offset + 1]
            if marker == 0xD9 { return }  // end of image
            if marker == 0xFF || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += marker == 0xFF ? 1 : 2  // a fill byte, or a marker without a length
                continue
            }
            guard offset + 3 < count else { return }
            let length = Int(base[offset + 2]) << 8 | Int(base[offset + 3])
            switch marker {
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:  // frames (not DHT C4, JPG C8, DAC CC)
                // FF Cn, length (2), precision (1), height (2), width (2), components (1).
                guard offset + 8 < count, frame?.isProgressive != false else { return }
                if frame == nil, [0xC0, 0xC1, 0xC9].contains(marker), offset + 9 < count {
                    onePassComponents = Int(base[offset + 9])
                }
                frame = Frame(
                    isProgressive: [0xC2, 0xC6, 0xCA, 0xCE].contains(marker),
                    width: Int(base[offset + 7]) << 8 | Int(base[offset + 8]),
                    height: Int(base[offset + 5]) << 8 | Int(base[offset + 6])
                )
            case 0xDA where frame?.isProgressive == false:
                // A sequential frame's first scan: FF DA, length (2), components (1). The walk ends there.
                decodesInOnePass = offset + 4 < count && Int(base[offset + 4]) == onePassComponents
                return
            default:
                break
            }
            offset += 2 + length
            guard marker == 0xDA else { continue }
            scans += 1
            // Entropy-coded data runs to the next marker: FF followed by neither 00 (a stuffed FF) nor a restart.
            while true {
                guard offset < count, let found = memchr(base + offset, 0xFF, count - offset) else { return }
                let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                guard index + 1 < count else { return }
                let next = base[index + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) {
                    offset = index + 2
                } else if next == 0xFF {
                    offset = index + 1
                } else {
                    offset = index
                    completeScans = scans
                    endOfCompleteScans = index
                    break
                }
            }
        }
    }

    init(_ data: Data) {
        self = data.withUnsafeBytes { JPEGScanWalk($0) }
    }

    /// The work of decoding a progressive JPEG: its scans and its 8×8 blocks. `nil` for a sequential JPEG, whose work
    /// is bounded by its pixels alone.
    var progressiveWork: (scans: Int, blocks: Int)? {
        guard let frame, frame.isProgressive else { return nil }
        return (scans, ((frame.width + 7) / 8) * ((frame.height + 7) / 8))
    }
}

extension ProgressiveJPEGPreviews {
    /// What to hand a whole-image decoder for a preview of `data`, the first bytes of a JPEG: the bytes up to the end
    /// of the last complete scan, closed with an end-of-image marker. A decoder shows such a file as of that scan.
    enum PreviewPrefix: Equatable {
        case prefix(Data, scan: Int)
        case needsMoreData
        case unsupported(reason: String)
    }

    /// Decides, without decoding, whether `data` can give a preview and which bytes make it.
    static func previewPrefix(of data: Data, maximumPixelCount: Int) -> PreviewPrefix {
        guard isJPEG(data) else { return .unsupported(reason: "not a JPEG") }
        let walk = JPEGScanWalk(data)
        guard let frame = walk.frame else { return .needsMoreData }
        guard frame.isProgressive else { return .unsupported(reason: "not a progressive JPEG") }
        guard frame.width > 0, frame.height > 0 else { return .unsupported(reason: "no size in the frame header") }
        guard frame.width * frame.height <= maximumPixelCount else {
            return .unsupported(reason: "\(frame.width)×\(frame.height) exceeds \(maximumPixelCount) pixels")
        }
        guard walk.scans <= maximumScans else { return .unsupported(reason: "more than \(maximumScans) scans") }
        guard walk.completeScans > 0 else { return .needsMoreData }
        var prefix = Data(data.prefix(walk.endOfCompleteScans))
        prefix.append(contentsOf: [0xFF, 0xD9])
        return .prefix(prefix, scan: walk.completeScans)
    }
}
