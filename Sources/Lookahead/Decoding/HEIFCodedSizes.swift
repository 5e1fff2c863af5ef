// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Reads a HEIF file's boxes before libheif does: the HEVC and AV1 decoders allocate for the sizes in the parameter
/// sets, not the `ispe` box libheif checks, and libheif recurses into reference loops. Its API shows neither.
package enum HEIFCodedSizes {
    package typealias Size = (width: Int, height: Int)

    /// What a look at a HEIF file's boxes tells before libheif reads it.
    package struct Inspection {
        /// The sizes a decode of the file allocates for: every `hvcC`'s SPS and `av1C`'s sequence header, every SPS
        /// or sequence header at the start of an `hvc1` or `av01` item's data, and the output size of every `grid`
        /// and `iovl` item. `nil` when an `av1C` has no sequence header and no `av01` item's data has one either:
        /// such a decode could not be bounded.
        package var sizes: [Size]?
        /// Whether the item references (`iref`) form no loop and no chain deeper than ``maximumReferenceDepth``:
        /// libheif follows them recursively, and a grid whose tile is the grid itself overflows its stack.
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

    /// The sizes of ``Inspection/sizes``, from the walked boxes.
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

    /// The output size of a derived image: a grid (ISO/IEC 23008-12 6.6.2.3.2, after 2 bytes of rows and columns) or
    /// an overlay (6.6.2.4.2, after four 16-bit fill values); its flags say whether sizes take 2 bytes or 4.
    static func derivedImageSize(_ data: [UInt8], skipping: Int) -> Size? {
        var reader = Reader(data)
        guard reader.skip(1), let flags = reader.read(1), reader.skip(skipping) else { return nil }
        let size = flags & 1 == 1 ? 4 : 2
        guard let width = reader.read(size), let height = reader.read(size) else { return nil }
        return (width, height)
    }

    /// The sizes of SPS NAL units among an HEVC item's first 64 NAL units (4-byte lengths, as libheif reads them).
    static func inBandSPSSizes(_ data: [UInt8]) -> [Size] {
        var reader = Reader(data)
        var sizes: [Size] = []
        for _ in 0..<64 {
            guard let length = reader.read(4), length > 0, let nal = reader.take(length) else { break }
            if (nal[0] >> 1) & 0x3F == 33, let size = spsSize(nal) { sizes.append(size) }
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
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// What the box walk collects: decoder configurations, items, their locations and the `idat` box.
    struct FileLayout {
        var configurationSizes: [Size] = []
        var av1ConfigurationsWithoutSequenceHeader = 0
        var items: [(id: Int, type: String)] = []
        /// Per item: construction method (0 file, 1 idat), the first extent's offset (base included) and length.
        var locations: [Int: (method: Int, offset: Int, length: Int)] = [:]
        var itemData: Range<Int>?
        /// Item references, of every type, from each item to the items it names.
        var references: [Int: [Int]] = [:]
        /// More references than are followed: the check of ``referencesAreBounded(depth:)`` fails.
        var hasTooManyReferences = false

        mutating func read(_ type: String, _ payload: Range<Int>, in bytes: UnsafeRawBufferPointer) {
            switch type {
            case "hvcC":
                if let size = hevcSize(Array(bytes[payload])) { configurationSizes.append(size) }
            case "av1C":
                if let size = av1Size(Array(bytes[payload])) {
                    configurationSizes.append(size)
                } else {
                    av1ConfigurationsWithoutSequenceHeader += 1
                }
            case "infe":
                // A full box; a 16-bit item ID (version 2) or 32-bit (3), a protection index, the item type.
                var reader = Reader(bytes, payload)
                guard let version = reader.read(1), reader.skip(3), version >= 2,
                    let id = reader.read(version == 2 ? 2 : 4), reader.skip(2), let type = reader.fourCC()
                else { return }
                items.append((id, type))
            case "iloc":
                readLocations(Reader(bytes, payload))
            case "idat":
                itemData = payload
            case "iref":
                readReferences(Reader(bytes, payload))
            default:
                break
            }
        }

        /// ISO/IEC 14496-12 8.11.3: each item's first extent.
        private mutating func readLocations(_ box: Reader) {
            var reader = box
            guard let version = reader.read(1), version <= 2, reader.skip(3), let sizes = reader.read(1),
                let moreSizes = reader.read(1)
            else { return }
            let (offsetSize, lengthSize, baseSize) = (sizes >> 4, sizes & 15, moreSizes >> 4)
            let indexSize = version >= 1 ? moreSizes & 15 : 0
            guard let count = reader.read(version < 2 ? 2 : 4) else { return }
            for _ in 0..<min(count, 4_096) {
                guard let id = reader.read(version < 2 ? 2 : 4) else { return }
                var method = 0
                if version >= 1 {
                    guard let value = reader.read(2) else { return }
                    method = value & 15
                }
                guard reader.skip(2), let base = reader.read(baseSize), let extents = reader.read(2) else { return }
                for index in 0..<extents {
                    guard reader.skip(indexSize), let offset = reader.read(offsetSize),
                        let length = reader.read(lengthSize)
                    else { return }
                    if index == 0 { locations[id] = (method, base + offset, length) }
                }
            }
        }

        /// ISO/IEC 14496-12 8.11.12: a full box of boxes, each one type of reference from one item to others (item
        /// IDs of 16 bits in version 0, 32 in version 1).
        private mutating func readReferences(_ box: Reader) {
            var reader = box
            guard let version = reader.read(1), version <= 1, reader.skip(3) else { return }
            let idSize = version == 0 ? 2 : 4
            var count = 0
            while let size = reader.read(4), reader.fourCC() != nil {
                guard let from = reader.read(idSize), let targets = reader.read(2) else { return }
                let rest = size - (8 + idSize + 2 + targets * idSize)
                guard rest >= 0 else { return }
                for _ in 0..<targets {
                    guard let to = reader.read(idSize) else { return }
                    count += 1
                    guard count <= 65_536 else {
                        hasTooManyReferences = true
                        return
                    }
                    references[from, default: []].append(to)
                }
                guard reader.skip(rest) else { return }
            }
        }

        /// Whether the references form no loop and no chain of more than `limit` items (the recursion's bound).
        func referencesAreBounded(depth limit: Int) -> Bool {
            guard !hasTooManyReferences else { return false }
            var longest: [Int: Int] = [:]  // finished items: the longest chain from each
            var path = Set<Int>()
            // The longest chain from `item`; `nil` for a loop or a chain longer than the limit.
            func chain(from item: Int) -> Int? {
                if let known = longest[item] { return known }
                guard !path.contains(item), path.count < limit else { return nil }
                path.insert(item)
                defer { path.remove(item) }
                var length = 1
                for target in references[item] ?? [] {
                    guard let next = chain(from: target), next < limit else { return nil }
                    length = max(length, next + 1)
                }
                longest[item] = length
                return length
            }
            return references.keys.allSatisfy { chain(from: $0) != nil }
        }

        /// The byte range of an item's first extent, within the file.
        func firstExtent(of id: Int, in fileSize: Int) -> Range<Int>? {
            // Offsets are from the start of the file (method 0) or of the `idat` box (method 1).
            guard let location = locations[id],
                let base = location.method == 0 ? 0..<fileSize : (location.method == 1 ? itemData : nil)
            else { return nil }
            let start = base.lowerBound + location.offset
            let end = location.length == 0 ? base.upperBound : start + location.length
            guard start >= 0, start < end, end <= fileSize else { return nil }
            return start..<end
        }
    }
}
