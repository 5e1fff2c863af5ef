// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the markers of a JPEG, or of its first bytes, say: the frame and its scans (entropy-coded data skipped with
/// `memchr`). Stops at the end of the image or the bytes, at a sequential frame's first scan, or where a marker is
/// missing.
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
            switch marker {
            case 0xFF:  // fill byte
                offset += 1
                continue
            case 0xD9:  // end of image
                return
            case 0x01, 0xD0...0xD7:  // no length
                offset += 2
                continue
            default:
                break
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
