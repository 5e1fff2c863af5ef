// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Resizes bitmaps with a separable filter, widened when shrinking so every source pixel contributes (no
/// aliasing), in premultiplied alpha (no dark fringes around transparent edges).
public enum Resampler {
    /// The reconstruction filter.
    public enum Filter: Sendable, Hashable {
        /// Linear interpolation (a tent); cheapest, soft.
        case triangle
        /// Catmull-Rom bicubic; sharp, little ringing. The default.
        case catmullRom
        /// Lanczos with three lobes; the sharpest.
        case lanczos3

        var support: Double {
            switch self {
            case .triangle: 1
            case .catmullRom: 2
            case .lanczos3: 3
            }
        }

        func weight(_ x: Double) -> Double {
            let x = abs(x)
            switch self {
            case .triangle:
                return max(0, 1 - x)
            case .catmullRom:
                if x < 1 { return 1.5 * x * x * x - 2.5 * x * x + 1 }
                if x < 2 { return -0.5 * x * x * x + 2.5 * x * x - 4 * x + 2 }
                return 0
            case .lanczos3:
                if x < 1e-8 { return 1 }
                if x >= 3 { return 0 }
                let pi = Double.pi
                return 3 * sin(pi * x) * sin(pi * x / 3) / (pi * pi * x * x)
            }
        }
    }

    /// Resizes a bitmap to exactly `width` × `height`.
    public static func resize(_ image: Bitmap, width: Int, height: Int, filter: Filter = .catmullRom) -> Bitmap {
        resize(image, width: width, height: height, filter: filter, isOpaque: nil)
    }

    /// Resizes a bitmap; `isOpaque` spares the scan of the alpha channel when the caller knows (a JPEG is opaque).
    ///
    /// One output row at a time: each source row is converted to floats once (premultiplied unless opaque) into a
    /// ring of the rows an output row reads; those rows are summed, weighted, into one row of floats (loops the
    /// compiler vectorises); then each output pixel sums its taps of that row as `SIMD4<Float>`, the four channels
    /// at once. No image-sized intermediate buffer.
    ///
    /// The ring holds at most `ringBytes` of rows (and never fewer than four): a large reduction, whose output rows
    /// each read many source rows, sums them in parts and converts rows again rather than holding them all.
    static func resize(
        _ image: Bitmap,
        width: Int,
        height: Int,
        filter: Filter,
        isOpaque: Bool?,
        ringBytes: Int = 1 << 20
    ) -> Bitmap {
        let width = max(1, width)
        let height = max(1, height)
        if width == image.width, height == image.height { return image }
        let isOpaque = isOpaque ?? image.isOpaque
        let horizontal = Contributions(source: image.width, target: width, filter: filter)
        let vertical = Contributions(source: image.height, target: height, filter: filter)
        // Every output pixel reads the same number of taps, those past its own count with a weight of zero, so
        // the horizontal loop has one trip count and no per-pixel bound; its weights are stored four lanes wide.
        let taps = horizontal.longest
        let weights = horizontal.broadcastWeights(taps: taps)
        let sourceWidth = image.width
        let sourceRowBytes = image.bytesPerRow
        let output = PixelBufferPool.shared.makeBuffer(count: width * height * 4) { target in
            // The vertical sums of a source row, then `taps` pixels of zeros that the last pixels' padded taps
            // read; then one output row's sums.
            let rowLength = (sourceWidth + taps) * 4
            let scalars = UnsafeMutablePointer<Float>.allocate(capacity: rowLength + width * 4)
            defer { scalars.deallocate() }
            scalars.initialize(repeating: 0, count: rowLength + width * 4)
            let results = scalars + rowLength
            let ring = RowRing(
                rows: min(vertical.longest, max(4, ringBytes / max(1, sourceWidth * 16))),
                width: sourceWidth
            )
            defer { ring.deallocate() }
            image.pixels.withUnsafeBufferPointer { source in
                horizontal.withPointers { hFirst, _, _ in
                    vertical.withPointers { vFirst, vCount, vWeights in
                        weights.withUnsafeBufferPointer { hWeights in
                            for y in 0..<height {
                                let count = max(1, vCount[y])
                                // As many rows at a time as the ring holds: all of them unless the reduction is
                                // large.
                                for part in stride(from: 0, to: count, by: ring.capacity) {
                                    let first = vFirst[y] + part
                                    let rows = min(ring.capacity, count - part)
                                    for row in first..<(first + rows) where ring.needs(row) {
                                        let line = source.baseAddress! + row * sourceRowBytes
                                        if isOpaque {
                                            ring.convert(line, into: row)
                                        } else {
                                            ring.convertPremultiplied(line, into: row)
                                        }
                                    }
                                    ring.sum(
                                        from: first,
                                        count: rows,
                                        weights: vWeights + y * vertical.taps + part,
                                        into: scalars,
                                        adding: part > 0
                                    )
                                }
                                sumTaps(
                                    of: UnsafeRawPointer(scalars),
                                    first: hFirst,
                                    weights: hWeights.baseAddress!,
                                    taps: taps,
                                    into: UnsafeMutableRawPointer(results),
                                    width: width
                                )
                                let out = target.baseAddress! + y &* width &* 4
                                if isOpaque {
                                    storeOpaque(results, to: out, width: width)
                                } else {
                                    for x in 0..<width {
                                        let pixel = UnsafeRawPointer(results).loadUnaligned(
                                            fromByteOffset: x &<< 4,
                                            as: SIMD4<Float>.self
                                        )
                                        store(pixel, to: out + x &<< 2)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: output)
    }

    /// Source rows as floats, the four channels of a pixel side by side: a ring holding each of the consecutive
    /// rows an output row reads, so a row is converted once however many output rows read it.
    private struct RowRing {
        /// How many rows the ring holds: the most an output row reads, unless that is more than the byte bound.
        let capacity: Int
        /// Floats in a row.
        let length: Int
        /// The rows, `capacity` × `length` floats.
        let storage: UnsafeMutablePointer<Float>
        /// The source row in each slot, or -1.
        let held: UnsafeMutablePointer<Int>

        init(rows: Int, width: Int) {
            capacity = max(1, rows)
            length = width * 4
            storage = .allocate(capacity: capacity * length)
            held = .allocate(capacity: capacity)
            held.initialize(repeating: -1, count: capacity)
        }

        func deallocate() {
            storage.deallocate()
            held.deallocate()
        }

        /// Whether `row` is not in the ring yet.
        @inline(__always)
        func needs(_ row: Int) -> Bool { held[row % capacity] != row }

        @inline(__always)
        private func slot(_ row: Int) -> UnsafeMutablePointer<Float> { storage + (row % capacity) * length }

        /// Stores a row of opaque pixels.
        @inline(__always)
        func convert(_ line: UnsafePointer<UInt8>, into row: Int) {
            let target = slot(row)
            for index in 0..<length { target[index] = Float(line[index]) }
            held[row % capacity] = row
        }

        /// Stores a row of pixels premultiplied by their alpha.
        @inline(__always)
        func convertPremultiplied(_ line: UnsafePointer<UInt8>, into row: Int) {
            let target = UnsafeMutableRawPointer(slot(row))
            for x in 0..<(length / 4) {
                let pixel = load(line + 4 * x)
                let alpha = pixel[3]
                let value = pixel * SIMD4(alpha, alpha, alpha, 255) * (1 / 255)
                target.storeBytes(of: value, toByteOffset: 16 * x, as: SIMD4<Float>.self)
            }
            held[row % capacity] = row
        }

        /// The weighted sum of `count` rows from `first`, all in the ring, into `sums`, or added to it. Rows are
        /// added four at a time, so the sums make one trip to memory per four rows.
        @inline(__always)
        func sum(
            from first: Int,
            count: Int,
            weights: UnsafePointer<Float>,
            into sums: UnsafeMutablePointer<Float>,
            adding: Bool
        ) {
            let length = length
            var tap = 0
            while tap < count {
                let row = first + tap
                let weight = weights + tap
                let remaining = count &- tap
                if remaining >= 4 {
                    let (l0, l1, l2, l3) = (slot(row), slot(row + 1), slot(row + 2), slot(row + 3))
                    let (w0, w1, w2, w3) = (weight[0], weight[1], weight[2], weight[3])
                    if tap == 0, !adding {
                        for index in 0..<length {
                            sums[index] = (w0 * l0[index] + w1 * l1[index]) + (w2 * l2[index] + w3 * l3[index])
                        }
                    } else {
                        for index in 0..<length {
                            sums[index] += (w0 * l0[index] + w1 * l1[index]) + (w2 * l2[index] + w3 * l3[index])
                        }
                    }
                    tap &+= 4
                } else if remaining >= 2 {
                    let (l0, l1) = (slot(row), slot(row + 1))
                    let (w0, w1) = (weight[0], weight[1])
                    if tap == 0, !adding {
                        for index in 0..<length { sums[index] = w0 * l0[index] + w1 * l1[index] }
                    } else {
                        for index in 0..<length { sums[index] += w0 * l0[index] + w1 * l1[index] }
                    }
                    tap &+= 2
                } else {
                    let (l0, w0) = (slot(row), weight[0])
                    if tap == 0, !adding {
                        for index in 0..<length { sums[index] = w0 * l0[index] }
                    } else {
                        for index in 0..<length { sums[index] += w0 * l0[index] }
                    }
                    tap &+= 1
                }
            }
        }
    }

    /// Each output pixel's `taps` pixels of a row of sums, weighted: four channels at once. The common tap counts
    /// are spelled out so that the compiler unrolls each one's loop.
    @inline(__always)
    private static func sumTaps(
        of row: UnsafeRawPointer,
        first: UnsafePointer<Int>,
        weights: UnsafePointer<SIMD4<Float>>,
        taps: Int,
        into results: UnsafeMutableRawPointer,
        width: Int
    ) {
        switch taps {
        case 1: sumTaps(of: row, first: first, weights: weights, count: 1, into: results, width: width)
        case 2: sumTaps(of: row, first: first, weights: weights, count: 2, into: results, width: width)
        case 3: sumTaps(of: row, first: first, weights: weights, count: 3, into: results, width: width)
        case 4: sumTaps(of: row, first: first, weights: weights, count: 4, into: results, width: width)
        case 5: sumTaps(of: row, first: first, weights: weights, count: 5, into: results, width: width)
        case 6: sumTaps(of: row, first: first, weights: weights, count: 6, into: results, width: width)
        case 7: sumTaps(of: row, first: first, weights: weights, count: 7, into: results, width: width)
        case 8: sumTaps(of: row, first: first, weights: weights, count: 8, into: results, width: width)
        case 9: sumTaps(of: row, first: first, weights: weights, count: 9, into: results, width: width)
        default: sumTaps(of: row, first: first, weights: weights, count: taps, into: results, width: width)
        }
    }

    @inline(__always)
    private static func sumTaps(
        of row: UnsafeRawPointer,
        first: UnsafePointer<Int>,
        weights: UnsafePointer<SIMD4<Float>>,
        count: Int,
        into results: UnsafeMutableRawPointer,
        width: Int
    ) {
        // Offsets wrap rather than trap: the tables keep them inside the row and its padding.
        var weight = weights
        for x in 0..<width {
            let pixel = row + first[x] &<< 4
            var sum = pixel.loadUnaligned(as: SIMD4<Float>.self) * weight[0]
            for tap in 1..<max(1, count) {
                sum += pixel.loadUnaligned(fromByteOffset: tap &<< 4, as: SIMD4<Float>.self) * weight[tap]
            }
            results.storeBytes(of: sum, toByteOffset: x &<< 4, as: SIMD4<Float>.self)
            weight += count
        }
    }

    /// A row of opaque pixels from their sums: each channel rounded and clamped in a loop the compiler
    /// vectorises, then alpha set.
    @inline(__always)
    private static func storeOpaque(_ sums: UnsafePointer<Float>, to out: UnsafeMutablePointer<UInt8>, width: Int) {
        for index in 0..<(width &* 4) {
            let value = sums[index]
            let clamped = value > 0 ? (value < 255 ? value : 255) : 0
            out[index] = UInt8(truncatingIfNeeded: (clamped + 12_582_912).bitPattern)
        }
        for x in 0..<width { out[x &* 4 &+ 3] = 255 }
    }

    /// Four bytes as floats.
    @inline(__always)
    private static func load(_ pointer: UnsafePointer<UInt8>) -> SIMD4<Float> {
        SIMD4(Float(pointer[0]), Float(pointer[1]), Float(pointer[2]), Float(pointer[3]))
    }

    /// Writes a premultiplied pixel, un-premultiplied, rounding and clamping.
    @inline(__always)
    private static func store(_ value: SIMD4<Float>, to pointer: UnsafeMutablePointer<UInt8>) {
        let alpha = min(255, max(0, value[3]))
        guard alpha > 0.5 else {
            pointer.update(repeating: 0, count: 4)
            return
        }
        var value = value * SIMD4(255 / alpha, 255 / alpha, 255 / alpha, 1)
        value[3] = alpha
        UnsafeMutableRawPointer(pointer).storeBytes(of: bytes(value), as: SIMD4<UInt8>.self)
    }

    /// Four channel values clamped to 0...255 and rounded to bytes, all four at once and without a trapping
    /// conversion: adding 1.5 × 2²³ leaves the rounded integer in a float's low mantissa bits.
    @inline(__always)
    static func bytes(_ value: SIMD4<Float>) -> SIMD4<UInt8> {
        let clamped = value.replacing(with: 0, where: .!(value .> 0)).replacing(with: 255, where: value .> 255)
        let shifted = clamped + SIMD4(repeating: 12_582_912)
        return SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(shifted, to: SIMD4<UInt32>.self))
    }

    /// For each target pixel: the first source pixel and the normalised weights of the source pixels it reads.
    private struct Contributions {
        var first: [Int]
        var count: [Int]
        var weights: [Float]
        var taps: Int

        init(source: Int, target: Int, filter: Filter) {
            let scale = Double(target) / Double(source)
            let stretch = max(1, 1 / scale)  // widen the filter when shrinking
            let radius = filter.support * stretch
            taps = Int((radius * 2).rounded(.up)) + 1
            first = [Int](repeating: 0, count: target)
            count = [Int](repeating: 0, count: target)
            weights = [Float](repeating: 0, count: target * taps)
            // One scratch row of weights for every target pixel: no allocation per pixel.
            var values = [Double](repeating: 0, count: Int((radius * 2).rounded(.up)) + 3)
            for index in 0..<target {
                let center = (Double(index) + 0.5) / scale
                let start = max(0, Int((center - radius).rounded(.down)))
                let end = min(source - 1, Int((center + radius).rounded(.up)))
                var total = 0.0
                for position in start...end {
                    let weight = filter.weight((Double(position) + 0.5 - center) / stretch)
                    values[position - start] = weight
                    total += weight
                }
                // Trim zero weights at both ends so the inner loops stay short.
                var lower = 0
                var upper = end - start
                while lower < upper, values[lower] == 0 { lower += 1 }
                while upper > lower, values[upper] == 0 { upper -= 1 }
                let used = min(taps, upper - lower + 1)
                first[index] = start + lower
                count[index] = used
                for tap in 0..<used {
                    weights[index * taps + tap] = Float(total == 0 ? 1 / Double(used) : values[lower + tap] / total)
                }
            }
        }

        /// The most taps any target pixel reads.
        var longest: Int { count.max() ?? 1 }

        /// The weights of the first `taps` taps of every target pixel, each four lanes wide; zero past a pixel's
        /// own count.
        func broadcastWeights(taps: Int) -> [SIMD4<Float>] {
            var wide = [SIMD4<Float>](repeating: .zero, count: count.count * taps)
            for index in 0..<count.count {
                for tap in 0..<min(taps, self.taps) {
                    wide[index * taps + tap] = SIMD4(repeating: weights[index * self.taps + tap])
                }
            }
            return wide
        }

        /// The three tables as pointers, for inner loops without bounds checks.
        func withPointers<Result>(
            _ body: (UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Float>) -> Result
        ) -> Result {
            first.withUnsafeBufferPointer { first in
                count.withUnsafeBufferPointer { count in
                    weights.withUnsafeBufferPointer { weights in
                        body(first.baseAddress!, count.baseAddress!, weights.baseAddress!)
                    }
                }
            }
        }
    }
}

extension Bitmap {
    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            var index = 3
            while index < buffer.count {
                if buffer[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }
}
