// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — colour management: images tagged Display P3 (an ICC profile written by Little CMS, or PNG cHRM,
// or HEIF nclx) are converted to sRGB in every format; untagged and sRGB-tagged images are left as they are.

import Foundation
import Testing

@testable import Lookahead

#if canImport(CLCMS) && canImport(CSPNG) && canImport(CWebP) && canImport(CHeif)
import CHeif
import CLCMS
import CSPNG
import CWebP

@Suite struct ColorManagementTests {
    /// Display P3: DCI-P3 primaries, D65 white, the sRGB curve.
    static let displayP3 = (red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: (0.3127, 0.3290))
    let profile = ColorManagement.profile(displayP3, name: "Display P3")!
    /// sRGB's pure red written in Display P3 coordinates: converted back, it is (255, 0, 0).
    let p3Red: [UInt8] = [234, 51, 35, 255]

    private func solid(_ color: [UInt8], _ width: Int = 16, _ height: Int = 16) -> [UInt8] {
        Array([[UInt8]](repeating: color, count: width * height).joined())
    }

    /// Whether `pixel` is sRGB red within `tolerance`.
    private func isSRGBRed(_ pixel: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8), tolerance: Int = 3) -> Bool {
        255 - Int(pixel.red) <= tolerance && Int(pixel.green) <= tolerance && Int(pixel.blue) <= tolerance
    }

    /// A PNG of `rgba` with an `iCCP` profile or `cHRM` chromaticities, written by libspng.
    private func png(_ rgba: [UInt8], iccp: [UInt8]? = nil, chrm: spng_chrm_int? = nil) throws -> Data {
        try TestPNG.encode(rgba: rgba, width: 16, height: 16) { context in
            if let iccp {
                var chunk = spng_iccp()
                withUnsafeMutableBytes(of: &chunk.profile_name) { name in
                    for (index, byte) in "Display P3".utf8.enumerated() { name[index] = byte }
                }
                var profileBytes = iccp.map { CChar(bitPattern: $0) }
                let status = profileBytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    chunk.profile_len = buffer.count
                    chunk.profile = buffer.baseAddress
                    return spng_set_iccp(context, &chunk)
                }
                guard status == 0 else { return status }
            }
            guard var chrm else { return 0 }
            return spng_set_chrm_int(context, &chrm)
        }
    }

    /// A JPEG (quality 100, 4:4:4) of RGB `color` with the profile in `ICC_PROFILE` APP2 segments of at most
    /// `chunkSize` bytes each.
    private func jpeg(_ color: [UInt8], profile: [UInt8]?, chunkSize: Int = 65_519) -> Data {
        let rgb = (0..<(16 * 16)).flatMap { _ in color.prefix(3) }
        let encoded = TestImages.encode(pixels: rgb, width: 16, height: 16, quality: 100)
        guard let profile else { return Data(encoded) }
        let chunks = stride(from: 0, to: profile.count, by: chunkSize).map {
            Array(profile[$0..<min(profile.count, $0 + chunkSize)])
        }
        var segments: [UInt8] = []
        for (index, chunk) in chunks.enumerated() {
            let payload = Array("ICC_PROFILE".utf8) + [0, UInt8(index + 1), UInt8(chunks.count)] + chunk
            let length = payload.count + 2
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        return Data(Array(encoded[0..<2]) + segments + Array(encoded[2...]))
    }

    /// A lossless WebP of `rgba` with an `ICCP` chunk, assembled by libwebpmux.
    private func webp(_ rgba: [UInt8], profile: [UInt8]) throws -> Data {
        let still = TestEncoders.webp(rgba: rgba, width: 16, height: 16, lossless: true)
        return try still.withUnsafeBytes { raw in
            var image = WebPData(bytes: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), size: raw.count)
            let mux = try #require(WebPMuxCreate(&image, 1))
            defer { WebPMuxDelete(mux) }
            try profile.withUnsafeBufferPointer { bytes in
                var chunk = WebPData(bytes: bytes.baseAddress, size: bytes.count)
                try #require(WebPMuxSetChunk(mux, "ICCP", &chunk, 1) == WEBP_MUX_OK)
            }
            var output = WebPData()
            try #require(WebPMuxAssemble(mux, &output) == WEBP_MUX_OK)
            defer { WebPDataClear(&output) }
            return Data(bytes: output.bytes, count: output.size)
        }
    }

    private func decode(_ data: Data) throws -> Bitmap {
        try ImageDecoders.decode(data, context: .init()).get().image
    }

    @Test func aDisplayP3PNGConvertsToSRGB() throws {
        let tagged = try decode(try png(solid(p3Red), iccp: profile))
        #expect(isSRGBRed(tagged[8, 8]), "\(tagged[8, 8])")
        #expect(tagged[8, 8].alpha == 255)
        // Untagged: taken as sRGB, left alone.
        let untagged = try decode(try png(solid(p3Red)))
        #expect([untagged[8, 8].red, untagged[8, 8].green, untagged[8, 8].blue] == [234, 51, 35])
    }

    @Test func pngChromaticitiesWithoutAProfileConvertWhenAsked() throws {
        let p3 = spng_chrm_int(
            white_point_x: 31_270,
            white_point_y: 32_900,
            red_x: 68_000,
            red_y: 32_000,
            green_x: 26_500,
            green_y: 69_000,
            blue_x: 15_000,
            blue_y: 6_000
        )
        let data = try png(solid(p3Red), chrm: p3)
        let png = ImageDecoders.PNG(convertsGammaAndChromaticities: true)
        let image = try png.decode(data, context: .init())
        #expect(isSRGBRed(image[8, 8]), "\(image[8, 8])")
        #expect(png.metadata(of: data).isConvertedToSRGB)
        // By default the samples are left as stored, as libpng, Pillow and PngSuite's reference pixels leave them.
        let stored = try decode(data)
        #expect(stored[8, 8].red == p3Red[0] && stored[8, 8].green == p3Red[1] && stored[8, 8].blue == p3Red[2])
        #expect(ImageDecoders.metadata(of: data)?.isConvertedToSRGB == false)
    }

    @Test func alphaIsKeptThroughTheConversion() throws {
        let image = try decode(try png(solid([234, 51, 35, 128]), iccp: profile))
        #expect(image[8, 8].alpha == 128)
        #expect(isSRGBRed(image[8, 8]))
    }

    @Test(arguments: [65_519, 100]) func aDisplayP3JPEGConvertsToSRGB(chunkSize: Int) throws {
        // Also split over several APP2 segments, joined in order.
        let image = try decode(jpeg(p3Red, profile: profile, chunkSize: chunkSize))
        #expect(isSRGBRed(image[8, 8], tolerance: 6), "\(image[8, 8])")
        let untagged = try decode(jpeg(p3Red, profile: nil))
        #expect(untagged[8, 8].green > 40)
    }

    @Test func aDisplayP3WebPConvertsToSRGB() throws {
        let image = try decode(try webp(solid(p3Red), profile: profile))
        #expect(isSRGBRed(image[8, 8]), "\(image[8, 8])")
    }

    @Test func everyFrameOfADisplayP3AnimatedWebPConvertsToSRGB() throws {
        let animated = TestEncoders.animatedWebP(
            frames: [solid(p3Red), solid([10, 10, 250, 255])],
            width: 16,
            height: 16
        )
        let tagged = try animated.withUnsafeBytes { raw -> Data in
            var image = WebPData(bytes: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), size: raw.count)
            let mux = try #require(WebPMuxCreate(&image, 1))
            defer { WebPMuxDelete(mux) }
            try profile.withUnsafeBufferPointer { bytes in
                var chunk = WebPData(bytes: bytes.baseAddress, size: bytes.count)
                try #require(WebPMuxSetChunk(mux, "ICCP", &chunk, 1) == WEBP_MUX_OK)
            }
            var output = WebPData()
            try #require(WebPMuxAssemble(mux, &output) == WEBP_MUX_OK)
            defer { WebPDataClear(&output) }
            return Data(bytes: output.bytes, count: output.size)
        }
        let frames = try #require(try ImageDecoders.WebP().decodeAnimation(tagged, context: .init())).allFrames()
        #expect(frames.count == 2)
        #expect(isSRGBRed(frames[0].image[8, 8]), "\(frames[0].image[8, 8])")
        // The still decode (the first frame) converts alike.
        #expect(isSRGBRed(try ImageDecoders.WebP().decode(tagged, context: .init())[8, 8]))
    }

    @Test func aDisplayP3HEICConvertsToSRGB() throws {
        let data = TestHEIF.encode(rgba: solid(p3Red, 64, 64), width: 64, height: 64, iccProfile: profile)
        let image = try decode(data)
        // Lossy HEVC: the green and blue stay near 0 only if the profile was applied (untagged they are near 51, 35).
        #expect(isSRGBRed(image[32, 32], tolerance: 12), "\(image[32, 32])")
        let untagged = try decode(TestHEIF.encode(rgba: solid(p3Red, 64, 64), width: 64, height: 64))
        #expect(untagged[32, 32].green > 35)
    }

    @Test func aHEICTaggedDisplayP3ByItsNCLXBoxConvertsToSRGB() throws {
        // Display P3 as iPhones tag it: nclx primaries 12 (SMPTE EG 432-1), the sRGB curve.
        let data = TestHEIF.encode(
            rgba: solid(p3Red, 64, 64),
            width: 64,
            height: 64,
            nclxPrimaries: heif_color_primaries_SMPTE_EG_432_1
        )
        let image = try decode(data)
        #expect(isSRGBRed(image[32, 32], tolerance: 12), "\(image[32, 32])")
    }

    @Test func metadataNamesTheProfileInEveryFormat() throws {
        let files = [
            try png(solid(p3Red), iccp: profile), jpeg(p3Red, profile: profile),
            try webp(solid(p3Red), profile: profile),
            TestHEIF.encode(rgba: solid(p3Red, 64, 64), width: 64, height: 64, iccProfile: profile),
        ]
        let metadata = files.map { ImageDecoders.metadata(of: $0) }
        #expect(metadata.map { $0?.format } == ["PNG", "JPEG", "WebP", "HEIF"])
        #expect(metadata.allSatisfy { $0?.colorProfile == "Display P3" && $0?.isConvertedToSRGB == true })
        let untagged = ImageDecoders.metadata(of: try png(solid(p3Red)))
        #expect(untagged == ImageMetadata(format: "PNG"))
        let nclx = TestHEIF.encode(
            rgba: solid(p3Red, 64, 64),
            width: 64,
            height: 64,
            nclxPrimaries: heif_color_primaries_SMPTE_EG_432_1
        )
        #expect(ImageDecoders.metadata(of: nclx)?.colorProfile == "Display P3 (nclx)")
    }

    /// A CMYK printer profile built here: CMYK → Lab through a 9-point table sampled from a formula in which cyan ink
    /// is a muted blue, (0, 153, 255) in sRGB, where the device-independent formula gives (0, 255, 255).
    private func cmykProfile() throws -> [UInt8] {
        let lab = try #require(cmsCreateLab4Profile(nil))
        defer { cmsCloseProfile(lab) }
        let sRGB = try #require(cmsCreate_sRGBProfile())
        defer { cmsCloseProfile(sRGB) }
        let toLab = try #require(
            cmsCreateTransform(
                sRGB,
                LOOKAHEAD_TYPE_RGB_DBL,
                lab,
                LOOKAHEAD_TYPE_Lab_DBL,
                cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                0
            )
        )
        defer { cmsDeleteTransform(toLab) }
        let table = try #require(cmsStageAllocCLut16bit(nil, 9, 4, 3, nil))
        let sampled = cmsStageSampleCLut16bit(
            table,
            { input, output, cargo in
                guard let input, let output, let cargo else { return 0 }
                let (c, m, y, k) = (
                    Double(input[0]) / 65535, Double(input[1]) / 65535, Double(input[2]) / 65535,
                    Double(input[3]) / 65535
                )
                var rgb = [(1 - c) * (1 - k), (1 - m) * (1 - k) * (1 - 0.4 * c), (1 - y) * (1 - k)]
                var lab = cmsCIELab()
                cmsDoTransform(cargo, &rgb, &lab, 1)
                var encoded: [cmsUInt16Number] = [0, 0, 0]
                cmsFloat2LabEncoded(&encoded, &lab)
                for index in 0..<3 { output[index] = encoded[index] }
                return 1
            },
            toLab,
            0
        )
        #expect(sampled != 0)
        let pipeline = try #require(cmsPipelineAlloc(nil, 4, 3))
        defer { cmsPipelineFree(pipeline) }
        // A, CLUT, B: the layout a version 4 lutAtoBType takes (the curves are identities).
        #expect(cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 4, nil)) != 0)
        #expect(cmsPipelineInsertStage(pipeline, cmsAT_END, table) != 0)
        #expect(cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil)) != 0)
        let profile = try #require(cmsCreateProfilePlaceholder(nil))
        defer { cmsCloseProfile(profile) }
        cmsSetProfileVersion(profile, 4.3)
        cmsSetDeviceClass(profile, cmsSigOutputClass)
        cmsSetColorSpace(profile, cmsSigCmykData)
        cmsSetPCS(profile, cmsSigLabData)
        #expect(cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline)) != 0)
        var size: cmsUInt32Number = 0
        #expect(cmsSaveProfileToMem(profile, nil, &size) != 0)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        #expect(cmsSaveProfileToMem(profile, &bytes, &size) != 0)
        return bytes
    }

    @Test func aCMYKJPEGConvertsThroughItsProfile() throws {
        // Pure cyan, stored inverted as Adobe's CMYK JPEGs store it.
        let cmyk = (0..<(16 * 16)).flatMap { _ -> [UInt8] in [0, 255, 255, 255] }
        let encoded = TestImages.encode(pixels: cmyk, width: 16, height: 16, cmyk: true, quality: 100)
        let profile = try cmykProfile()
        #expect(ColorManagement.info(profile)?.isConverted == true)
        let segment = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
        let app2 = [0xFF, 0xE2, UInt8((segment.count + 2) >> 8), UInt8((segment.count + 2) & 0xFF)] + segment
        let tagged = try decode(Data(Array(encoded[0..<2]) + app2 + Array(encoded[2...])))
        let pixel = tagged[8, 8]
        #expect(Int(pixel.red) <= 8 && abs(Int(pixel.green) - 153) <= 8 && Int(pixel.blue) >= 247, "\(pixel)")
        // Without the profile: the formula, (0, 255, 255).
        let untagged = try decode(Data(encoded))[8, 8]
        #expect(Int(untagged.green) >= 247 && Int(untagged.blue) >= 247)
    }

    @Test func anSRGBProfileChangesNothing() throws {
        let sRGB = try #require(cmsCreate_sRGBProfile())
        defer { cmsCloseProfile(sRGB) }
        var size: cmsUInt32Number = 0
        #expect(cmsSaveProfileToMem(sRGB, nil, &size) != 0)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        #expect(cmsSaveProfileToMem(sRGB, &bytes, &size) != 0)
        #expect(ColorManagement.info(bytes)?.isConverted == false)
        #expect(ColorManagement.info(profile)?.isConverted == true)
        let image = try decode(try png(solid(p3Red), iccp: bytes))
        #expect([image[8, 8].red, image[8, 8].green, image[8, 8].blue] == [234, 51, 35])
    }

    @Test func aBrokenProfileIsIgnored() throws {
        let garbage = [UInt8](repeating: 0x41, count: 300)
        #expect(ColorManagement.info(garbage) == nil)
        let image = try decode(jpeg(p3Red, profile: garbage))
        #expect(image[8, 8].green > 40)
        // Chunks that do not add up (a count of 2, one chunk) are no profile.
        var data = [UInt8](jpeg(p3Red, profile: profile))
        let app2 = try #require((0..<(data.count - 1)).first { data[$0] == 0xFF && data[$0 + 1] == 0xE2 })
        data[app2 + 4 + 13] = 2
        #expect(EmbeddedColorProfile.jpeg(Data(data)) == nil)
    }
}
#endif
