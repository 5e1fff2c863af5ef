// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Reads, without decoding, the largest picture a HEIF file's decoder configurations declare.
///
/// libheif checks the `ispe` box, but the HEVC and AV1 decoders allocate for the sizes in the parameter sets, which a
/// hostile file makes far larger. libheif's API gives neither those sizes nor a way to refuse a reference loop before
/// it recurses into it, so these boxes are read here, before libheif reads the file.
package enum HEIFCodedSizes {
    package typealias Size = (width: Int, height: Int)

    /// The sizes a decode of the file allocates for: every `hvcC`'s SPS and `av1C`'s sequence header, every SPS or
    /// sequence header at the start of an `hvc1` or `av01` item's data, and the output size of every `grid` and `iovl`
    /// item. `nil` when an `av1C` has no sequence header and no `av01` item's data has one either: such a decode could
    /// not be bounded.
    package static func declaredSizes(in data: Data) -> [Size]? {
        inspect(data).sizes
    }

    /// What a look at a HEIF file's boxes tells before libheif reads it.
    package struct Inspection {
        /// ``declaredSizes(in:)``.
        package var sizes: [Size]?
        /// Whether the item references (`iref`) form no loop and no chain deeper than ``maximumReferenceDepth``.
        /// libheif follows them recursively as it reads the file: a grid whose tile is the grid itself overflows
        /// its stack, so such a file is never handed to it.
        package var referencesAreBounded: Bool
    }

    /// The longest chain of item references a file may have: a grid of tiles with a thumbnail, an alpha plane and
    /// metadata takes three or four.
    static let maximumReferenceDepth = 32

    /// Reads a file's boxes once, for ``Inspection``.
    package static func inspect(_ data: Data) -> Inspection {
        data.withUnsafeBytes { bytes in
            var file = FileLayout()
            walk(bytes, 0..<bytes.count, depth: 0) { type, payload in file.read(type, payload, in: bytes) }
            let bounded = file.referencesAreBounded(depth: maximumReferenceDepth)
            return Inspection(sizes: sizes(of: file, in: bytes), referencesAreBounded: bounded)
        }
    }

    /// The sizes ``declaredSizes(in:)`` gives, from the walked boxes.
    private static func sizes(of file: FileLayout, in bytes: UnsafeRawBufferPointer) -> [Size]? {
        var sizes = file.configurationSizes
        var needsSequenceHeader = file.av1ConfigurationsWithoutSequenceHeader > 0
        for item in file.items {
            guard let range = file.firstExtent(of: item.id, in: bytes.count) else { continue }
            let payload = Array(bytes[range.lowerBound..<min(range.upperBound, range.lowerBound + (1 << 16))])
            switch item.type {
            case "grid": if let size = derivedImageSize(payload, skipping: 2) { sizes.append(size) }
            case "iovl": if let size = derivedImageSize(payload, skipping: 8) { sizes.append(size) }
            case "hvc1": sizes += inBandSPSSizes(payload)
            case "av01":
                if let size = av1Size([0, 0, 0, 0] + payload) {
                    sizes.append(size)
                    needsSequenceHeader = false
                }
            default: break
            }
        }
        return needsSequenceHeader ? nil : sizes
    }

    /// What the box walk collects: decoder configurations, items, their locations and the `idat` box.

    /// The output size of a derived image: a grid (ISO/IEC 23008-12 6.6.2.3.2, `skipping` 2 bytes of rows and
    /// columns) or an overlay (6.6.2.4.2, `skipping` four 16-bit fill values). The flags say whether the width and
    /// height take 2 bytes or 4.
    static func derivedImageSize(_ data: [UInt8], skipping: Int) -> Size? {
        var reader = ByteReader(data)
        guard reader.skip(1), let flags = reader.read(1), reader.skip(skipping) else { return nil }
        let size = flags & 1 == 1 ? 4 : 2
        guard let width = reader.read(size), let height = reader.read(size) else { return nil }
        return (width, height)
    }

    /// The sizes of SPS NAL units among an HEVC item's first NAL units (4-byte lengths, as libheif reads them).
    static func inBandSPSSizes(_ data: [UInt8]) -> [Size] {
        var sizes: [Size] = []
        var offset = 0
        var count = 0
        while offset + 4 <= data.count, count < 64 {
            let length =
                Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8
                | Int(data[offset + 3])
            offset += 4
            guard length > 0, offset + length <= data.count else { break }
            if (data[offset] >> 1) & 0x3F == 33, let size = spsSize(Array(data[offset..<(offset + length)])) {
                sizes.append(size)
            }
            offset += length
            count += 1
        }
        return sizes
    }

    /// Walks the boxes of `range`, descending into `meta`, `iinf`, `iprp` and `ipco`, and calls `visit` with each
    /// other box's type and payload range.
    private static func walk(
        _ bytes: UnsafeRawBufferPointer,
        _ range: Range<Int>,
        depth: Int,
        _ visit: (String, Range<Int>) -> Void
    ) {
        var offset = range.lowerBound
        while depth < 8, offset + 8 <= range.upperBound {
            var size = Int(read32(bytes, offset))
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            var header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else { return }
                let large = UInt64(read32(bytes, offset + 8)) << 32 | UInt64(read32(bytes, offset + 12))
                guard large <= UInt64(range.upperBound - offset) else { return }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset  // to the end
            }
            guard size >= header, offset + size <= range.upperBound else { return }
            let payload = (offset + header)..<(offset + size)
            switch type {
            case "meta":
                // A full box: version and flags before the children.
                if payload.count >= 4 {
                    walk(bytes, (payload.lowerBound + 4)..<payload.upperBound, depth: depth + 1, visit)
                }
            case "iinf":
                // A full box and an entry count (16 bits in version 0, 32 after), then `infe` boxes.
                let skip = payload.count >= 4 && bytes[payload.lowerBound] == 0 ? 6 : 8
                if payload.count >= skip {
                    walk(bytes, (payload.lowerBound + skip)..<payload.upperBound, depth: depth + 1, visit)
                }
            case "iprp", "ipco":
                walk(bytes, payload, depth: depth + 1, visit)
            default:
                visit(type, payload)
            }
            offset += size
        }
    }

    private static func read32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
