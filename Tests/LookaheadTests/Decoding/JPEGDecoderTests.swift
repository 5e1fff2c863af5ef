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

    @Test func aThumbnailOfASequentialJPEGOverTheLimitCountsThePixelsItDecodes() throws {
        // 1024×768 against a limit of 100,000 pixels: as a thumbnail of 128 px it decodes at 1/8 (128×96) in one pass.
        let rgb = TestImages.gradient(width: 1024, height: 768)
        let sequential = Data(TestImages.encode(pixels: rgb, width: 1024, height: 768))
        let limited = ImageDecodingContext(thumbnail: .init(maximumPixelSize: 128), maximumPixelCount: 100_000)
        let thumbnail = try decoder.decode(sequential, context: limited)
        #expect(thumbnail.width == 128 && thumbnail.height == 96)
        // Whole, it is over the limit.
        #expect {
            try decoder.decode(sequential, context: .init(maximumPixelCount: 100_000))
        } throws: { error in
            (error as? ImageDecodingError)?.reason == .tooLarge(width: 1024, height: 768, limit: 100_000)
        }
        // A thumbnail whose scaled decode is still over the limit is refused too: 1/2 of 1024×768 is 196,608 pixels.
        #expect(throws: ImageDecodingError.self) {
            try decoder.decode(
                sequential,
                context: .init(thumbnail: .init(maximumPixelSize: 500), maximumPixelCount: 100_000)
            )
        }
    }

    @Test func aThumbnailOfAProgressiveJPEGOverTheLimitIsRefused() throws {
        // libjpeg keeps every block of a progressive image until its last scan, whatever the output size.
        let rgb = TestImages.gradient(width: 1024, height: 768)
        let progressive = Data(TestImages.encode(pixels: rgb, width: 1024, height: 768, progressive: true))
        #expect {
            try decoder.decode(
                progressive,
                context: .init(thumbnail: .init(maximumPixelSize: 128), maximumPixelCount: 100_000)
            )
        } throws: { error in
            (error as? ImageDecodingError)?.reason == .tooLarge(width: 1024, height: 768, limit: 100_000)
        }
        #expect(try decoder.decode(progressive, context: .init(thumbnail: .init(maximumPixelSize: 128))).width == 128)
    }

    @Test func onlyASequentialFrameWhoseFirstScanHasEveryComponentDecodesInOnePass() {
        func onePass(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { JPEGScanWalk($0).decodesInOnePass } }
        let rgb = TestImages.gradient(width: 64, height: 48)
        #expect(onePass(TestImages.encode(pixels: rgb, width: 64, height: 48)))
        #expect(!onePass(TestImages.encode(pixels: rgb, width: 64, height: 48, progressive: true)))
        let gray = [UInt8](repeating: 128, count: 64 * 48)
        #expect(onePass(TestImages.encode(pixels: gray, width: 64, height: 48, grayscale: true)))
        // A sequential frame with one scan per component: SOF0 with three components, then an SOS with one.
        let frame: [UInt8] = [0xFF, 0xC0, 0, 17, 8, 0, 48, 0, 64, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        let scan: [UInt8] = [0xFF, 0xDA, 0, 8, 1, 1, 0x00, 0, 63, 0]
        #expect(!onePass([0xFF, 0xD8] + frame + scan + [0xFF, 0xD9]))
        #expect(!onePass([0xFF, 0xD8, 0xFF, 0xD9]))
        #expect(!onePass([]))
    }
}
#endif
