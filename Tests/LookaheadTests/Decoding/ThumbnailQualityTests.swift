// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — thumbnails as a thumbnail request decodes them (DCT scaling, then the resampler): exact sizes,
// values close to the source's, no aliasing, the cheaper filter only for small reductions, EXIF orientation.

#if canImport(CTurboJPEG)
import Foundation
import Testing

@testable import Lookahead

@Suite struct ThumbnailQualityTests {
    private func thumbnail(_ jpeg: Data, side: Int) throws -> Bitmap {
        try ImageDecoders.decode(jpeg, context: .init(thumbnail: .init(maximumPixelSize: side))).get().image
    }

    @Test func aGradientThumbnailHasTheExactSizeAndTheSourceValues() throws {
        // 2000×1500 → 256×192: DCT scaling to 2/8 (500×375; 1/8 would be under 256), then 1.95× in the resampler.
        let rgb = TestImages.gradient(width: 2000, height: 1500)
        let image = try thumbnail(Data(TestImages.encode(pixels: rgb, width: 2000, height: 1500)), side: 256)
        #expect(image.width == 256 && image.height == 192)
        var worst = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                // The source position of the output pixel's centre; the gradient is linear, so its mean is there.
                let sourceX = (Double(x) + 0.5) * 2000 / 256 - 0.5
                let sourceY = (Double(y) + 0.5) * 1500 / 192 - 0.5
                let red = Int((sourceX * 255 / 1999).rounded())
                let green = Int((sourceY * 255 / 1499).rounded())
                let pixel = image[x, y]
                worst = max(worst, abs(Int(pixel.red) - red), abs(Int(pixel.green) - green), abs(Int(pixel.blue) - 96))
                #expect(pixel.alpha == 255)
            }
        }
        #expect(worst <= 4, "largest difference from the source gradient: \(worst)")
    }

    @Test func aFineCheckerboardBecomesGreyNotAPattern() throws {
        // 4-pixel squares, far finer than the thumbnail's pixels: every output pixel averages many of them.
        let width = 2000
        let height = 1500
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width where (x / 4 + y / 4) % 2 == 0 {
                rgb.replaceSubrange((y * width + x) * 3..<(y * width + x) * 3 + 3, with: [255, 255, 255])
            }
        }
        let image = try thumbnail(Data(TestImages.encode(pixels: rgb, width: width, height: height)), side: 256)
        #expect(image.width == 256 && image.height == 192)
        var lowest = 255
        var highest = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                lowest = min(lowest, Int(image[x, y].red))
                highest = max(highest, Int(image[x, y].red))
            }
        }
        // Nearest-neighbour sampling would give 0 and 255.
        #expect(lowest >= 104 && highest <= 152, "values from \(lowest) to \(highest)")
    }

    @Test func theTentFilterOnlyForReductionsUnderTwoTimes() {
        #expect(ImageDecoders.thumbnailFilter(from: (500, 375), to: (256, 192)) == .triangle)
        #expect(ImageDecoders.thumbnailFilter(from: (320, 200), to: (256, 160)) == .triangle)
        #expect(ImageDecoders.thumbnailFilter(from: (512, 384), to: (256, 192)) == .catmullRom)
        #expect(ImageDecoders.thumbnailFilter(from: (4000, 3000), to: (256, 192)) == .catmullRom)
    }

    @Test func aRotatedPhotoThumbnailIsUprightAtItsExactSize() throws {
        // Upright 400×300 (red grows rightwards, green downwards), stored turned a quarter anticlockwise with
        // EXIF orientation 6 ("rotate clockwise to display"): stored pixel (sx, sy) is upright (399 − sy, sx).
        let upright = TestImages.gradient(width: 400, height: 300)
        var stored = [UInt8](repeating: 0, count: 400 * 300 * 3)
        for sy in 0..<400 {
            for sx in 0..<300 {
                let source = ((sx * 400) + (399 - sy)) * 3
                stored.replaceSubrange(
                    (sy * 300 + sx) * 3..<(sy * 300 + sx) * 3 + 3,
                    with: upright[source..<source + 3]
                )
            }
        }
        let jpeg = TestEncoders.insertingExifOrientation(
            6,
            into: TestImages.encode(pixels: stored, width: 300, height: 400)
        )
        // 400×300 upright → 256×192: DCT scaling to 6/8 (300×225), then 1.17× with the tent filter.
        let image = try thumbnail(jpeg, side: 256)
        #expect(image.width == 256 && image.height == 192)
        #expect(image[8, 96].red < 24 && image[247, 96].red > 231, "red must grow left to right")
        #expect(image[128, 8].green < 24 && image[128, 183].green > 231, "green must grow top to bottom")
    }
}
#endif
