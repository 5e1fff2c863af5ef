// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ImageDecoders.validateStructure: recognised and complete, without decoding.

import Foundation
import Testing

@testable import Lookahead

#if canImport(CWebP) && canImport(CGIF) && canImport(CSPNG) && canImport(CTurboJPEG)
@Suite struct StructureValidationTests {
    static let jpeg = TestImages.jpeg
    static let progressiveJPEG = Data(
        TestImages.encode(pixels: TestImages.gradient(width: 40, height: 24), width: 40, height: 24, progressive: true)
    )
    static let png = TestEncoders.png(rgba: TestEncoders.rgba(width: 20, height: 12), width: 20, height: 12)
    static let gif = TestEncoders.gif(
        frames: [[UInt8](repeating: 1, count: 8 * 6)],
        width: 8,
        height: 6,
        palette: [(0, 0, 0), (255, 0, 0)]
    )
    static let webp = TestEncoders.webp(
        rgba: TestEncoders.rgba(width: 16, height: 16),
        width: 16,
        height: 16,
        lossless: true
    )

    private func isComplete(_ data: Data) -> Bool {
        if case .success = ImageDecoders.validateStructure(data) { return true }
        return false
    }

    /// The codec named by an "incomplete" failure, `nil` for success or another error.
    private func incompleteCodec(_ data: Data) -> String? {
        guard case .failure(.decodingFailed(let codec, let message)) = ImageDecoders.validateStructure(data),
            message.hasPrefix("incomplete data")
        else { return nil }
        return codec
    }

    @Test(arguments: [
        ("JPEG", jpeg), ("JPEG", progressiveJPEG), ("PNG", png), ("GIF", gif), ("WebP", webp),
    ])
    func completeFilesPassAndEveryShorterPrefixFails(codec: String, data: Data) throws {
        // The fixtures decode, so "complete" is really complete.
        #expect(throws: Never.self) { try ImageDecoders.decode(data, context: ImageDecodingContext()).get() }
        #expect(isComplete(data), "\(codec) whole")
        // Cut anywhere from just past the signature to one byte short: never complete.
        for length in stride(from: 16, to: data.count, by: max(1, data.count / 97)) {
            #expect(incompleteCodec(data.prefix(length)) == codec, "\(codec) cut at \(length) of \(data.count)")
        }
        #expect(incompleteCodec(data.dropLast()) == codec, "\(codec) one byte short")
    }

    @Test func paddingAfterTheEndIsAllowed() {
        #expect(isComplete(Self.jpeg + Data([0, 0, 0, 0])))
        #expect(isComplete(Self.jpeg + Data([0xFF, 0xFF])))
        #expect(isComplete(Self.jpeg + Data("\r\n".utf8)))
        #expect(isComplete(Self.png + Data([0, 0])))
        #expect(isComplete(Self.gif + Data([0])))
    }

    @Test func webPMustMatchItsRIFFSizeExactly() {
        #expect(incompleteCodec(Self.webp + Data([0, 0])) == "WebP")
        var lying = Self.webp
        lying[4] &+= 2  // the header claims two more bytes than there are
        #expect(incompleteCodec(lying) == "WebP")
    }

    @Test func aJPEGEndingInGarbageFails() {
        #expect(incompleteCodec(Self.jpeg + Data("<html></html>".utf8)) == "JPEG")
        #expect(incompleteCodec(Self.jpeg.dropLast(2) + Data([0xFF, 0xD8])) == "JPEG")
    }

    @Test func dataNoDecoderRecognisesHasNoDecoder() {
        let html = Data("<!DOCTYPE html><html><body>Not found</body></html>".utf8)
        guard case .failure(.noDecoder(let header)) = ImageDecoders.validateStructure(html) else {
            Issue.record("HTML passed")
            return
        }
        #expect(header.hasPrefix("3c 21 44 4f"))
        #expect(!isComplete(Data()))
        // A JPEG is not recognised by a decoder list without a JPEG decoder.
        guard case .failure(.noDecoder) = ImageDecoders.validateStructure(Self.jpeg, decoders: [ImageDecoders.PNG()])
        else {
            Issue.record("recognised without a decoder")
            return
        }
    }

    @Test func aFormatOnlyACustomDecoderKnowsPassesOnceRecognised() {
        struct Custom: ImageDecoding {
            let name = "Custom"
            func canDecode(_ header: Data) -> Bool { header.starts(with: Array("CSTM".utf8)) }
            func decode(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> Bitmap {
                throw ImageDecodingError(codec: name, message: "not needed")
            }
        }
        #expect(isComplete(Data("CSTM and anything".utf8)) == false)  // not with the default decoders
        guard case .success = ImageDecoders.validateStructure(Data("CSTM and anything".utf8), decoders: [Custom()])
        else {
            Issue.record("a recognised custom format failed")
            return
        }
    }
}
#endif
