// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — the JPEG decode budget: counting a progressive JPEG's scans before decoding it.

#if canImport(CTurboJPEG)
import CTurboJPEG
import Foundation

extension ImageDecoders.JPEG {
    /// The work of decoding a progressive JPEG: its scans (``JPEGScanWalk``) and its 8×8 blocks, from the frame
    /// header. `nil` for a sequential JPEG, whose work is bounded by its pixels alone.
    static func progressiveWork(_ bytes: UnsafeRawBufferPointer) -> (scans: Int, blocks: Int)? {
        let walk = JPEGScanWalk(bytes)
        guard let frame = walk.frame, frame.isProgressive else { return nil }
        return (walk.scans, ((frame.width + 7) / 8) * ((frame.height + 7) / 8))
    }

    /// Whether libjpeg decodes the file in one pass, holding a few rows of blocks: a sequential frame whose first
    /// scan interleaves every component. Otherwise libjpeg keeps every block until the last scan, whatever the
    /// output size. Reads the markers up to the first scan only.
    static func decodesInOnePass(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count >= 4 else { return false }
        let count = bytes.count
        var offset = 2  // after SOI
        var components: Int?
        while offset + 3 < count {
            guard base[offset] == 0xFF else { return false }
            let marker = base[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            let length = Int(base[offset + 2]) << 8 | Int(base[offset + 3])
            switch marker {
            case 0xC0, 0xC1, 0xC9:
                // FF Cn, length (2), precision (1), height (2), width (2), components (1).
                guard components == nil, offset + 9 < count else { return false }
                components = Int(base[offset + 9])
            case 0xC2, 0xC3, 0xC5...0xC7, 0xCA, 0xCB, 0xCD...0xCF:
                return false
            case 0xDA:
                // FF DA, length (2), components in the scan (1).
                guard let components, offset + 4 < count else { return false }
                return Int(base[offset + 4]) == components
            case 0xD8, 0xD9:
                return false
            default:
                break
            }
            offset += 2 + length
        }
        return false
    }

    /// The width and height the frame header of `data` declares (as stored, before the EXIF orientation); `nil` when
    /// the header is not there yet or is not one libjpeg-turbo reads.
    static func frameSize(_ data: Data) -> (width: Int, height: Int)? {
        guard let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = data.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), !raw.isEmpty else { return -1 }
            return tjDecompressHeader3(handle, base, UInt(raw.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0, width > 0, height > 0 else { return nil }
        return (Int(width), Int(height))
    }
}
#endif
