// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — EXIF orientation in PNG (`eXIf`) and WebP (`EXIF`), not only JPEG: files written here with libspng
// and libwebpmux, carrying a TIFF orientation tag.

import Foundation
import Testing

@testable import Lookahead

#if canImport(CSPNG) && canImport(CWebP)
import CSPNG
import CWebP

@Suite struct OrientationEverywhereTests {
    /// 40×20: the left quarter green, the rest red.
    private let stripe: [UInt8] = (0..<(40 * 20)).flatMap { index -> [UInt8] in
        index % 40 < 10 ? [20, 200, 20, 255] : [220, 30, 30, 255]
    }

    /// TIFF data with one IFD entry: the orientation; with the `Exif\0\0` header when `prefixed`.
    private func tiff(orientation: Int, prefixed: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1]
        bytes += [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0]
        bytes += [0, 0, 0, 0]
        return (prefixed ? Array("Exif".utf8) + [0, 0] : []) + bytes
    }

    /// A PNG of `stripe` with an `eXIf` chunk, written by libspng.
    private func png(exif: [UInt8]) throws -> Data {
        try TestPNG.encode(rgba: stripe, width: 40, height: 20) { context in
            var payload = exif.map { CChar(bitPattern: $0) }
            return payload.withUnsafeMutableBufferPointer { buffer -> Int32 in
                var chunk = spng_exif(length: buffer.count, data: buffer.baseAddress)
                return spng_set_exif(context, &chunk)
            }
        }
    }

    /// A lossless WebP of `stripe` with an `EXIF` chunk, assembled by libwebpmux.
    private func webp(exif: [UInt8]) throws -> Data {
        let still = TestEncoders.webp(rgba: stripe, width: 40, height: 20, lossless: true)
        return try still.withUnsafeBytes { raw in
            var image = WebPData(bytes: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), size: raw.count)
            let mux = try #require(WebPMuxCreate(&image, 1))
            defer { WebPMuxDelete(mux) }
            try exif.withUnsafeBufferPointer { bytes in
                var chunk = WebPData(bytes: bytes.baseAddress, size: bytes.count)
                try #require(WebPMuxSetChunk(mux, "EXIF", &chunk, 1) == WEBP_MUX_OK)
            }
            var output = WebPData()
            try #require(WebPMuxAssemble(mux, &output) == WEBP_MUX_OK)
            defer { WebPDataClear(&output) }
            return Data(bytes: output.bytes, count: output.size)
        }
    }

    private func isGreen(_ pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)) -> Bool {
        pixel.green > 150 && pixel.red < 90
    }

    @Test func aPNGWithAnEXIfChunkIsShownUpright() throws {
        // PNG's eXIf holds bare TIFF data (libspng refuses the `Exif\0\0` header, as the specification does).
        let data = try png(exif: tiff(orientation: 6))
        let image = try ImageDecoders.PNG().decode(data, context: .init())
        // Orientation 6: turned 90° clockwise. The green left edge becomes the top.
        #expect(image.width == 20 && image.height == 40)
        #expect(isGreen(image[10, 3]))
        #expect(!isGreen(image[10, 30]))
    }

    @Test(arguments: [false, true]) func aWebPWithAnEXIFChunkIsShownUpright(prefixed: Bool) throws {
        let data = try webp(exif: tiff(orientation: 6, prefixed: prefixed))
        let image = try ImageDecoders.WebP().decode(data, context: .init())
        #expect(image.width == 20 && image.height == 40)
        #expect(isGreen(image[10, 3]))
        #expect(!isGreen(image[10, 30]))
    }

    @Test func aMirroredWebPThumbnailIsMirroredAndFitsItsBox() throws {
        let data = try webp(exif: tiff(orientation: 2))
        let image = try ImageDecoders.decode(data, context: .init(thumbnail: .init(maximumPixelSize: 20))).get().image
        #expect(image.width == 20 && image.height == 10)
        #expect(isGreen(image[18, 5]))
        #expect(!isGreen(image[2, 5]))
    }

    @Test func aTurnedWebPThumbnailIsComputedOnTheShownSize() throws {
        // Shown as 20×40: a 10-wide box gives 10×20, not 10×5.
        let data = try webp(exif: tiff(orientation: 8))
        let context = ImageDecodingContext(thumbnail: ThumbnailOptions(width: 10, height: 40, contentMode: .aspectFit))
        let image = try ImageDecoders.decode(data, context: context).get().image
        #expect(image.width == 10 && image.height == 20)
    }

    @Test func metadataReportsTheOrientation() throws {
        #expect(ImageDecoders.metadata(of: try png(exif: tiff(orientation: 6)))?.orientation == .right)
        #expect(ImageDecoders.metadata(of: try webp(exif: tiff(orientation: 8)))?.orientation == .left)
        let plain = TestEncoders.webp(rgba: stripe, width: 40, height: 20, lossless: true)
        #expect(ImageDecoders.metadata(of: plain) == ImageMetadata(format: "WebP"))
    }

    @Test func malformedEXIFIsIgnored() throws {
        let data = try png(exif: [0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xFF])
        let image = try ImageDecoders.PNG().decode(data, context: .init())
        #expect(image.width == 40 && image.height == 20)
        #expect(ExifOrientation.exifPayload([]) == .up)
        #expect(ExifOrientation.exifPayload(Array("Exif".utf8)) == .up)
    }
}
#endif
