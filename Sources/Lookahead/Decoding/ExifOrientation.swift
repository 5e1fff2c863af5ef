// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The EXIF orientation of an image (tag 0x0112): how the stored pixels map to the upright picture.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// Whether the upright image has width and height swapped relative to the stored one.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The upright picture's size for pixels stored at `width` × `height`.
    func uprightSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsDimensions ? (height, width) : (width, height)
    }

    /// Reads the orientation from a JPEG's Exif APP1 segment; `.up` when there is none or it is malformed.
    public static func jpeg(_ data: Data) -> ExifOrientation {
        var orientation: ExifOrientation?
        JPEGSegments.walk(data) { marker, payload in
            if marker == 0xE1, payload.starts(with: exifHeader) { orientation = tiff([UInt8](payload.dropFirst(6))) }
            return orientation == nil
        }
        return orientation ?? .up
    }

    /// Reads the orientation from an EXIF payload as PNG's `eXIf` chunk and WebP's `EXIF` chunk hold it: TIFF data,
    /// with or without the `Exif\0\0` header a JPEG segment has. `.up` when it cannot be read.
    public static func exifPayload(_ bytes: [UInt8]) -> ExifOrientation {
        tiff(bytes.starts(with: exifHeader) ? Array(bytes.dropFirst(6)) : bytes) ?? .up
    }

    private static let exifHeader = Array("Exif".utf8) + [0, 0]

    /// Parses TIFF: byte order ("II" little-endian, "MM" big-endian), IFD0, tag 0x0112.
    private static func tiff(_ tiff: [UInt8]) -> ExifOrientation? {
        guard tiff.count >= 8, tiff[0] == tiff[1], tiff[0] == 0x49 || tiff[0] == 0x4D else { return nil }
        let little = tiff[0] == 0x49
        func value(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= tiff.count else { return nil }
            let bytes = tiff[offset..<(offset + size)]
            return (little ? Array(bytes.reversed()) : Array(bytes)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard value(2, 2) == 42, let ifd = value(4, 4), let count = value(ifd, 2) else { return nil }
        for entry in 0..<min(count, 512) {
            let offset = ifd + 2 + entry * 12
            guard let tag = value(offset, 2) else { return nil }
            if tag == 0x0112 {
                guard value(offset + 2, 2) == 3, let raw = value(offset + 8, 2) else { return nil }
                return ExifOrientation(rawValue: raw)
            }
        }
        return nil
    }
}

extension Bitmap {
    /// The upright image for pixels stored with an EXIF orientation.
    public func applying(_ orientation: ExifOrientation) -> Bitmap {
        guard orientation != .up else { return self }
        let (w, h) = (width, height)
        let (outWidth, outHeight) = orientation.uprightSize(width: w, height: h)
        var output = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (w - 1 - x, y)
                        case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .downMirrored: (sx, sy) = (x, h - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, h - 1 - x)
                        case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .left: (sx, sy) = (w - 1 - y, x)
                        }
                        let from = sy * bytesPerRow + sx * 4
                        let to = (y * outWidth + x) * 4
                        for channel in 0..<4 { target[to + channel] = source[from + channel] }
                    }
                }
            }
        }
        return Bitmap(width: outWidth, height: outHeight, pixels: output)
    }
}
