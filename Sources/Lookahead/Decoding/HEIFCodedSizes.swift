// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Reads, without decoding, the largest picture a HEIF file's decoder configurations declare.
///
/// libheif checks the `ispe` box, but the HEVC and AV1 decoders allocate for the sizes in the parameter sets, which a
/// hostile file makes far larger. The pixel limit is checked against these sizes too, before libheif decodes
/// anything.
package enum HEIFCodedSizes {
    /// The sizes a decode of the file allocates for: every `hvcC`'s SPS and `av1C`'s sequence header, every SPS or
    /// sequence header at the start of an `hvc1` or `av01` item's data, and the output size of every `grid` and `iovl`
    /// item. `nil` when an `av1C` has no sequence header and no `av01` item's data has one either: such a decode could
    /// not be bounded.
    package static func declaredSizes(in data: Data) -> [(width: Int, height: Int)]? {
        inspect(data).sizes
    }

    /// What a look at a HEIF file's boxes tells before libheif reads it.
    package struct Inspection {
        /// ``declaredSizes(in:)``.
        package var sizes: [(width: Int, height: Int)]?
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
    private static func sizes(of file: FileLayout, in bytes: UnsafeRawBufferPointer) -> [(width: Int, height: Int)]? {
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
    private struct FileLayout {
        var configurationSizes: [(width: Int, height: Int)] = []
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
                // A full box; version 2 has a 16-bit item ID, version 3 a 32-bit one, then a protection index and
                // the item type.
                var reader = ByteReader(bytes, payload)
                guard let version = reader.read(1), reader.skip(3), version >= 2,
                    let id = reader.read(version == 2 ? 2 : 4), reader.skip(2), let type = reader.fourCC()
                else { return }
                items.append((id, type))
            case "iloc":
                readLocations(ByteReader(bytes, payload))
            case "idat":
                itemData = payload
            case "iref":
                readReferences(ByteReader(bytes, payload))
            default:
                break
            }
        }

        /// ISO/IEC 14496-12 8.11.3: each item's first extent.
        private mutating func readLocations(_ box: ByteReader) {
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
        private mutating func readReferences(_ box: ByteReader) {
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

        /// Whether the references form no loop and no chain of more than `depth` items, by a walk that keeps its
        /// own stack.
        func referencesAreBounded(depth limit: Int) -> Bool {
            guard !hasTooManyReferences else { return false }
            var longest: [Int: Int] = [:]  // finished items: the longest chain from each
            var onPath = Set<Int>()
            for root in references.keys where longest[root] == nil {
                var stack = [(item: root, next: 0)]
                onPath.insert(root)
                while let (item, next) = stack.last {
                    let targets = references[item] ?? []
                    if next < targets.count {
                        stack[stack.count - 1].next += 1
                        let target = targets[next]
                        if onPath.contains(target) { return false }  // a loop
                        if longest[target] == nil {
                            guard stack.count < limit else { return false }
                            onPath.insert(target)
                            stack.append((target, 0))
                        }
                    } else {
                        let chain = 1 + (targets.compactMap { longest[$0] }.max() ?? 0)
                        guard chain <= limit else { return false }
                        longest[item] = chain
                        onPath.remove(item)
                        stack.removeLast()
                    }
                }
            }
            return true
        }

        /// The byte range of an item's first extent, within the file.
        func firstExtent(of id: Int, in fileSize: Int) -> Range<Int>? {
            guard let location = locations[id] else { return nil }
            let start: Int
            let end: Int
            switch location.method {
            case 0:
                start = location.offset
                end = location.length == 0 ? fileSize : location.offset + location.length
            case 1:
                guard let itemData else { return nil }
                start = itemData.lowerBound + location.offset
                end = location.length == 0 ? itemData.upperBound : start + location.length
            default:
                return nil
            }
            guard start >= 0, start < end, end <= fileSize else { return nil }
            return start..<end
        }
    }

    /// The output size of a derived image: a grid (ISO/IEC 23008-12 6.6.2.3.2, `skipping` 2 bytes of rows and
    /// columns) or an overlay (6.6.2.4.2, `skipping` four 16-bit fill values). The flags say whether the width and
    /// height take 2 bytes or 4.
    static func derivedImageSize(_ data: [UInt8], skipping: Int) -> (width: Int, height: Int)? {
        var reader = ByteReader(data)
        guard reader.skip(1), let flags = reader.read(1), reader.skip(skipping) else { return nil }
        let size = flags & 1 == 1 ? 4 : 2
        guard let width = reader.read(size), let height = reader.read(size) else { return nil }
        return (width, height)
    }

    /// The sizes of SPS NAL units among an HEVC item's first NAL units (4-byte lengths, as libheif reads them).
    static func inBandSPSSizes(_ data: [UInt8]) -> [(width: Int, height: Int)] {
        var sizes: [(width: Int, height: Int)] = []
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

    // MARK: - HEVC

    /// The largest picture of the SPS NAL units in an `hvcC` (ISO/IEC 14496-15 8.3.3.1), or `nil` when it has none.
    static func hevcSize(_ hvcC: [UInt8]) -> (width: Int, height: Int)? {
        guard hvcC.count >= 23 else { return nil }
        var offset = 23
        var largest: (width: Int, height: Int)?
        for _ in 0..<Int(hvcC[22]) {
            guard offset + 3 <= hvcC.count else { return largest }
            let type = hvcC[offset] & 0x3F
            let count = Int(hvcC[offset + 1]) << 8 | Int(hvcC[offset + 2])
            offset += 3
            for _ in 0..<count {
                guard offset + 2 <= hvcC.count else { return largest }
                let length = Int(hvcC[offset]) << 8 | Int(hvcC[offset + 1])
                offset += 2
                guard offset + length <= hvcC.count else { return largest }
                if type == 33, let size = spsSize(Array(hvcC[offset..<(offset + length)])) {
                    largest = largest.map { $0.width * $0.height >= size.width * size.height ? $0 : size } ?? size
                }
                offset += length
            }
        }
        return largest
    }

    /// `pic_width_in_luma_samples` and `pic_height_in_luma_samples` of an SPS NAL unit (H.265 7.3.2.2).
    static func spsSize(_ nal: [UInt8]) -> (width: Int, height: Int)? {
        guard nal.count > 2 else { return nil }
        // Emulation prevention: 00 00 03 stands for 00 00.
        var payload: [UInt8] = []
        payload.reserveCapacity(nal.count)
        var zeros = 0
        for byte in nal.dropFirst(2) {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            payload.append(byte)
        }
        var reader = BitReader(payload)
        guard reader.skip(4), let maxSubLayersMinus1 = reader.bits(3), reader.skip(1) else { return nil }
        // profile_tier_level: the general part, then what each sub-layer has.
        guard reader.skip(96) else { return nil }
        var profilePresent: [Bool] = []
        var levelPresent: [Bool] = []
        for _ in 0..<maxSubLayersMinus1 {
            guard let profile = reader.bits(1), let level = reader.bits(1) else { return nil }
            profilePresent.append(profile == 1)
            levelPresent.append(level == 1)
        }
        if maxSubLayersMinus1 > 0, !reader.skip(2 * (8 - maxSubLayersMinus1)) { return nil }
        for index in 0..<maxSubLayersMinus1 {
            if profilePresent[index], !reader.skip(88) { return nil }
            if levelPresent[index], !reader.skip(8) { return nil }
        }
        guard reader.exponentialGolomb() != nil, let chroma = reader.exponentialGolomb() else { return nil }
        if chroma == 3, !reader.skip(1) { return nil }
        guard let width = reader.exponentialGolomb(), let height = reader.exponentialGolomb() else { return nil }
        return (width, height)
    }

    // MARK: - AV1

    /// The largest frame of the sequence header OBU in an `av1C`'s `configOBUs` (AV1-ISOBMFF 2.3), or `nil`.
    static func av1Size(_ av1C: [UInt8]) -> (width: Int, height: Int)? {
        var offset = 4
        while offset < av1C.count {
            let header = av1C[offset]
            let type = (header >> 3) & 0x0F
            let hasExtension = header & 0x04 != 0
            let hasSize = header & 0x02 != 0
            offset += hasExtension ? 2 : 1
            var size = av1C.count - offset
            if hasSize {
                var value = 0
                var shift = 0
                repeat {
                    guard offset < av1C.count, shift < 56 else { return nil }
                    value |= Int(av1C[offset] & 0x7F) << shift
                    shift += 7
                    offset += 1
                } while av1C[offset - 1] & 0x80 != 0
                size = value
            }
            guard size >= 0, offset + size <= av1C.count else { return nil }
            if type == 1 { return sequenceHeaderSize(Array(av1C[offset..<(offset + size)])) }
            offset += size
        }
        return nil
    }

    /// `max_frame_width_minus_1 + 1` and `max_frame_height_minus_1 + 1` of a sequence header OBU (AV1 5.5.1).
    static func sequenceHeaderSize(_ obu: [UInt8]) -> (width: Int, height: Int)? {
        var reader = BitReader(obu)
        guard reader.skip(4), let reduced = reader.bits(1) else { return nil }
        if reduced == 1 {
            guard reader.skip(5) else { return nil }
        } else {
            guard let timing = reader.bits(1) else { return nil }
            var decoderModel = 0
            var bufferDelayLength = 0
            if timing == 1 {
                guard reader.skip(64), let equalInterval = reader.bits(1) else { return nil }
                if equalInterval == 1, reader.uvlc() == nil { return nil }
                guard let model = reader.bits(1) else { return nil }
                decoderModel = model
                if decoderModel == 1 {
                    guard let length = reader.bits(5), reader.skip(32 + 5 + 5) else { return nil }
                    bufferDelayLength = length + 1
                }
            }
            guard let displayDelay = reader.bits(1), let operatingPoints = reader.bits(5) else { return nil }
            for _ in 0...operatingPoints {
                guard reader.skip(12), let level = reader.bits(5) else { return nil }
                if level > 7, !reader.skip(1) { return nil }
                if decoderModel == 1 {
                    guard let present = reader.bits(1) else { return nil }
                    if present == 1, !reader.skip(2 * bufferDelayLength + 1) { return nil }
                }
                if displayDelay == 1 {
                    guard let present = reader.bits(1) else { return nil }
                    if present == 1, !reader.skip(4) { return nil }
                }
            }
        }
        guard let widthBits = reader.bits(4), let heightBits = reader.bits(4),
            let width = reader.bits(widthBits + 1), let height = reader.bits(heightBits + 1)
        else { return nil }
        return (width + 1, height + 1)
    }
}

/// Reads big-endian integers from bytes.
private struct ByteReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }
    init(_ buffer: UnsafeRawBufferPointer, _ range: Range<Int>) { self.bytes = Array(buffer[range]) }

    /// The next `size` (0 to 7) bytes as an unsigned integer (0 for a size of 0), or `nil` past the end.
    mutating func read(_ size: Int) -> Int? {
        guard size >= 0, size <= 7, position + size <= bytes.count else { return nil }
        var value = 0
        for _ in 0..<size {
            value = value << 8 | Int(bytes[position])
            position += 1
        }
        return value
    }

    /// Skips `count` bytes; `false` past the end.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count else { return false }
        position += count
        return true
    }

    /// The next four bytes as text (a box or item type).
    mutating func fourCC() -> String? {
        guard position + 4 <= bytes.count else { return nil }
        defer { position += 4 }
        return String(decoding: bytes[position..<(position + 4)], as: UTF8.self)
    }
}

/// Reads bits most significant first, with the two variable-length codes of HEVC and AV1.
private struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next `count` (at most 32) bits, or `nil` past the end.
    mutating func bits(_ count: Int) -> Int? {
        guard count >= 0, count <= 32, position + count <= bytes.count * 8 else { return nil }
        var value = 0
        for _ in 0..<count {
            value = value << 1 | Int(bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    /// Skips `count` bits; `false` past the end.
    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count * 8 else { return false }
        position += count
        return true
    }

    /// H.265's ue(v).
    mutating func exponentialGolomb() -> Int? {
        var zeros = 0
        while let bit = bits(1), bit == 0 {
            zeros += 1
            guard zeros <= 31 else { return nil }
        }
        guard let rest = bits(zeros) else { return nil }
        return (1 << zeros) - 1 + rest
    }

    /// AV1's uvlc().
    mutating func uvlc() -> Int? {
        var zeros = 0
        while let bit = bits(1), bit == 0 {
            zeros += 1
            guard zeros < 32 else { return Int(UInt32.max) }
        }
        guard let rest = bits(zeros) else { return nil }
        return rest + (1 << zeros) - 1
    }
}
