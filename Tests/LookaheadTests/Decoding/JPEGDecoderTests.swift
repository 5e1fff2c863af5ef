// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the libjpeg-turbo decoder against images encoded here.

#if canImport(CTurboJPEG)
import Foundation
import Testing
@testable import Lookahead

@Suite struct JPEGDecoderTests {
    let decoder = ImageDecoders.JPEG()

    /// The largest per-channel difference between decoded RGBA and source RGB pixels.
    private func maximumDifference(_ bitmap: Bitmap, _ rgb: [UInt8]) -> Int {
        var worst = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let pixel = bitmap[x, y]
                let offset = (y * bitmap.width + x) * 3
                worst = max(worst, abs(Int(pixel.red) - Int(rgb[offset])))
                worst = max(worst, abs(Int(pixel.green) - Int(rgb[offset + 1])))
                worst = max(worst, abs(Int(pixel.blue) - Int(rgb[offset + 2])))
                #expect(pixel.alpha == 255)
            }
        }
        return worst
    }

    @Test(arguments: [false, true]) func decodesColourImagesCloseToTheSource(progressive: Bool) throws {
        let rgb = TestImages.gradient(width: 120, height: 80)
        let data = Data(TestImages.encode(pixels: rgb, width: 120, height: 80, progressive: progressive))
        let bitmap = try decoder.decode(data, context: .init())
        #expect(bitmap.width == 120)
        #expect(bitmap.height == 80)
        #expect(bitmap.bytesPerRow == 480)
        #expect(maximumDifference(bitmap, rgb) <= 8)
    }

    @Test func decodesGrayscale() throws {
        let gray = (0..<(32 * 16)).map { UInt8(($0 % 32) * 8) }
        let data = Data(TestImages.encode(pixels: gray, width: 32, height: 16, grayscale: true))
        let bitmap = try decoder.decode(data, context: .init())
        let pixel = bitmap[31, 5]
        #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
        #expect(abs(Int(pixel.red) - 248) <= 6)
    }

    @Test func decodesCMYKAsInvertedAdobeCMYK() throws {
        // Left half: no ink (255 in inverted CMYK) → white. Right half: full cyan ink → cyan.
        var cmyk = [UInt8]()
        for _ in 0..<16 {
            for x in 0..<16 { cmyk += x < 8 ? [255, 255, 255, 255] : [0, 255, 255, 255] }
        }
        let data = Data(TestImages.encode(pixels: cmyk, width: 16, height: 16, cmyk: true))
        let bitmap = try decoder.decode(data, context: .init())
        let white = bitmap[2, 8]
        let cyan = bitmap[13, 8]
        #expect(white.red > 240 && white.green > 240 && white.blue > 240)
        #expect(cyan.red < 20 && cyan.green > 235 && cyan.blue > 235)
        #expect(cyan.alpha == 255)
    }

    @Test func thumbnailsUseDCTScalingAndNeverUpscale() throws {
        let data = Data(
            TestImages.encode(pixels: TestImages.gradient(width: 800, height: 600), width: 800, height: 600)
        )
        let quarter = try decoder.decode(data, context: .init(thumbnail: .init(maximumPixelSize: 200)))
        #expect(quarter.width == 200 && quarter.height == 150)
        let between = try decoder.decode(data, context: .init(thumbnail: .init(maximumPixelSize: 300)))
        #expect(between.width == 300 && between.height == 225)  // 3/8, the smallest scale ≥ 300 px
        let fill = try decoder.decode(data, context: .init(thumbnail: .init(width: 100, height: 100)))
        #expect(fill.width == 200 && fill.height == 150)  // 1/4 covers 100×100 (aspect fill → 134×100)
        let larger = try decoder.decode(data, context: .init(thumbnail: .init(maximumPixelSize: 2000)))
        #expect(larger.width == 800)
    }

    @Test func sniffing() {
        #expect(decoder.canDecode(TestImages.jpeg.prefix(16)))
        #expect(!decoder.canDecode(Data([0x89, 0x50, 0x4E, 0x47])))
        #expect(!decoder.canDecode(Data()))
    }

    @Test func everyTruncationFailsCleanly() {
        let data = TestImages.jpeg
        for length in stride(from: 0, to: data.count, by: 37) {
            #expect(throws: ImageDecodingError.self) { try decoder.decode(data.prefix(length), context: .init()) }
        }
    }

    @Test func pixelLimitIsCheckedFromTheHeader() {
        let data = TestImages.jpegClaiming(width: 65000, height: 65000)
        #expect {
            try decoder.decode(data, context: .init(maximumPixelCount: 64 << 20))
        } throws: { error in
            (error as? ImageDecodingError)?.reason == .tooLarge(width: 65000, height: 65000, limit: 64 << 20)
        }
    }
}
#endif
