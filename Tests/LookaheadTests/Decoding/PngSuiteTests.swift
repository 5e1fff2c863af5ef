// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — PngSuite: every valid image equals its RGBA reference; every broken one is an error.

import Foundation
import Testing

@testable import Lookahead

// PngSuite checks the libspng decoder, which Apple platforms do not use (ImageIO decodes PNG there).
#if canImport(CSPNG)

/// `../shared/fixtures/pngsuite` next to the repository (or `LOOKAHEAD_PNGSUITE`).
enum PngSuite {
    static let folder: URL = {
        if let path = ProcessInfo.processInfo.environment["LOOKAHEAD_PNGSUITE"] {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/fixtures/pngsuite")
    }()

    static var isPresent: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("png").path) }

    static var images: [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("png").path)) ?? []
        return names.filter { $0.hasSuffix(".png") }.sorted()
    }

    static var validImages: [String] { images.filter { !$0.hasPrefix("x") } }
    static var brokenImages: [String] { images.filter { $0.hasPrefix("x") } }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent("png").appendingPathComponent(name))
    }

    /// The 8-bit RGBA reference: `NAME_to8.json` for 16-bit images, else `NAME.json`.
    static func reference(_ name: String) throws -> (pixels: [UInt8], isReducedFrom16Bit: Bool)? {
        let base = String(name.dropLast(4))
        let json = folder.appendingPathComponent("json")
        for (file, reduced) in [("\(base)_to8.json", true), ("\(base).json", false)] {
            let url = json.appendingPathComponent(file)
            guard let data = try? Data(contentsOf: url) else { continue }
            let values = try JSONDecoder().decode([Int].self, from: data)
            // Some 16-bit images have only a 16-bit reference: reduce it to 8 bits the usual way.
            if values.contains(where: { $0 > 255 }) {
                return (values.map { UInt8(($0 * 255 + 32767) / 65535) }, true)
            }
            return (values.map { UInt8(clamping: $0) }, reduced)
        }
        return nil
    }
}

@Suite(
    .enabled(
        if: PngSuite.isPresent,
        "PngSuite is absent: expected at ../shared/fixtures/pngsuite (or LOOKAHEAD_PNGSUITE)"
    )
)
struct PngSuiteTests {
    let decoder = ImageDecoders.PNG()

    @Test(arguments: PngSuite.validImages) func validImagesMatchTheirReference(name: String) throws {
        let bitmap = try decoder.decode(try PngSuite.data(name), context: .init())
        let reference = try #require(try PngSuite.reference(name), "no JSON reference for \(name)")
        try #require(reference.pixels.count == bitmap.pixels.count, "\(name): size differs from the reference")
        let tolerance = reference.isReducedFrom16Bit ? 1 : 0
        var worst = 0
        for (decoded, expected) in zip(bitmap.pixels, reference.pixels) {
            worst = max(worst, abs(Int(decoded) - Int(expected)))
        }
        #expect(worst <= tolerance, "\(name): largest difference \(worst)")
    }

    @Test(arguments: PngSuite.brokenImages) func brokenImagesAreErrors(name: String) throws {
        #expect(throws: ImageDecodingError.self) { try decoder.decode(try PngSuite.data(name), context: .init()) }
    }

    @Test func theSuiteIsThere() {
        #expect(PngSuite.validImages.count > 150)
        #expect(PngSuite.brokenImages.count >= 10)
    }
}
#endif
