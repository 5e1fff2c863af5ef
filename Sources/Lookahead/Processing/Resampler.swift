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
    /// Resizes a bitmap one output row at a time (``RowPass``), with no image-sized intermediate buffer; `isOpaque`
    /// spares the scan of the alpha channel when the caller knows. The ring of source rows holds at most `ringBytes`
    /// (and at least four rows): a large reduction sums its source rows in parts rather than holding them all.
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
        // Every output pixel reads `taps` taps, zero-weighted past its own count: no per-pixel bound in the loop.
        let weights = horizontal.weights.map { SIMD4<Float>(repeating: $0) }
        let ringRows = min(vertical.taps, max(4, ringBytes / max(1, image.width * 16)))
        let output = PixelBufferPool.shared.makeBuffer(count: width * height * 4) { target in
            image.pixels.withUnsafeBufferPointer { source in
                horizontal.withPointers { hFirst, _, _ in
                    vertical.withPointers { vFirst, vCount, vWeights in
                        weights.withUnsafeBufferPointer { hWeights in
                            let pass = RowPass(
                                source: (source.baseAddress!, image.width, image.bytesPerRow),
                                vertical: (vFirst, vCount, vWeights, vertical.taps),
                                horizontal: (hFirst, hWeights.baseAddress!, horizontal.taps),
                                width: width,
                                ringRows: ringRows,
                                isOpaque: isOpaque
                            )
                            defer { pass.deallocate() }
                            for y in 0..<height { pass.resample(row: y, into: target.baseAddress! + y &* width &* 4) }
                        }
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: output)
    }

    /// For each target pixel: the first source pixel and the normalised weights of the source pixels it reads, `taps`
    /// to a pixel (the most any pixel reads; zero past a pixel's own count).
    struct Contributions {
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
            let longest = count.max() ?? 1
            weights = (0..<target).flatMap { weights[($0 * taps)..<($0 * taps + longest)] }
            taps = longest
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

    /// Four channel values clamped to 0...255 and rounded to bytes without a trapping conversion: adding 1.5 × 2²³
    /// leaves the rounded integer in a float's low mantissa bits.
    @inline(__always)
    static func bytes(_ value: SIMD4<Float>) -> SIMD4<UInt8> {
        let clamped = value.replacing(with: 0, where: .!(value .> 0)).replacing(with: 255, where: value .> 255)
        let shifted = clamped + SIMD4(repeating: 12_582_912)
        return SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(shifted, to: SIMD4<UInt32>.self))
    }
}

extension Bitmap {
    /// Whether every pixel is fully opaque.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            stride(from: 3, to: buffer.count, by: 4).allSatisfy { buffer[$0] == 255 }
        }
    }
}
