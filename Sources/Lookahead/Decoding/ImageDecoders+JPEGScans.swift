// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — the JPEG decode budget: counting a progressive JPEG's scans before decoding it.

#if canImport(CTurboJPEG)
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ImageDecoders.JPEG {
    /// The work of decoding a progressive JPEG: its scans, counted by walking the markers (the entropy-coded data
    /// is skipped with `memchr`, so this costs a fraction of a decode), and its 8×8 blocks, from the frame header.
    /// `nil` for a sequential JPEG, whose work is bounded by its pixels alone. Stops at the end-of-image marker or
    /// at anything that is not a marker where one belongs: the decoder reports malformed data itself.
    static func progressiveWork(_ bytes: UnsafeRawBufferPointer) -> (scans: Int, blocks: Int)? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count >= 4 else { return nil }
        let count = bytes.count
        var offset = 2  // after SOI
        var blocks: Int?
        var scans = 0
        while offset + 1 < count {
            guard base[offset] == 0xFF else { break }
            let marker = base[offset + 1]
            switch marker {
            case 0xFF:  // fill byte
                offset += 1
                continue
            case 0xD9:  // end of image
                return finish(blocks, scans)
            case 0x01, 0xD0...0xD7:  // no length
                offset += 2
                continue
            default:
                break
            }
            guard offset + 3 < count else { break }
            let length = Int(base[offset + 2]) << 8 | Int(base[offset + 3])
            switch marker {
            case 0xC2, 0xC6, 0xCA, 0xCE:  // progressive frames (Huffman, arithmetic; differential)
                // FF Cn, length (2), precision (1), height (2), width (2).
                guard offset + 8 < count else { return nil }
                let height = Int(base[offset + 5]) << 8 | Int(base[offset + 6])
                let width = Int(base[offset + 7]) << 8 | Int(base[offset + 8])
                blocks = ((width + 7) / 8) * ((height + 7) / 8)
            case 0xC0, 0xC1, 0xC3, 0xC5, 0xC7, 0xC9, 0xCB, 0xCD, 0xCF:  // sequential and lossless frames
                return nil
            default:
                break
            }
            offset += 2 + length
            guard marker == 0xDA else { continue }
            scans += 1
            // Entropy-coded data runs to the next marker: FF followed by neither 00 (a stuffed FF) nor a restart.
            while offset < count {
                guard let found = memchr(base + offset, 0xFF, count - offset) else { return finish(blocks, scans) }
                let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                guard index + 1 < count else { return finish(blocks, scans) }
                let next = base[index + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) {
                    offset = index + 2
                } else if next == 0xFF {
                    offset = index + 1
                } else {
                    offset = index
                    break
                }
            }
        }
        return finish(blocks, scans)
    }

    /// Whether libjpeg decodes the file in one pass over its data, holding a few rows of blocks at a time: a
    /// sequential frame (`SOF0`, `SOF1`, `SOF9`) whose first scan interleaves every component. A progressive file, or a
    /// sequential one with a scan per component, makes libjpeg keep every block of the image in memory until the
    /// last scan (two bytes a sample), whatever the output size. Reads the markers up to the first scan only.
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

    private static func finish(_ blocks: Int?, _ scans: Int) -> (scans: Int, blocks: Int)? {
        blocks.map { (scans, $0) }
    }
}
#endif

#if canImport(CTurboJPEG)
import CTurboJPEG

extension ImageDecoders.JPEG {
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
