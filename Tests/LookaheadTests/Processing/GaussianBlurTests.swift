// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ImageProcessors.GaussianBlur (spread, edges, transparency) and ImageProcessors.Anonymous.

import Foundation
import Testing

@testable import Lookahead

@Suite struct GaussianBlurTests {
    /// A `width` × `height` bitmap whose pixels `colour(x, y)` gives.
    private func bitmap(_ width: Int, _ height: Int, _ colour: (Int, Int) -> [UInt8]) -> Bitmap {
        var pixels: [UInt8] = []
        for y in 0..<height { for x in 0..<width { pixels += colour(x, y) } }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    @Test func aFlatImageStaysFlatUpToItsEdges() throws {
        let image = bitmap(40, 30) { _, _ in [90, 160, 30, 255] }
        let blurred = try ImageProcessors.GaussianBlur(radius: 6).process(image)
        #expect(blurred.width == 40 && blurred.height == 30)
        #expect(blurred.pixels == image.pixels, "the border extends: nothing darkens at the edges")
    }

    @Test func anImpulseSpreadsSymmetricallyWithTheGaussiansDeviation() throws {
        // A white line across black: its spread along x has a variance near σ² and keeps its total.
        let sigma = 8
        let image = bitmap(101, 3) { x, _ in x == 50 ? [255, 255, 255, 255] : [0, 0, 0, 255] }
        let blurred = try ImageProcessors.GaussianBlur(radius: sigma).process(image)
        let row = (0..<101).map { Double(blurred[$0, 1].red) }
        for offset in 1...30 { #expect(abs(row[50 - offset] - row[50 + offset]) <= 1, "symmetric at ±\(offset)") }
        #expect(row[50] < 30 && row[50] == row.max())
        let total = row.reduce(0, +)
        #expect(abs(total - 255) <= 12, "the blur keeps the light: \(total)")
        let variance =
            row.enumerated().map { Double(($0.offset - 50) * ($0.offset - 50)) * $0.element }.reduce(0, +)
            / total
        #expect(abs(variance - Double(sigma * sigma)) <= 0.1 * Double(sigma * sigma), "variance \(variance)")
    }

    @Test func anEdgeBecomesARampCentredOnIt() throws {
        let image = bitmap(80, 4) { x, _ in x < 40 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        let blurred = try ImageProcessors.GaussianBlur(radius: 4).process(image)
        let row = (0..<80).map { Int(blurred[$0, 2].green) }
        #expect(row == row.sorted(), "monotonic")
        #expect(abs(row[39] + row[40] - 255) <= 4, "half way at the edge: \(row[39]), \(row[40])")
        // One deviation away, a Gaussian edge reaches 84 % (214).
        #expect(abs(row[44] - 214) <= 15 && abs(row[35] - 41) <= 15, "\(row[35]), \(row[44])")
        #expect(row[0] == 0 && row[79] == 255)
    }

    @Test func transparentPixelsLendNoColour() throws {
        // Opaque red beside fully transparent pixels whose colour bytes say blue: the blurred edge is red, fading.
        let image = bitmap(40, 4) { x, _ in x < 20 ? [255, 0, 0, 255] : [0, 0, 255, 0] }
        let blurred = try ImageProcessors.GaussianBlur(radius: 3).process(image)
        for x in 16..<26 {
            let pixel = blurred[x, 2]
            #expect(pixel.alpha > 0 && pixel.alpha < 255, "x \(x): \(pixel)")
            #expect(pixel.red >= 250 && pixel.blue == 0, "x \(x): \(pixel)")
        }
        #expect(blurred[39, 2].alpha == 0)
    }

    @Test func aZeroRadiusChangesNothingAndTheIdentifierNamesTheRadius() throws {
        let image = bitmap(5, 5) { x, y in [UInt8(x * 50), UInt8(y * 50), 7, 200] }
        #expect(try ImageProcessors.GaussianBlur(radius: 0).process(image).pixels == image.pixels)
        #expect(ImageProcessors.GaussianBlur().identifier == "gaussianBlur(8)")
        #expect(
            ImageProcessors.GaussianBlur(radius: 3).identifier != ImageProcessors.GaussianBlur(radius: 4).identifier
        )
    }

    @Test func threeBoxesHaveTheGaussiansVariance() {
        for sigma in [4, 8, 20, 50] {
            let sizes = ImageProcessors.GaussianBlur.boxSizes(deviation: Double(sigma))
            #expect(sizes.count == 3 && sizes.allSatisfy { $0 % 2 == 1 })
            let variance = sizes.map { Double($0 * $0 - 1) / 12 }.reduce(0, +)
            #expect(abs(variance - Double(sigma * sigma)) <= 0.1 * Double(sigma * sigma), "σ \(sigma): \(sizes)")
        }
    }

    @Test func anAnonymousProcessorRunsItsClosureUnderItsIdentifier() throws {
        let invert = ImageProcessors.Anonymous(id: "invert") { image in
            Bitmap(
                width: image.width,
                height: image.height,
                pixels: image.pixels.enumerated().map { $0.offset % 4 == 3 ? $0.element : 255 - $0.element }
            )
        }
        #expect(invert.identifier == "invert")
        let result = try invert.process(Bitmap(width: 1, height: 1, red: 10, green: 20, blue: 30))
        #expect(result[0, 0] == (245, 235, 225, 255))
        // The identifier is part of the request's cache key.
        let request = ImageRequest(url: URL(string: "https://example.com/a.jpg"), processors: [invert])
        let plain = ImageRequest(url: URL(string: "https://example.com/a.jpg"))
        #expect(request.imageKey != plain.imageKey)
    }
}
