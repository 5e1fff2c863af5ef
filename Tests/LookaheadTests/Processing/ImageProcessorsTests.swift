// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — resizing, cropping, circles, rounded corners, composition, and the resampler's filter.

import Foundation
import Testing

@testable import Lookahead

@Suite struct ImageProcessorsTests {
    let photo = Bitmap(width: 640, height: 480, red: 200, green: 100, blue: 50)

    @Test func resizeSizesOnA640By480Image() throws {
        #expect(
            try ImageProcessors.Resize(width: 400, height: 400, contentMode: .aspectFill).process(photo).size == [
                533, 400,
            ]
        )
        #expect(
            try ImageProcessors.Resize(width: 480, height: 480, contentMode: .aspectFit).process(photo).size == [
                480, 360,
            ]
        )
        #expect(try ImageProcessors.Resize(width: 400).process(photo).size == [400, 300])
        #expect(try ImageProcessors.Resize(height: 240).process(photo).size == [320, 240])
        #expect(try ImageProcessors.Resize(width: 400, height: 400, crop: true).process(photo).size == [400, 400])
    }

    @Test func resizeNeverUpscalesUnlessAsked() throws {
        #expect(try ImageProcessors.Resize(width: 1280).process(photo).size == [640, 480])
        #expect(try ImageProcessors.Resize(width: 1280, upscale: true).process(photo).size == [1280, 960])
    }

    @Test func cropKeepsTheCentre() throws {
        // Left half black, right half white: a centred crop of a wide image keeps both halves.
        var pixels = [UInt8]()
        for _ in 0..<10 {
            for x in 0..<40 { pixels += x < 20 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        }
        let image = Bitmap(width: 40, height: 10, pixels: pixels)
        let cropped = image.cropped(width: 10, height: 10)
        #expect(cropped[0, 5].red == 0)
        #expect(cropped[9, 5].red == 255)
    }

    @Test func circleIsTransparentOutsideAndOpaqueInside() throws {
        let circle = try ImageProcessors.Circle().process(photo)
        #expect(circle.size == [480, 480])
        #expect(circle[0, 0].alpha == 0)
        #expect(circle[479, 479].alpha == 0)
        #expect(circle[240, 240].alpha == 255)
        #expect(circle[240, 1].alpha == 255)  // the top of the circle
        let edge = (0..<480).map { Int(circle[$0, 60].alpha) }
        #expect(edge.contains { $0 > 0 && $0 < 255 }, "the edge is anti-aliased")
    }

    @Test func roundedCornersOnlyTouchTheCorners() throws {
        let image = Bitmap(width: 80, height: 80, red: 10, green: 20, blue: 30)
        let rounded = try ImageProcessors.RoundedCorners(radius: 8).process(image)
        #expect(rounded[0, 0].alpha == 0)
        #expect(rounded[79, 0].alpha == 0)
        #expect(rounded[0, 79].alpha == 0)
        #expect(rounded[79, 79].alpha == 0)
        #expect(rounded[0, 40].alpha == 255)
        #expect(rounded[40, 0].alpha == 255)
        #expect(rounded[8, 8].alpha == 255)
        #expect(rounded[2, 2].alpha < 255)
    }

    @Test func aBorderFollowsTheInsideOfTheEdge() throws {
        let image = Bitmap(width: 80, height: 60, red: 10, green: 20, blue: 30)
        let white = ImageProcessors.Border(red: 255, green: 255, blue: 255, width: 3)
        let rounded = try ImageProcessors.RoundedCorners(radius: 10, border: white).process(image)
        // Along a straight side: three white pixels, then the image.
        for x in 0..<3 { #expect(rounded[x, 30] == (255, 255, 255, 255), "x \(x): \(rounded[x, 30])") }
        #expect(rounded[3, 30] == (10, 20, 30, 255))
        #expect(rounded[40, 59] == (255, 255, 255, 255) && rounded[40, 56] == (10, 20, 30, 255))
        // In a corner: transparent outside the arc, white along it, the image inside.
        #expect(rounded[0, 0].alpha == 0)
        #expect(rounded[4, 4].red > 200 && rounded[4, 4].alpha > 100)
        #expect(rounded[12, 12] == (10, 20, 30, 255))
        // A circle's border: white at the top of the circle, the image at its centre.
        let circle = try ImageProcessors.Circle(border: white).process(image)
        #expect(circle[30, 1] == (255, 255, 255, 255))
        #expect(circle[30, 30] == (10, 20, 30, 255))
        #expect(circle[0, 0].alpha == 0)
        // The border is part of the identifier; without one the identifiers are as before.
        #expect(ImageProcessors.Circle().identifier == "circle")
        #expect(ImageProcessors.RoundedCorners(radius: 8).identifier == "roundedCorners(8)")
        #expect(ImageProcessors.Circle(border: white).identifier != ImageProcessors.Circle().identifier)
        #expect(
            ImageProcessors.RoundedCorners(radius: 8, border: white).identifier
                != ImageProcessors.RoundedCorners(radius: 8, border: .init(red: 0, green: 0, blue: 0, width: 3))
                .identifier
        )
    }

    @Test func compositionAppliesInOrderAndNamesItsParts() throws {
        let composition = ImageProcessors.Composition([
            ImageProcessors.Resize(width: 100, height: 100, crop: true), ImageProcessors.RoundedCorners(radius: 8),
        ])
        let output = try composition.process(photo)
        #expect(output.size == [100, 100])
        #expect(output[0, 0].alpha == 0)
        #expect(composition.identifier.contains("resize(") && composition.identifier.contains("roundedCorners(8)"))
    }

    @Test func identifiersDifferWithTheirParameters() {
        let identifiers = [
            ImageProcessors.Resize(width: 100, height: 100).identifier,
            ImageProcessors.Resize(width: 100, height: 100, crop: true).identifier,
            ImageProcessors.Resize(width: 100, height: 100, contentMode: .aspectFit).identifier,
            ImageProcessors.Resize(width: 100).identifier, ImageProcessors.RoundedCorners(radius: 8).identifier,
            ImageProcessors.RoundedCorners(radius: 9).identifier, ImageProcessors.Circle().identifier,
        ]
        #expect(Set(identifiers).count == identifiers.count)
    }

    @Test(arguments: [Resampler.Filter.triangle, .catmullRom, .lanczos3]) func resamplingPreservesFlatColourAndAverages(
        filter: Resampler.Filter
    ) {
        let flat = Resampler.resize(photo, width: 97, height: 61, filter: filter)
        #expect(flat.size == [97, 61])
        #expect(
            flat.pixels.enumerated().allSatisfy { index, value in
                abs(Int(value) - Int(photo.pixels[index % 4])) <= 1
            }
        )
        // A 1-pixel checkerboard shrunk by 4 becomes mid-grey: every source pixel contributes (no nearest neighbour).
        var checker = [UInt8]()
        for y in 0..<64 {
            for x in 0..<64 { checker += (x + y) % 2 == 0 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        }
        let small = Resampler.resize(
            Bitmap(width: 64, height: 64, pixels: checker),
            width: 16,
            height: 16,
            filter: filter
        )
        #expect(small.pixels.enumerated().allSatisfy { index, value in index % 4 == 3 || abs(Int(value) - 128) <= 12 })
    }

    @Test func channelValuesBecomeBytesRoundedAndClamped() {
        let bytes = Resampler.bytes(SIMD4(-3.2, 0.4, 127.6, 300))
        #expect(bytes == SIMD4(0, 0, 128, 255))
        #expect(Resampler.bytes(SIMD4(.nan, -.infinity, .infinity, 254.49)) == SIMD4(0, 0, 255, 254))
    }

    @Test(arguments: [Resampler.Filter.triangle, .catmullRom, .lanczos3]) func theOpaquePathMatchesTheGeneralOne(
        filter: Resampler.Filter
    ) {
        // An opaque image resampled as opaque (no alpha, sums set by the first row) and as possibly transparent
        // (premultiplied, sums cleared first) gives the same bytes, within a rounding step.
        var pixels = [UInt8]()
        var random = SplitMix64(seed: 7)
        for _ in 0..<(50 * 37) { pixels += [UInt8(random.next() & 255), UInt8(random.next() & 255), 99, 255] }
        let image = Bitmap(width: 50, height: 37, pixels: pixels)
        let opaque = Resampler.resize(image, width: 23, height: 19, filter: filter, isOpaque: true)
        let general = Resampler.resize(image, width: 23, height: 19, filter: filter, isOpaque: false)
        #expect(opaque.pixels.count == general.pixels.count)
        #expect(zip(opaque.pixels, general.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        #expect(opaque.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }

    @Test(arguments: [
        (Resampler.Filter.catmullRom, 50, 37, 23, 19), (.catmullRom, 480, 30, 256, 16), (.catmullRom, 41, 9, 40, 8),
        (.triangle, 64, 20, 9, 5), (.lanczos3, 97, 31, 45, 14), (.lanczos3, 11, 7, 29, 23), (.catmullRom, 3, 2, 17, 9),
        (.triangle, 40, 9, 40, 5), (.triangle, 33, 8, 50, 12), (.catmullRom, 30, 7, 24, 3),
        (.catmullRom, 35, 10, 20, 1),
        (.catmullRom, 1, 9, 3, 4), (.lanczos3, 9, 1, 4, 1),
    ])
    func theResamplerMatchesASeparableFilterComputedDirectly(
        filter: Resampler.Filter,
        width: Int,
        height: Int,
        targetWidth: Int,
        targetHeight: Int
    ) {
        // The kernels pad taps, unroll them by count, convert rows once into a ring and add them four at a time; a
        // double-precision sum over every source pixel, written from the filter's definition, checks all of it,
        // opaque and premultiplied, shrinking (1 to 9 taps, 13 with Lanczos), enlarging and one-pixel sides, rows
        // longer than their pixels, and a ring of four rows, which sums a large reduction's rows in parts.
        var random = SplitMix64(seed: UInt64(width * 1000 + targetWidth))
        // In the second run each row is 12 bytes longer than its pixels.
        for (opaque, ringBytes, padding) in [(true, 1 << 20, 0), (false, 1 << 20, 12), (true, 0, 0), (false, 0, 0)] {
            var pixels = [UInt8]()
            for _ in 0..<height {
                for _ in 0..<width {
                    let alpha = opaque ? 255 : [0, 255, UInt8(random.next() & 255)][Int(random.next() % 3)]
                    pixels += [
                        UInt8(random.next() & 255), UInt8(random.next() & 255), UInt8(random.next() & 255), alpha,
                    ]
                }
                pixels += [UInt8](repeating: 77, count: padding)
            }
            let image = Bitmap(width: width, height: height, bytesPerRow: width * 4 + padding, pixels: pixels)
            let resized = Resampler.resize(
                image,
                width: targetWidth,
                height: targetHeight,
                filter: filter,
                isOpaque: nil,
                ringBytes: ringBytes
            )
            let columns = directWeights(source: width, target: targetWidth, filter: filter)
            let rows = directWeights(source: height, target: targetHeight, filter: filter)
            var worst = 0.0
            for y in 0..<targetHeight {
                for x in 0..<targetWidth {
                    var sum = [0.0, 0.0, 0.0, 0.0]
                    for sy in 0..<height where rows[y][sy] != 0 {
                        for sx in 0..<width where columns[x][sx] != 0 {
                            let weight = rows[y][sy] * columns[x][sx]
                            let pixel = image[sx, sy]
                            let alpha = Double(pixel.alpha) / 255
                            sum[0] += weight * Double(pixel.red) * alpha
                            sum[1] += weight * Double(pixel.green) * alpha
                            sum[2] += weight * Double(pixel.blue) * alpha
                            sum[3] += weight * Double(pixel.alpha)
                        }
                    }
                    let alpha = min(255, max(0, sum[3]))
                    let got = resized[x, y]
                    if alpha > 0.5 {
                        let expected = (0..<3).map { min(255, max(0, sum[$0] * 255 / alpha)) }
                        worst = max(worst, abs(expected[0] - Double(got.red)), abs(expected[1] - Double(got.green)))
                        worst = max(worst, abs(expected[2] - Double(got.blue)), abs(alpha - Double(got.alpha)))
                    } else {
                        worst = max(worst, Double(got.alpha))
                    }
                }
            }
            #expect(worst <= 1, "opaque \(opaque), ring of \(ringBytes) bytes: off by \(worst)")
        }
    }

    /// Each target pixel's normalised weight of every source pixel: the filter centred on the target pixel,
    /// widened by the shrink factor when shrinking.
    private func directWeights(source: Int, target: Int, filter: Resampler.Filter) -> [[Double]] {
        let scale = Double(target) / Double(source)
        let stretch = max(1, 1 / scale)
        return (0..<target).map { index in
            let center = (Double(index) + 0.5) / scale
            let weights = (0..<source).map { position in
                filter.weight((Double(position) + 0.5 - center) / stretch)
            }
            let total = weights.reduce(0, +)
            return weights.map { $0 / total }
        }
    }

    @Test func transparentPixelsDoNotDarkenTheirNeighbours() {
        // Opaque red next to fully transparent black: premultiplied resampling keeps the edge red, not dark red.
        var pixels = [UInt8]()
        for _ in 0..<8 {
            for x in 0..<8 { pixels += x < 4 ? [255, 0, 0, 255] : [0, 0, 0, 0] }
        }
        let half = Resampler.resize(Bitmap(width: 8, height: 8, pixels: pixels), width: 4, height: 4)
        let edge = half[1, 2]
        #expect(edge.alpha > 0)
        #expect(edge.red >= 250, "got \(edge)")
    }
}

extension Bitmap {
    fileprivate var size: [Int] { [width, height] }
}
