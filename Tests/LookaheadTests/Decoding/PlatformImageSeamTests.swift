// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — the seam between the pipeline and its image type: what a decoder returns at the target size is
// kept as it is (ImageIO's case on Apple platforms), a larger one is resampled, and processors see pixels.

import Foundation
import Testing

@testable import Lookahead

/// A decoder that returns a fixed bitmap for any data starting with "SEAM".
private struct FixedDecoder: ImageDecoding {
    let name = "Fixed"
    let bitmap: Bitmap
    func canDecode(_ header: Data) -> Bool { header.starts(with: Array("SEAM".utf8)) }
    func decode(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> PlatformImage {
        PlatformImage.make(from: bitmap)
    }
}

/// A checkerboard: any resampling filter would blur it into greys.
private func checkerboard(width: Int, height: Int) -> Bitmap {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width where (x + y) % 2 == 0 {
            let offset = (y * width + x) * 4
            pixels[offset] = 0
            pixels[offset + 1] = 0
            pixels[offset + 2] = 0
        }
    }
    return Bitmap(width: width, height: height, pixels: pixels)
}

@Suite struct PlatformImageSeamTests {
    @Test func anImageAlreadyAtTheThumbnailSizeIsNotResampled() throws {
        let board = checkerboard(width: 64, height: 48)
        let decoder = FixedDecoder(bitmap: board)
        let context = ImageDecodingContext(thumbnail: ThumbnailOptions(maximumPixelSize: 64))
        let image = try ImageDecoders.decode(Data("SEAM".utf8), with: [decoder], context: context).get().image
        #expect(image.pixelWidth == 64 && image.pixelHeight == 48)
        #expect(image.makeBitmap() == board)
    }

    @Test func aLargerImageIsResampledToTheExactTarget() throws {
        let decoder = FixedDecoder(bitmap: checkerboard(width: 130, height: 97))
        let context = ImageDecodingContext(thumbnail: ThumbnailOptions(maximumPixelSize: 64))
        let image = try ImageDecoders.decode(Data("SEAM".utf8), with: [decoder], context: context).get().image
        #expect(image.pixelWidth == 64 && image.pixelHeight == 48)
        // Resampled: the checkerboard is now an even grey.
        let pixel = try #require(image.makeBitmap())[10, 10]
        #expect((100...160).contains(Int(pixel.red)))
    }

    @Test func costIsTheDecodedBytes() {
        let image = PlatformImage.make(from: checkerboard(width: 30, height: 20))
        #expect(image.decodedCost == 30 * 20 * 4)
    }
}
