// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — HEIFs as cameras and encoders write them: iPhone-shaped multi-tile grids (cropped, turned, with a
// thumbnail), 10-bit HEIC and AVIF, and transparency.

import Foundation
import Testing

@testable import Lookahead

#if canImport(CHeif)
import CHeif

@Suite struct HEIFLayoutTests {
    private typealias Pixel = (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)

    /// Six colours far apart, one per tile, row by row.
    private static let colours: [[UInt8]] = [
        [220, 30, 30], [30, 200, 30], [30, 30, 220], [220, 220, 30], [30, 200, 200], [200, 30, 200],
    ]

    private func solid(_ colour: [UInt8], _ width: Int, _ height: Int) -> [UInt8] {
        Array([[UInt8]](repeating: colour + [255], count: width * height).joined())
    }

    /// The index of the tile colour nearest to a pixel.
    private func nearest(_ pixel: Pixel) -> Int {
        let distances = Self.colours.map { colour in
            abs(Int(pixel.red) - Int(colour[0])) + abs(Int(pixel.green) - Int(colour[1]))
                + abs(Int(pixel.blue) - Int(colour[2]))
        }
        return distances.firstIndex(of: distances.min()!)!
    }

    /// Three columns and two rows of 64×64 tiles, shown at 180×120: the right column and the bottom row are cropped,
    /// as an iPhone's 4032×3024 photo crops its 8×6 tiles of 512 pixels.
    private func iPhoneShapedGrid(rotation: Int = 0, thumbnail: TestHEIFGrid.Tile? = nil) -> Data {
        let tiles = Self.colours.map { TestHEIFGrid.tile(rgba: solid($0, 64, 64), width: 64, height: 64) }
        return TestHEIFGrid.grid(
            tiles: tiles,
            columns: 3,
            rows: 2,
            width: 180,
            height: 120,
            rotation: rotation,
            thumbnail: thumbnail
        )
    }

    /// A point well inside each tile's visible part, row by row.
    private let tileCentres = [(32, 32), (96, 32), (150, 32), (32, 90), (96, 90), (150, 90)]

    @Test func aGridOfTilesDecodesWholeInItsOrderAndCropped() throws {
        let data = iPhoneShapedGrid()
        let (image, codec) = try ImageDecoders.decode(data, context: .init()).get()
        #expect(codec == "HEIF")
        #expect(image.width == 180 && image.height == 120)
        for (tile, centre) in tileCentres.enumerated() {
            #expect(nearest(image[centre.0, centre.1]) == tile, "tile \(tile) at \(centre)")
        }
        // The cropped corner belongs to the last tile.
        #expect(nearest(image[179, 119]) == 5)
        // What the decoders will allocate for: the grid's canvas and the tiles' coded pictures, all within bounds.
        let sizes = try #require(HEIFCodedSizes.inspect(data).sizes)
        #expect(sizes.contains { $0.width == 180 && $0.height == 120 })
        #expect(sizes.contains { $0.width >= 64 && $0.height >= 64 && $0.width * $0.height <= 128 * 128 })
        #expect(ImageDecoders.metadata(of: data)?.format == "HEIF")
    }

    @Test func aTurnedGridIsShownUpright() throws {
        // `irot` 1: a quarter turn anticlockwise, as a portrait photo taken with the phone turned is stored.
        let image = try ImageDecoders.HEIF().decode(iPhoneShapedGrid(rotation: 1), context: .init())
        #expect(image.width == 120 && image.height == 180)
        // A point (x, y) of the grid is shown at (y, 179 − x).
        for (tile, centre) in tileCentres.enumerated() {
            #expect(nearest(image[centre.1, 179 - centre.0]) == tile, "tile \(tile)")
        }
    }

    @Test func aThumbnailRequestOfAGridDecodesItsThumbnailOnly() throws {
        // The thumbnail is white: its colour says which picture was decoded.
        let thumbnail = TestHEIFGrid.tile(rgba: solid([240, 240, 240], 96, 64), width: 96, height: 64)
        let data = iPhoneShapedGrid(thumbnail: thumbnail)
        let small = try ImageDecoders.decode(data, context: .init(thumbnail: .init(maximumPixelSize: 80))).get().image
        #expect(small.width == 80 && small.height == 53, "\(small.width)×\(small.height)")
        let pixel = small[40, 26]
        #expect(pixel.red > 200 && pixel.green > 200 && pixel.blue > 200, "the 96×64 thumbnail covers 80 px")
        let large = try ImageDecoders.decode(data, context: .init(thumbnail: .init(maximumPixelSize: 120))).get().image
        #expect(large.width == 120 && large.height == 80)
        #expect(nearest(large[16, 16]) == 0, "96 px does not cover 120 px: the grid is decoded")
    }

    @Test func aThumbnailWhoseCodedPictureIsAnotherShapeIsNotUsed() throws {
        // libheif's x265 plugin codes pictures of at least 64×64: a 48×32 thumbnail is coded 64×64 and cropped by a
        // box this file leaves out, so its `ispe` claims 48×32 while it decodes square. The grid is decoded instead.
        let thumbnail = TestHEIFGrid.tile(rgba: solid([240, 240, 240], 48, 32), width: 48, height: 32)
        let data = iPhoneShapedGrid(thumbnail: thumbnail)
        let small = try ImageDecoders.decode(data, context: .init(thumbnail: .init(maximumPixelSize: 40))).get().image
        #expect(small.width == 40 && small.height == 27, "\(small.width)×\(small.height)")
        #expect(nearest(small[5, 5]) == 0)
        #expect(nearest(small[35, 22]) == 5)
    }

    @Test func aGridOverThePixelLimitFailsBeforeDecoding() {
        #expect {
            try ImageDecoders.HEIF().decode(iPhoneShapedGrid(), context: .init(maximumPixelCount: 180 * 120 - 1))
        } throws: { error in
            (error as? ImageDecodingError)?.reason == .tooLarge(width: 180, height: 120, limit: 180 * 120 - 1)
        }
    }

    @Test(arguments: [0.3, 0.6, 0.95]) func aGridCutShortFailsWithATypedError(fraction: Double) {
        let data = iPhoneShapedGrid()
        #expect(throws: ImageDecodingError.self) {
            try ImageDecoders.HEIF().decode(Data(data.prefix(Int(Double(data.count) * fraction))), context: .init())
        }
    }

    @Test func tenBitHEICsDecodeToTheirColours() throws {
        // 64×32: the left half orange, the right half a dark blue; 10 bits a sample in the file, as iPhones write HDR
        // photos. (A 10-bit AVIF cannot be made here: libaom 3.6 asserts when libheif 1.15 asks for one.)
        let rgba = (0..<(64 * 32)).flatMap { $0 % 64 < 32 ? [240, 140, 20, 255] : [20, 40, 120, 255] as [UInt8] }
        let data = TestHEIF.encode(rgba: rgba, width: 64, height: 32, bitDepth: 10)
        let depth = data.withUnsafeBytes { raw -> Int32 in
            guard let context = heif_context_alloc() else { return 0 }
            defer { heif_context_free(context) }
            var handle: OpaquePointer?
            guard
                heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil).code
                    == heif_error_Ok, heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok
            else { return 0 }
            defer { heif_image_handle_release(handle) }
            return heif_image_handle_get_luma_bits_per_pixel(handle)
        }
        #expect(depth == 10)
        let image = try ImageDecoders.HEIF().decode(data, context: .init())
        #expect(image.width == 64 && image.height == 32)
        func close(_ pixel: Pixel, _ expected: [Int]) -> Bool {
            abs(Int(pixel.red) - expected[0]) <= 12 && abs(Int(pixel.green) - expected[1]) <= 12
                && abs(Int(pixel.blue) - expected[2]) <= 12 && pixel.alpha == 255
        }
        #expect(close(image[12, 16], [240, 140, 20]), "\(image[12, 16])")
        #expect(close(image[52, 16], [20, 40, 120]), "\(image[52, 16])")
    }

    @Test(arguments: [false, true]) func transparencyIsKept(avif: Bool) throws {
        // The left half opaque green, the right half fully transparent: libheif stores alpha as an auxiliary image.
        let rgba = (0..<(64 * 32)).flatMap { $0 % 64 < 32 ? [30, 200, 30, 255] : [0, 0, 0, 0] as [UInt8] }
        let data = TestHEIF.encode(rgba: rgba, width: 64, height: 32, avif: avif)
        let image = try ImageDecoders.HEIF().decode(data, context: .init())
        #expect(image[10, 16].alpha > 240 && image[10, 16].green > 150)
        #expect(image[54, 16].alpha < 16)
    }
}
#endif
