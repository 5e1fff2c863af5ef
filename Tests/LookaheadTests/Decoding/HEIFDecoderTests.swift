// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — HEIC and AVIF through libheif: size, colours, irot/imir, embedded thumbnails, hostile headers.

import Foundation
import Testing

@testable import Lookahead

#if canImport(CHeif)
import CHeif

@Suite struct HEIFDecoderTests {
    /// 64×32: the left quarter green, the rest red.
    private let stripe: [UInt8] = (0..<(64 * 32)).flatMap { index -> [UInt8] in
        index % 64 < 16 ? [20, 200, 20, 255] : [220, 30, 30, 255]
    }

    private func solid(_ color: [UInt8], _ width: Int, _ height: Int) -> [UInt8] {
        Array([[UInt8]](repeating: color, count: width * height).joined())
    }

    private func isGreen(_ pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> Bool {
        pixel.green > 150 && pixel.red < 90
    }

    private func isRed(_ pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> Bool {
        pixel.red > 150 && pixel.green < 90
    }

    @Test(arguments: [false, true]) func decodesHEICAndAVIFToTheirSizeAndColours(avif: Bool) throws {
        let data = TestHEIF.encode(rgba: stripe, width: 64, height: 32, avif: avif)
        #expect(ImageDecoders.HEIF().canDecode(data.prefix(32)))
        let image = try ImageDecoders.HEIF().decode(data, context: .init())
        #expect(image.width == 64 && image.height == 32)
        #expect(isGreen(image[4, 16]))
        #expect(isRed(image[48, 16]))
        #expect(image[48, 16].alpha == 255)
        // Through the default decoders: sniffed, not told.
        let (decoded, codec) = try ImageDecoders.decode(data, context: .init()).get()
        #expect(codec == "HEIF" && decoded.width == 64)
    }

    @Test func aQuarterTurnIsAppliedAndSwapsTheSize() throws {
        // irot: the stored picture turned 90° clockwise to be shown (EXIF orientation 6).
        let data = TestHEIF.encode(rgba: stripe, width: 64, height: 32, orientation: heif_orientation_rotate_90_cw)
        let image = try ImageDecoders.HEIF().decode(data, context: .init())
        #expect(image.width == 32 && image.height == 64)
        // The green left edge is now the top.
        #expect(isGreen(image[16, 4]))
        #expect(isRed(image[16, 50]))
    }

    @Test func aMirrorIsApplied() throws {
        let data = TestHEIF.encode(rgba: stripe, width: 64, height: 32, orientation: heif_orientation_flip_horizontally)
        let image = try ImageDecoders.HEIF().decode(data, context: .init())
        #expect(image.width == 64 && image.height == 32)
        #expect(isGreen(image[60, 16]))
        #expect(isRed(image[4, 16]))
    }

    @Test func aThumbnailRequestUsesTheEmbeddedThumbnailWhenItCoversTheTarget() throws {
        // The main image is red, the embedded 64-pixel thumbnail blue: the colour says which was decoded.
        let data = TestHEIF.encode(
            rgba: solid([220, 30, 30, 255], 256, 128),
            width: 256,
            height: 128,
            thumbnail: (solid([30, 30, 220, 255], 256, 128), 64)
        )
        let small = try ImageDecoders.decode(data, context: .init(thumbnail: .init(maximumPixelSize: 48))).get().image
        #expect(small.width == 48 && small.height == 24)
        #expect(small[24, 12].blue > 150 && small[24, 12].red < 90, "the thumbnail covers 48 px")
        let large = try ImageDecoders.decode(data, context: .init(thumbnail: .init(maximumPixelSize: 100))).get().image
        #expect(large.width == 100 && large.height == 50)
        #expect(isRed(large[50, 25]), "64 px does not cover 100 px: the full image")
        #expect(isRed(try ImageDecoders.HEIF().decode(data, context: .init())[10, 10]))
    }

    @Test func thePixelLimitIsCheckedBeforeDecoding() throws {
        let data = TestHEIF.encode(rgba: stripe, width: 64, height: 32)
        #expect {
            try ImageDecoders.HEIF().decode(data, context: .init(maximumPixelCount: 1_000))
        } throws: { error in
            (error as? ImageDecodingError)?.reason == .tooLarge(width: 64, height: 32, limit: 1_000)
        }
    }

    @Test func hugeDimensionsInTheHeaderFailBeforeAnyAllocation() throws {
        // Every `ispe` box (the coded image's and the shown one's) declares 20,000 × 20,000 (400 megapixels) for a
        // 64×32 picture.
        var bytes = [UInt8](TestHEIF.encode(rgba: stripe, width: 64, height: 32))
        let boxes = (0..<(bytes.count - 16)).filter { bytes[$0..<($0 + 4)].elementsEqual("ispe".utf8) }
        #expect(!boxes.isEmpty)
        for ispe in boxes {
            for offset in [ispe + 8, ispe + 12] {
                bytes[offset..<(offset + 4)] = [0, 0, UInt8(20_000 >> 8), UInt8(20_000 & 0xFF)][...]
            }
        }
        #expect {
            try ImageDecoders.HEIF().decode(Data(bytes), context: .init(maximumPixelCount: 64 << 20))
        } throws: { error in
            guard let error = error as? ImageDecodingError else { return false }
            // Refused from the boxes, before libheif decodes (or allocates) anything.
            return error.reason == .tooLarge(width: 20_000, height: 20_000, limit: 64 << 20)
        }
    }

    @Test func aGridLargerThanItsBoxesSayFailsBeforeDecoding() throws {
        // Found by fuzzing: libheif wraps a 24×16 picture (coded as 64×64) in a grid that crops it; a grid whose
        // output size says 14,000 × 20,000 behind an `ispe` of 24×16 made libheif allocate 2.8 GB.
        var bytes = [UInt8](TestHEIF.encode(rgba: solid([200, 30, 30, 255], 24, 16), width: 24, height: 16))
        // As written, the grid decodes whole to its output size.
        let whole = try ImageDecoders.HEIF().decode(Data(bytes), context: .init())
        #expect(whole.width == 24 && whole.height == 16 && isRed(whole[20, 12]))
        let idat = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("idat".utf8) })
        let grid = idat + 4  // version, flags, rows - 1, columns - 1, output width, output height (16 bits each)
        #expect(bytes[grid + 1] & 1 == 0)
        #expect(Array(bytes[(grid + 4)..<(grid + 8)]) == [0, 24, 0, 16])
        bytes[(grid + 4)..<(grid + 8)] = [0x36, 0xB0, 0x4E, 0x20][...]  // 14,000 × 20,000
        #expect {
            try ImageDecoders.HEIF().decode(Data(bytes), context: .init(maximumPixelCount: 64 << 20))
        } throws: { error in
            (error as? ImageDecodingError)?.reason == .tooLarge(width: 14_000, height: 20_000, limit: 64 << 20)
        }
    }

    @Test func aGridNamingItselfAsItsTileIsFoundBeforeLibheifReadsIt() throws {
        let tile = TestHEIFGrid.tile(rgba: solid([30, 30, 220, 255], 64, 64), width: 64, height: 64)
        var bytes = [UInt8](TestHEIFGrid.grid(tiles: [tile], columns: 1, rows: 1, width: 64, height: 64))
        #expect(HEIFCodedSizes.inspect(Data(bytes)).referencesAreBounded)
        let dimg = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("dimg".utf8) })
        // From the grid (item 2), one reference (version 0: 16-bit IDs), to the tile (item 1).
        #expect(Array(bytes[(dimg + 4)..<(dimg + 10)]) == [0, 2, 0, 1, 0, 1])
        bytes[dimg + 9] = 2  // the tile is the grid itself
        #expect(!HEIFCodedSizes.inspect(Data(bytes)).referencesAreBounded)
        #expect(throws: ImageDecodingError.self) { try ImageDecoders.HEIF().decode(Data(bytes), context: .init()) }
    }

    @Test func aChainOfReferencesIsBoundedUpToItsDepthLimit() {
        // `meta` holding only an `iref` (version 0): item 1 → 2 → … → `items`, one `dimg` box per link.
        func file(chainOf items: Int) -> Data {
            func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
                let size = UInt32(8 + payload.count)
                return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                    + Array(type.utf8) + payload
            }
            func id(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
            let links = (1..<items).flatMap { box("dimg", id($0) + [0, 1] + id($0 + 1)) }
            let meta = box("meta", [0, 0, 0, 0] + box("iref", [0, 0, 0, 0] + links))
            return Data(box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)) + meta)
        }
        let limit = HEIFCodedSizes.maximumReferenceDepth
        #expect(HEIFCodedSizes.inspect(file(chainOf: 2)).referencesAreBounded)
        #expect(HEIFCodedSizes.inspect(file(chainOf: limit)).referencesAreBounded)
        #expect(!HEIFCodedSizes.inspect(file(chainOf: limit + 1)).referencesAreBounded)
        #expect(!HEIFCodedSizes.inspect(file(chainOf: 10_000)).referencesAreBounded)
    }

    @Test func theFuzzedFileWhoseGridIsItsOwnTileFailsWithATypedError() throws {
        // The input the fuzz smoke run found (853 bytes): a grid, the primary item, whose one `dimg` reference names
        // itself. libheif overflowed its stack reading it.
        let base64 = """
            AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAeFtZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAA
            AA5waXRtAAAAAAACAAAAEGlkYXQAAAAAABgAEAAAAExpbG9jAQAAAERAAAMAAQAAAAAAAAIFAAEAAAAAAAAAYwACAAEAAAAAAAAA
            AQAAAAAAAAAIAAMAAAAAAAACaAABAAAAAAAAAB4AAABNaWluZgAAAAAAAwAAABVpbmZlAgAAAQABAABodmMxAAAAABVpbmZlAgAA
            AAACAABncmlkAAAAABVpbmZlAgAAAQADAABFeGlmAAAAANVpcHJwAAAAs2lwY28AAABzaHZjQwEDcAAAAAAAAAAAAB7wAPz9+PgA
            AA8DIAABABhAAQwB//8DcAAAAwCQAAADAAADAB66AkAhAAEAJ0IBAQNwAAADAJAAAAMAAAMAHqAggQWW6q6a5sCAAAADAIAAAAMA
            hCIAAQAGRAHBc8GJAAAAFGlzcGUAAAAAAAAAQAAAAEAAAAAUaXNwZQAAAAAAAAAYAAAAEAAAABBwaXhpAAAAAAMICAgAAAAaaXBt
            YQAAAAAAAAACAAECgQIAAgIDhAAAAChpcmVmAAAAAAAAAA5kaW1nAAIAAQACAAAADmNkc2MAAwABAAIAAACJbWRhdAAAAF8oAY8J
            yG2QGj3sY5bnPIN3YL84ZE5sdGOVM1tudkqU95nOAAAAAgAAZ3JpZAAAAAAVaW5mZQIAAAEAAwAARXhpZgAAAADVaXBycAAAALNp
            cGNvAAAAc2h2Y0MBA3AAAAAAAAAAAAAe8AD8/fj4AAAPAyAAAQAYQAEMAf//A3AAAAMAkAAAAwAAAwAeugJAIQABACdCAQEDcAAA
            AwCQAAADAAADAB6gIIEFluqumubAgAAAAwCAAAADAIQiAAEABkQBwXPBiQAAABRpc3BlAAAAAAAAAEAAAABAAAAAFGlzcGUAAAAA
            AAAAGAAAABAAAAAQs8mHa/GHNGkJIWGh5w3st0+3nFQH/TcluhEnP0D9VaoR+btGTzXKLN2gkKgB+uPrlul4b6BQMxiIydZG7gAA
            AABNTQAqAAAACAABARIAAwAAAAEABQAAAAAAAA==
            """
        let data = try #require(Data(base64Encoded: base64.filter { !$0.isWhitespace }))
        #expect(!HEIFCodedSizes.inspect(data).referencesAreBounded)
        let context = ImageDecodingContext(
            thumbnail: ThumbnailOptions(maximumPixelSize: 32),
            maximumPixelCount: 4_000_000
        )
        #expect(throws: ImageDecodingError.self) { try ImageDecoders.HEIF().decode(data, context: context) }
        #expect(throws: ImagePipeline.Error.self) { try ImageDecoders.decode(data, context: context).get() }
        #expect(ImageDecoders.metadata(of: data)?.format == "HEIF")
    }

    @Test(arguments: [false, true]) func theCodedSizesAreReadFromTheDecoderConfigurations(avif: Bool) throws {
        let data = TestHEIF.encode(rgba: stripe, width: 64, height: 32, avif: avif)
        let sizes = try #require(HEIFCodedSizes.inspect(data).sizes)
        #expect(!sizes.isEmpty)
        // The coded picture covers the image (HEVC pads to its coding blocks).
        #expect(sizes.allSatisfy { $0.width >= 64 && $0.height >= 32 && $0.width * $0.height <= 128 * 128 })
    }

    @Test(arguments: [0.1, 0.5, 0.9]) func truncatedFilesFailWithATypedError(fraction: Double) throws {
        let data = TestHEIF.encode(rgba: stripe, width: 64, height: 32)
        let cut = data.prefix(Int(Double(data.count) * fraction))
        #expect(throws: ImageDecodingError.self) { try ImageDecoders.HEIF().decode(Data(cut), context: .init()) }
    }

    @Test func otherISOMediaFilesAreNotTakenForHEIF() {
        func ftyp(_ brands: String...) -> Data {
            var bytes: [UInt8] = [0, 0, 0, UInt8(8 + 4 * (brands.count + 1)), 0x66, 0x74, 0x79, 0x70]
            bytes += Array(brands[0].utf8) + [0, 0, 0, 0]
            for brand in brands.dropFirst() { bytes += Array(brand.utf8) }
            return Data(bytes + [UInt8](repeating: 0, count: 8))
        }
        #expect(!ImageDecoders.HEIF().canDecode(ftyp("isom", "iso2", "mp41")))
        #expect(!ImageDecoders.HEIF().canDecode(ftyp("qt  ")))
        #expect(ImageDecoders.HEIF().canDecode(ftyp("mif1", "heic")))
        #expect(ImageDecoders.HEIF().canDecode(ftyp("avif")))
        #expect(ImageDecoders.HEIF().canDecode(ftyp("msf1", "iso8", "avis")))
    }
}
#endif
