// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — PNGs whose metadata goes past libspng's chunk limits still show their picture.

import Foundation
import Testing

@testable import Lookahead

#if canImport(CSPNG)
import CSPNG

@Suite struct PNGMetadataFloodTests {
    /// 16×16, a colour per row; `texts` written by libspng as `tEXt` (or compressed `zTXt`) chunks before the image.
    private func png(texts: [String], compressed: Bool = false) throws -> (data: Data, pixels: [UInt8]) {
        let pixels: [UInt8] = (0..<(16 * 16)).flatMap { (index: Int) -> [UInt8] in
            [UInt8(index / 16 * 15), 200, UInt8(index % 16 * 15), 255]
        }
        // C strings libspng reads while it encodes; freed after.
        let strings = texts.map { strdup($0)! }
        defer { strings.forEach { free($0) } }
        var chunks = [spng_text](repeating: spng_text(), count: texts.count)
        for index in chunks.indices {
            withUnsafeMutableBytes(of: &chunks[index].keyword) { name in
                for (offset, byte) in "Comment".utf8.enumerated() { name[offset] = byte }
            }
            chunks[index].type = Int32(compressed ? SPNG_ZTXT.rawValue : SPNG_TEXT.rawValue)
            chunks[index].length = strlen(strings[index])
            chunks[index].text = strings[index]
        }
        let data = try TestPNG.encode(rgba: pixels, width: 16, height: 16) { context in
            spng_set_text(context, &chunks, UInt32(texts.count))
        }
        return (data, pixels)
    }

    @Test func thousandsOfTextChunksStillShowThePicture() throws {
        let (data, pixels) = try png(texts: (0..<1_500).map { "note \($0)" })
        let image = try ImageDecoders.PNG().decode(data, context: .init())
        #expect(image.width == 16 && image.pixels == pixels)
        #expect(ImageDecoders.PNG.essentialChunks(of: data).map { $0.count < data.count / 10 } == true)
    }

    @Test func aTextChunkThatInflatesToMegabytesStillShowsThePicture() throws {
        // 20 MB of text, a few kilobytes compressed: past the 4 MiB a chunk may inflate to.
        let (data, pixels) = try png(texts: [String(repeating: "A", count: 20 << 20)], compressed: true)
        #expect(data.count < 100_000)
        let image = try ImageDecoders.PNG().decode(data, context: .init())
        #expect(image.pixels == pixels)
    }

    @Test func anOrdinaryFileIsDecodedOnceAndLeftWhole() throws {
        let (data, pixels) = try png(texts: ["one note"])
        #expect(ImageDecoders.PNG.essentialChunks(of: data).map { $0.count < data.count } == true)
        #expect(try ImageDecoders.PNG().decode(data, context: .init()).pixels == pixels)
        // Chunks that do not parse (a length past the end) leave nothing to retry with.
        var broken = [UInt8](data)
        broken[8..<12] = [0x7F, 0xFF, 0xFF, 0xFF]
        #expect(ImageDecoders.PNG.essentialChunks(of: Data(broken)) == nil)
        #expect(throws: ImageDecodingError.self) { try ImageDecoders.PNG().decode(Data(broken), context: .init()) }
    }
}
#endif
