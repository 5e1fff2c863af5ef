// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — HEICs laid out as iPhones write them (a grid of hidden HEVC tiles, cropped, an `irot`, a `thmb`
// thumbnail), assembled box by box from tiles libheif encodes, since libheif 1.15 cannot write a multi-tile grid.

import Foundation

#if canImport(CHeif)
enum TestHEIFGrid {
    /// One coded HEVC picture: its decoder configuration box (`hvcC`, header included) and its data (NAL units with
    /// 4-byte lengths).
    struct Tile {
        let hvcC: [UInt8]
        let data: [UInt8]
        let width: Int
        let height: Int
    }

    /// Encodes a picture with libheif and takes its `hvcC` box and item data out of the file.
    static func tile(rgba: [UInt8], width: Int, height: Int) -> Tile {
        let file = [UInt8](
            TestHEIF.encode(rgba: rgba, width: width, height: height, cropsWithAGrid: false, savesAlpha: false)
        )
        var hvcC: [UInt8]?
        var extent: Range<Int>?
        var items: [String] = []
        walk(file, 0..<file.count) { type, range in
            switch type {
            case "hvcC": hvcC = hvcC ?? Array(file[range])
            case "iloc": extent = firstExtent(file, ilocFields: (range.lowerBound + 12)..<range.upperBound)
            case "infe":
                items.append(String(decoding: file[(range.lowerBound + 16)..<(range.lowerBound + 20)], as: UTF8.self))
            default: break
            }
        }
        guard items == ["hvc1"], let hvcC, let extent else {
            fatalError("expected one hvc1 item, found \(items) in \(file.count) bytes")
        }
        return Tile(hvcC: hvcC, data: Array(file[extent]), width: width, height: height)
    }

    /// A HEIC whose primary image is a `grid` of `columns` × `rows` tiles (given row by row, hidden, as iPhones mark
    /// them), shown at `width` × `height` (at most the tiles' extent: the right and bottom tiles are cropped), turned by
    /// `rotation` quarter turns anticlockwise (`irot`), with `thumbnail` attached by a `thmb` reference.
    static func grid(
        tiles: [Tile],
        columns: Int,
        rows: Int,
        width: Int,
        height: Int,
        rotation: Int = 0,
        thumbnail: Tile? = nil
    ) -> Data {
        precondition(tiles.count == columns * rows)
        let tileIDs = Array(1...tiles.count)
        let gridID = tiles.count + 1
        let thumbnailID = gridID + 1
        let gridData: [UInt8] = [0, 0, UInt8(rows - 1), UInt8(columns - 1)] + be16(width) + be16(height)

        // Properties, numbered from 1 in `ipco`; identical boxes are stored once, as iPhones share one `hvcC`.
        var properties: [[UInt8]] = []
        func property(_ box: [UInt8]) -> Int {
            if let index = properties.firstIndex(of: box) { return index + 1 }
            properties.append(box)
            return properties.count
        }
        func ispe(_ width: Int, _ height: Int) -> [UInt8] { fullBox("ispe", be32(width) + be32(height)) }
        var associations: [(id: Int, properties: [(index: Int, essential: Bool)])] = []
        for (id, tile) in zip(tileIDs, tiles) {
            associations.append(
                (id, [(property(tile.hvcC), true), (property(ispe(tile.width, tile.height)), false)])
            )
        }
        var gridProperties = [(property(ispe(width, height)), false)]
        if rotation != 0 { gridProperties.append((property(box("irot", [UInt8(rotation & 3)])), true)) }
        associations.append((gridID, gridProperties))
        if let thumbnail {
            associations.append(
                (
                    thumbnailID,
                    [(property(thumbnail.hvcC), true), (property(ispe(thumbnail.width, thumbnail.height)), false)]
                )
            )
        }

        // Item data in `mdat`, in item order: the tiles, the grid, the thumbnail.
        let payloads: [(id: Int, bytes: [UInt8])] =
            zip(tileIDs, tiles.map(\.data)).map { ($0, $1) } + [(gridID, gridData)]
            + (thumbnail.map { [(thumbnailID, $0.data)] } ?? [])

        func meta(dataStart: Int) -> [UInt8] {
            var offset = dataStart
            var locations: [UInt8] = [0x44, 0x00] + be16(payloads.count)  // 4-byte offsets and lengths, no base
            for payload in payloads {
                locations += be16(payload.id) + be16(0) + be16(1) + be32(offset) + be32(payload.bytes.count)
                offset += payload.bytes.count
            }
            var entries: [UInt8] = []
            for id in tileIDs {
                entries += fullBox("infe", version: 2, flags: 1, be16(id) + be16(0) + Array("hvc1\0".utf8))
            }
            entries += fullBox("infe", version: 2, be16(gridID) + be16(0) + Array("grid\0".utf8))
            if thumbnail != nil {
                entries += fullBox("infe", version: 2, be16(thumbnailID) + be16(0) + Array("hvc1\0".utf8))
            }
            var references = box("dimg", be16(gridID) + be16(tileIDs.count) + tileIDs.flatMap(be16))
            if thumbnail != nil { references += box("thmb", be16(thumbnailID) + be16(1) + be16(gridID)) }
            var mapping: [UInt8] = be32(associations.count)
            for association in associations {
                mapping += be16(association.id) + [UInt8(association.properties.count)]
                mapping += association.properties.map { UInt8($0.index) | ($0.essential ? 0x80 : 0) }
            }
            return fullBox(
                "meta",
                fullBox("hdlr", be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
                    + fullBox("pitm", be16(gridID))
                    + fullBox("iloc", locations)
                    + fullBox("iinf", be16(tileIDs.count + 1 + (thumbnail == nil ? 0 : 1)) + entries)
                    + fullBox("iref", references)
                    + box("iprp", box("ipco", properties.flatMap { $0 }) + fullBox("ipma", mapping))
            )
        }
        let ftyp = box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8))
        // The offsets are fixed-size fields: the box's size does not depend on their values.
        let metaSize = meta(dataStart: 0).count
        let mdat = box("mdat", payloads.flatMap(\.bytes))
        return Data(ftyp + meta(dataStart: ftyp.count + metaSize + 8) + mdat)
    }

    // MARK: - Boxes

    private static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    private static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value & 0xFFFF) }

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(8 + payload.count) + Array(type.utf8) + payload
    }

    private static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(be32(flags).dropFirst()) + payload)
    }

    /// Calls `visit` with every box's type and whole range, descending into the boxes that hold boxes.
    private static func walk(_ bytes: [UInt8], _ range: Range<Int>, _ visit: (String, Range<Int>) -> Void) {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let size =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard size >= 8, offset + size <= range.upperBound else { return }
            visit(type, offset..<(offset + size))
            switch type {
            case "meta": walk(bytes, (offset + 12)..<(offset + size), visit)
            case "iinf": walk(bytes, (offset + (bytes[offset + 8] == 0 ? 14 : 16))..<(offset + size), visit)
            case "iprp", "ipco": walk(bytes, (offset + 8)..<(offset + size), visit)
            default: break
            }
            offset += size
        }
    }

    /// The first extent of the first item an `iloc` box lists (ISO/IEC 14496-12 8.11.3), as a file range; `range`
    /// starts after the box's version and flags.
    private static func firstExtent(_ bytes: [UInt8], ilocFields range: Range<Int>) -> Range<Int>? {
        var position = range.lowerBound
        func read(_ count: Int) -> Int {
            defer { position += count }
            return bytes[position..<(position + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        let version = bytes[position - 4]
        let (offsetSize, lengthSize) = (Int(bytes[position] >> 4), Int(bytes[position] & 15))
        let baseSize = Int(bytes[position + 1] >> 4)
        let indexSize = version >= 1 ? Int(bytes[position + 1] & 15) : 0
        position += 2
        guard read(version < 2 ? 2 : 4) >= 1 else { return nil }
        _ = read(version < 2 ? 2 : 4)  // item ID
        if version >= 1, read(2) & 15 != 0 { return nil }  // only data in the file
        _ = read(2)  // data reference index
        let base = read(baseSize)
        guard read(2) >= 1 else { return nil }
        _ = read(indexSize)
        let offset = base + read(offsetSize)
        let length = read(lengthSize)
        return offset..<(offset + length)
    }
}
#endif
