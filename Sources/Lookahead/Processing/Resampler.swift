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
    /// One output row at a time: the source rows it reads are summed, weighted, into one row of floats (a loop
    /// over the row's bytes that the compiler vectorises), then each output pixel sums its taps of that row as
    /// `SIMD4<Float>` (the four channels at once). No image-sized intermediate buffer.
    static func resize(_ image: Bitmap, width: Int, height: Int, filter: Filter, isOpaque: Bool?) -> Bitmap {
        let width = max(1, width)
        let height = max(1, height)
        if width == image.width, height == image.height { return image }
        let isOpaque = isOpaque ?? image.isOpaque
        let horizontal = Contributions(source: image.width, target: width, filter: filter)
        let vertical = Contributions(source: image.height, target: height, filter: filter)
        let sourceWidth = image.width
        let sourceRowBytes = image.bytesPerRow
        let output = PixelBufferPool.shared.makeBuffer(count: width * height * 4) { target in
            let scalars = UnsafeMutablePointer<Float>.allocate(capacity: sourceWidth * 4)
            defer { scalars.deallocate() }
            let row = UnsafeMutableRawPointer(scalars)  // read and written as SIMD4<Float>, 16 bytes a pixel
            image.pixels.withUnsafeBufferPointer { source in
                horizontal.withPointers { hFirst, hCount, hWeights in
                    vertical.withPointers { vFirst, vCount, vWeights in
                        for y in 0..<height {
                            // Vertical: the weighted sum of the source rows, premultiplied unless opaque. The
                            // first row of an opaque image sets the sums, so they need no clearing.
                            if !isOpaque { scalars.update(repeating: 0, count: sourceWidth * 4) }
                            for tap in 0..<vCount[y] {
                                let weight = vWeights[y * vertical.taps + tap]
                                let line = source.baseAddress! + (vFirst[y] + tap) * sourceRowBytes
                                if isOpaque, tap == 0 {
                                    for index in 0..<(sourceWidth * 4) { scalars[index] = weight * Float(line[index]) }
                                } else if isOpaque {
                                    for index in 0..<(sourceWidth * 4) { scalars[index] += weight * Float(line[index]) }
                                } else {
                                    let scale = weight / 255
                                    for x in 0..<sourceWidth {
                                        let pixel = load(line + 4 * x)
                                        let alpha = pixel[3]
                                        let sum = row.loadUnaligned(fromByteOffset: 16 * x, as: SIMD4<Float>.self)
                                        let added = sum + pixel * SIMD4(alpha, alpha, alpha, 255) * scale
                                        row.storeBytes(of: added, toByteOffset: 16 * x, as: SIMD4<Float>.self)
                                    }
                                }
                            }
                            // Horizontal: each output pixel's taps of that row, four channels at once. Offsets
                            // wrap rather than trap: the tables keep them inside the row.
                            let out = target.baseAddress! + y &* width &* 4
                            for x in 0..<width {
                                let taps = hWeights + x &* horizontal.taps
                                var pixel = row + hFirst[x] &<< 4
                                var sum = pixel.loadUnaligned(as: SIMD4<Float>.self) * taps[0]
                                for tap in 1..<max(1, hCount[x]) {
                                    pixel += 16
                                    sum += pixel.loadUnaligned(as: SIMD4<Float>.self) * taps[tap]
                                }
                                store(sum, to: out + x &<< 2, isOpaque: isOpaque)
                            }
                        }
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: output)
    }

    /// Four bytes as floats.
    @inline(__always)
    private static func load(_ pointer: UnsafePointer<UInt8>) -> SIMD4<Float> {
        SIMD4(Float(pointer[0]), Float(pointer[1]), Float(pointer[2]), Float(pointer[3]))
    }

    /// Writes a pixel, rounding and clamping; un-premultiplies unless opaque.
    @inline(__always)
    private static func store(_ value: SIMD4<Float>, to pointer: UnsafeMutablePointer<UInt8>, isOpaque: Bool) {
        var value = value
        if isOpaque {
            value[3] = 255
        } else {
            let alpha = min(255, max(0, value[3]))
            guard alpha > 0.5 else {
                pointer.update(repeating: 0, count: 4)
                return
            }
            value *= SIMD4(255 / alpha, 255 / alpha, 255 / alpha, 1)
            value[3] = alpha
        }
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
