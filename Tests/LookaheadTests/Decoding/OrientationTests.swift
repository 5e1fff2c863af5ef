// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — EXIF orientations 1–8 come out upright, for full decodes and thumbnails.

#if canImport(CTurboJPEG)
import Foundation
import Testing
@testable import Lookahead

@Suite struct OrientationTests {
    /// An upright 48×32 image: a red block in the top-left corner, a blue block top-right, grey elsewhere.
    static let upright: Bitmap = {
        var pixels = [UInt8]()
        for y in 0..<32 {
            for x in 0..<48 {
                if y < 12, x < 16 {
                    pixels += [230, 20, 20, 255]
                } else if y < 12, x >= 32 {
                    pixels += [20, 20, 230, 255]
                } else {
                    pixels += [128, 128, 128, 255]
                }
            }
        }
        return Bitmap(width: 48, height: 32, pixels: pixels)
    }()

    /// The stored pixels for an orientation: the inverse transform of the upright image.
    private func stored(for orientation: ExifOrientation) -> Bitmap {
        let inverse: ExifOrientation =
            switch orientation {
            case .right: .left
            case .left: .right
            default: orientation
            }
        return Self.upright.applying(inverse)
    }

    private func jpeg(_ bitmap: Bitmap, orientation: ExifOrientation, bigEndian: Bool) -> Data {
        var rgb = [UInt8]()
        for index in stride(from: 0, to: bitmap.pixels.count, by: 4) { rgb += bitmap.pixels[index..<(index + 3)] }
        let plain = TestImages.encode(pixels: rgb, width: bitmap.width, height: bitmap.height, quality: 98)
        return TestEncoders.insertingExifOrientation(orientation.rawValue, into: plain, bigEndian: bigEndian)
    }

    @Test(arguments: ExifOrientation.allCases, [false, true])
    func everyOrientationComesOutUpright(orientation: ExifOrientation, bigEndian: Bool) throws {
        let data = jpeg(stored(for: orientation), orientation: orientation, bigEndian: bigEndian)
        #expect(ExifOrientation.jpeg(data) == orientation)
        let bitmap = try ImageDecoders.JPEG().decode(data, context: .init())
        #expect(bitmap.width == 48 && bitmap.height == 32)
        #expect(bitmap[4, 4].red > 180 && bitmap[4, 4].blue < 70, "top-left must be red")
        #expect(bitmap[43, 4].blue > 180 && bitmap[43, 4].red < 70, "top-right must be blue")
        #expect(abs(Int(bitmap[24, 28].red) - 128) < 20, "bottom must be grey")
    }

    @Test(arguments: [ExifOrientation.right, .leftMirrored]) func thumbnailsOfRotatedImagesAreUpright(
        orientation: ExifOrientation
    ) throws {
        let data = jpeg(stored(for: orientation), orientation: orientation, bigEndian: false)
        let decoded = try ImageDecoders.decode(data, context: .init(thumbnail: .init(maximumPixelSize: 24))).get()
        #expect(decoded.image.width == 24 && decoded.image.height == 16)
        #expect(decoded.image[2, 2].red > 150)
    }

    @Test func malformedExifIsIgnored() {
        var bytes = [UInt8](TestEncoders.insertingExifOrientation(6, into: [UInt8](TestImages.jpeg)))
        bytes[24] = 0xFF  // the IFD offset now points far outside the segment
        bytes[25] = 0xFF
        #expect(ExifOrientation.jpeg(Data(bytes)) == .up)
        #expect(ExifOrientation.jpeg(Data([0xFF, 0xD8, 0xFF, 0xE1, 0x00])) == .up)
    }
}
#endif
