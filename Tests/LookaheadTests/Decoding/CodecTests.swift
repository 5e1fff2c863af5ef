// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — WebP, GIF and PNG decoding against images encoded here, sniffing, and bad input.

#if canImport(CWebP) && canImport(CGIF) && canImport(CSPNG)
import Foundation
import Testing
@testable import Lookahead

@Suite struct CodecTests {
    /// The largest per-channel difference between two RGBA buffers.
    private func difference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    // MARK: - WebP

    @Test func losslessWebPIsExactIncludingAlpha() throws {
        let rgba = TestEncoders.rgba(width: 40, height: 30, alpha: true)
        let data = TestEncoders.webp(rgba: rgba, width: 40, height: 30, lossless: true)
        let bitmap = try ImageDecoders.WebP().decode(data, context: .init())
        #expect(bitmap.width == 40 && bitmap.height == 30)
        // Lossless keeps every visible pixel; the colour under alpha 0 is not kept (it cannot be seen).
        var mismatches = 0
        for index in stride(from: 0, to: rgba.count, by: 4) where rgba[index + 3] > 0 {
            if Array(bitmap.pixels[index..<(index + 4)]) != Array(rgba[index..<(index + 4)]) { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(stride(from: 3, to: rgba.count, by: 4).allSatisfy { bitmap.pixels[$0] == rgba[$0] })
    }

    @Test func lossyWebPIsClose() throws {
        let rgba = TestEncoders.rgba(width: 64, height: 48)
        let data = TestEncoders.webp(rgba: rgba, width: 64, height: 48, lossless: false, quality: 95)
        let bitmap = try ImageDecoders.WebP().decode(data, context: .init())
        #expect(difference(bitmap.pixels, rgba) <= 24)
        #expect(bitmap.isOpaque)
    }

    @Test func webPThumbnailsAreDecodedScaled() throws {
        let data = TestEncoders.webp(
            rgba: TestEncoders.rgba(width: 400, height: 300),
            width: 400,
            height: 300,
            lossless: true
        )
        let bitmap = try ImageDecoders.WebP().decode(data, context: .init(thumbnail: .init(maximumPixelSize: 100)))
        #expect(bitmap.width == 100 && bitmap.height == 75)
    }

    @Test func animatedWebPGivesItsFirstFrame() throws {
        let red: [UInt8] = Array([[UInt8]](repeating: [250, 10, 10, 255], count: 16 * 16).joined())
        let blue: [UInt8] = Array([[UInt8]](repeating: [10, 10, 250, 255], count: 16 * 16).joined())
        let data = TestEncoders.animatedWebP(frames: [red, blue, blue], width: 16, height: 16)
        let bitmap = try ImageDecoders.WebP().decode(data, context: .init())
        #expect(bitmap.width == 16 && bitmap.height == 16)
        #expect(bitmap[8, 8].red > 200 && bitmap[8, 8].blue < 40)
    }

    // MARK: - GIF

    private let palette: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]

    private func stripes(width: Int, height: Int) -> [UInt8] {
        (0..<(width * height)).map { UInt8(($0 % width) / max(1, width / 4) % 4) }
    }

    @Test(arguments: [false, true]) func gifFirstFrameWithPaletteColours(interlaced: Bool) throws {
        let indices = stripes(width: 16, height: 12)
        let data = TestEncoders.gif(frames: [indices], width: 16, height: 12, palette: palette, interlaced: interlaced)
        let bitmap = try ImageDecoders.GIF().decode(data, context: .init())
        #expect(bitmap.width == 16 && bitmap.height == 12)
        for y in 0..<12 {
            for x in 0..<16 {
                let color = palette[Int(indices[y * 16 + x])]
                let pixel = bitmap[x, y]
                #expect(pixel.red == color.0 && pixel.green == color.1 && pixel.blue == color.2 && pixel.alpha == 255)
            }
        }
    }

    @Test func gifTransparencyIsAlphaZero() throws {
        let indices = stripes(width: 16, height: 4)
        let data = TestEncoders.gif(frames: [indices], width: 16, height: 4, palette: palette, transparentIndex: 3)
        let bitmap = try ImageDecoders.GIF().decode(data, context: .init())
        #expect(bitmap[14, 1].alpha == 0)  // index 3
        #expect(bitmap[1, 1].alpha == 255)  // index 0
    }

    @Test func anAnimationCostsNoMoreThanItsFirstFrame() throws {
        // 2,000 frames, and everything after the first frame is garbage: a decoder that reads past the first
        // frame fails; ours never looks.
        let first = stripes(width: 32, height: 32)
        let frames = [first] + Array(repeating: [UInt8](repeating: 2, count: 32 * 32), count: 1999)
        var bytes = [UInt8](TestEncoders.gif(frames: frames, width: 32, height: 32, palette: palette))
        let single = TestEncoders.gif(frames: [first], width: 32, height: 32, palette: palette)
        for index in (single.count - 1)..<bytes.count { bytes[index] = 0xEE }
        let bitmap = try ImageDecoders.GIF().decode(Data(bytes), context: .init())
        #expect(bitmap[0, 0].red == 255)
    }

    @Test func gifScreenLargerThanThePixelLimitFailsBeforeAllocating() throws {
        var bytes = [UInt8](
            TestEncoders.gif(frames: [stripes(width: 8, height: 8)], width: 8, height: 8, palette: palette)
        )
        bytes[6] = 0xFF
        bytes[7] = 0xFF  // screen width 65535
        bytes[8] = 0xFF
        bytes[9] = 0xFF  // screen height 65535
        #expect {
            try ImageDecoders.GIF().decode(Data(bytes), context: .init(maximumPixelCount: 1 << 20))
        } throws: { error in
            (error as? ImageDecodingError)?.reason == .tooLarge(width: 65535, height: 65535, limit: 1 << 20)
        }
    }

    @Test func aFrameLargerThanThePixelLimitOnAnEmptyScreenFailsBeforeAllocating() throws {
        // Found by fuzzing: a 0×0 logical screen takes the frame's size, which must be checked too.
        var bytes = [UInt8](
            TestEncoders.gif(frames: [stripes(width: 8, height: 8)], width: 8, height: 8, palette: palette)
        )
        bytes[6] = 0
        bytes[7] = 0
        bytes[8] = 0
        bytes[9] = 0  // screen 0×0
        let descriptor = bytes.firstIndex(of: 0x2C)!  // image descriptor: left, top, width, height
        bytes[descriptor + 5] = 0x60
        bytes[descriptor + 6] = 0xEA  // width 60000
        bytes[descriptor + 7] = 0x60
        bytes[descriptor + 8] = 0xEA  // height 60000
        #expect {
            try ImageDecoders.GIF().decode(Data(bytes), context: .init(maximumPixelCount: 1 << 22))
        } throws: { error in
            (error as? ImageDecodingError)?.reason == .tooLarge(width: 60000, height: 60000, limit: 1 << 22)
        }
    }

    // MARK: - PNG

    @Test func pngRoundTripsExactly() throws {
        let rgba = TestEncoders.rgba(width: 33, height: 17, alpha: true)
        let bitmap = try ImageDecoders.PNG().decode(
            TestEncoders.png(rgba: rgba, width: 33, height: 17),
            context: .init()
        )
        #expect(bitmap.pixels == rgba)
    }

    // MARK: - Every format

    static let formats = ["jpeg", "png", "webp", "gif"]

    private func sample(_ format: String) -> Data {
        switch format {
        case "jpeg": TestImages.jpeg
        case "png": TestEncoders.png(rgba: TestEncoders.rgba(width: 64, height: 48), width: 64, height: 48)
        case "webp":
            TestEncoders.webp(rgba: TestEncoders.rgba(width: 64, height: 48), width: 64, height: 48, lossless: false)
        default: TestEncoders.gif(frames: [stripes(width: 64, height: 48)], width: 64, height: 48, palette: palette)
        }
    }

    @Test(arguments: formats) func formatsAreSniffedFromTheBytes(format: String) throws {
        let data = sample(format)
        let decoded = try ImageDecoders.decode(data, context: .init()).get()
        #expect(decoded.codec.lowercased() == format)
        #expect(decoded.image.width == 64 && decoded.image.height == 48)
    }

    @Test(arguments: formats) func thumbnailsHaveTheExactSize(format: String) throws {
        let decoded = try ImageDecoders.decode(sample(format), context: .init(thumbnail: .init(maximumPixelSize: 20)))
            .get()
        #expect(decoded.image.width == 20 && decoded.image.height == 15)
        let larger = try ImageDecoders.decode(sample(format), context: .init(thumbnail: .init(maximumPixelSize: 500)))
            .get()
        #expect(larger.image.width == 64, "thumbnails never upscale")
    }

    @Test(arguments: formats) func truncatedDataIsAnErrorNeverACrash(format: String) {
        let data = sample(format)
        // Every cut into the image data fails. PNG's IEND chunk (12 bytes) and GIF's trailer (1 byte) carry no
        // pixels, and a GIF decoder that stops after the first frame never reads its trailer.
        let imageDataEnd = format == "png" ? data.count - 12 : format == "gif" ? data.count - 1 : data.count
        for length in Array(stride(from: 0, to: imageDataEnd, by: max(1, data.count / 40))) + [imageDataEnd - 1] {
            let result = ImageDecoders.decode(data.prefix(length), context: .init())
            if case .success(let decoded) = result {
                Issue.record("\(format) truncated to \(length) of \(data.count) bytes decoded to \(decoded.image)")
            }
        }
    }

    @Test(arguments: formats) func flippedBytesNeverCrash(format: String) {
        var generator = SplitMix64(seed: 11)
        let original = [UInt8](sample(format))
        for _ in 0..<200 {
            var bytes = original
            for _ in 0..<4 {
                let index = 12 + Int(generator.next() % UInt64(bytes.count - 12))
                bytes[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            _ = ImageDecoders.decode(Data(bytes), context: .init(maximumPixelCount: 1 << 22))
        }
    }

    @Test func unknownBytesHaveNoDecoder() {
        guard case .failure(.noDecoder) = ImageDecoders.decode(Data("BM not supported".utf8), context: .init()) else {
            Issue.record("expected no decoder")
            return
        }
    }
}
#endif
