// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the Accept header built from the decoders' media types.

#if canImport(CTurboJPEG) && canImport(CWebP) && canImport(CSPNG) && canImport(CHeif)
import Foundation
import Testing
import Lookahead

@Suite struct AcceptHeaderTests {
    @Test func modernFormatsComeFirstThenTheRestThenAnything() {
        let header = ImageDecoders.acceptHeader(for: [ImageDecoders.JPEG(), ImageDecoders.PNG(), ImageDecoders.WebP()])
        #expect(header == "image/webp,image/jpeg,image/png,image/*;q=0.8,*/*;q=0.5")
    }

    @Test func theDefaultDecodersAskForAVIFWhenLibheifDecodesAV1() {
        let header = ImageDecoders.acceptHeader(for: ImageDecoders.default) ?? ""
        let heif = ImageDecoders.HEIF().mediaTypes
        #expect(header.hasPrefix(heif.contains("image/avif") ? "image/avif,image/webp," : "image/webp,"))
        for type in ["image/jpeg", "image/png", "image/gif"] { #expect(header.contains(type)) }
    }

    @Test func decodersThatNameNoTypeAskForNothing() {
        struct Opaque: ImageDecoding {
            let name = "Opaque"
            func canDecode(_ header: Data) -> Bool { false }
            func decode(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> PlatformImage {
                throw ImageDecodingError(codec: name, message: "never")
            }
        }
        #expect(ImageDecoders.acceptHeader(for: [Opaque()]) == nil)
    }
}
#endif
