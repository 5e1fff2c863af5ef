// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery tests — the kitty and sixel images the gallery prints, checked against what chafa's own
// command-line tool prints for the same picture and size. Skipped, with the reason, without the `chafa` program
// (scripts/bootstrap installs it).

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

@testable import LookaheadGallery

/// The `chafa` program on PATH, if any.
private let chafaProgram: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/chafa" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// A 64×48 gradient with a hard edge: any difference in scaling or colour handling shows in the payload.
private func testPicture() -> Bitmap {
    var pixels: [UInt8] = []
    for y in 0..<48 {
        for x in 0..<64 {
            pixels += x < 40 ? [UInt8(x * 4), UInt8(y * 5), 128, 255] : [250, 30, 30, 255]
        }
    }
    return Bitmap(width: 64, height: 48, pixels: pixels)
}

/// What `chafa --format FORMAT --size COLUMNSxROWS --stretch FILE` prints for the picture.
private func chafaPrints(_ picture: Bitmap, format: String, columns: Int, rows: Int) async throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("chafa-\(UUID().uuidString).png")
    defer { try? FileManager.default.removeItem(at: file) }
    try ImageEncoders.PNG.encode(picture).write(to: file)
    let chafa = try await runProgram(
        URL(fileURLWithPath: try #require(chafaProgram)),
        arguments: ["--format", format, "--size", "\(columns)x\(rows)", "--stretch", file.path]
    )
    return chafa.output
}

/// The escape sequences of an image (kitty's APC `ESC _ G … ESC \`, or a sixel DCS `ESC P … ESC \`), without the
/// cursor and mode sequences around them, which depend on how the image is placed.
private func imageSequences(_ text: String) -> [Substring] {
    var sequences: [Substring] = []
    var rest = text[...]
    while let start = rest.range(of: "\u{1B}_G") ?? rest.range(of: "\u{1B}P") {
        guard let end = rest[start.upperBound...].range(of: "\u{1B}\\") else { break }
        sequences.append(rest[start.lowerBound..<end.upperBound])
        rest = rest[end.upperBound...]
    }
    return sequences
}

@Suite(.enabled(if: chafaProgram != nil, "the chafa program is not installed (scripts/bootstrap installs it)"))
struct ChafaGraphicsTests {
    // chafa without a terminal to ask takes 8×8-pixel cells: the gallery's renderer is given the same.
    @Test(arguments: [(GraphicsMode.kitty, "kitty"), (GraphicsMode.sixels, "sixels")])
    func theGallerysImageIsWhatChafaPrints(mode: GraphicsMode, format: String) async throws {
        let picture = testPicture()
        let ours = ChafaRenderer.graphics(picture, columns: 20, rows: 10, mode: mode, cellSize: (8, 8))
        let theirs = try await chafaPrints(picture, format: format, columns: 20, rows: 10)
        let ourImage = imageSequences(ours)
        let theirImage = imageSequences(theirs)
        #expect(!ourImage.isEmpty, "the gallery printed an image")
        #expect(ourImage.count == theirImage.count)
        #expect(ourImage == theirImage, "\(format): the image sequences differ")
        if mode == .kitty {
            #expect(ours.contains("\u{1B}_Ga=T,f=32,s=160,v=80,c=20,r=10"), "RGBA, 160×80 pixels over 20×10 cells")
        } else {
            #expect(ours.contains("\"1;1;160;"), "a 160-pixel-wide sixel raster")
        }
    }
}
