// Lookahead — Resampler: separable, filtered resizing of RGBA bitmaps (never nearest neighbour).

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
        /// Lanczos with three lobes; the sharpest, what libvips uses by default.
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
        let width = max(1, width)
        let height = max(1, height)
        if width == image.width, height == image.height { return image }
        let isOpaque = image.isOpaque
        let horizontal = Contributions(source: image.width, target: width, filter: filter)
        let vertical = Contributions(source: image.height, target: height, filter: filter)
        // Pass 1: rows, into a float buffer (premultiplied), width × source height.
        var middle = [Float](repeating: 0, count: width * image.height * 4)
        image.pixels.withUnsafeBufferPointer { source in
            middle.withUnsafeMutableBufferPointer { target in
                for y in 0..<image.height {
                    let row = y * image.bytesPerRow
                    for x in 0..<width {
                        var r: Float = 0
                        var g: Float = 0
                        var b: Float = 0
                        var a: Float = 0
                        let first = horizontal.first[x]
                        let base = x * horizontal.taps
                        for tap in 0..<horizontal.count[x] {
                            let w = horizontal.weights[base + tap]
                            let offset = row + (first + tap) * 4
                            let alpha = Float(source[offset + 3])
                            let factor = isOpaque ? w : w * alpha / 255
                            r += Float(source[offset]) * factor
                            g += Float(source[offset + 1]) * factor
                            b += Float(source[offset + 2]) * factor
                            a += alpha * w
                        }
                        let out = (y * width + x) * 4
                        target[out] = r
                        target[out + 1] = g
                        target[out + 2] = b
                        target[out + 3] = a
                    }
                }
            }
        }
        // Pass 2: columns, back to bytes (un-premultiplied).
        var output = [UInt8](repeating: 0, count: width * height * 4)
        middle.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let first = vertical.first[y]
                    let base = y * vertical.taps
                    let count = vertical.count[y]
                    for x in 0..<width {
                        var r: Float = 0
                        var g: Float = 0
                        var b: Float = 0
                        var a: Float = 0
                        for tap in 0..<count {
                            let w = vertical.weights[base + tap]
                            let offset = ((first + tap) * width + x) * 4
                            r += source[offset] * w
                            g += source[offset + 1] * w
                            b += source[offset + 2] * w
                            a += source[offset + 3] * w
                        }
                        let out = (y * width + x) * 4
                        let alpha = min(255, max(0, a))
                        if isOpaque {
                            target[out] = clamp(r)
                            target[out + 1] = clamp(g)
                            target[out + 2] = clamp(b)
                            target[out + 3] = 255
                        } else if alpha > 0.5 {
                            let scale = 255 / alpha
                            target[out] = clamp(r * scale)
                            target[out + 1] = clamp(g * scale)
                            target[out + 2] = clamp(b * scale)
                            target[out + 3] = clamp(alpha)
                        }
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: output)
    }

    @inline(__always)
    private static func clamp(_ value: Float) -> UInt8 {
        UInt8(min(255, max(0, value + 0.5)))
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
            for index in 0..<target {
                let center = (Double(index) + 0.5) / scale
                let start = max(0, Int((center - radius).rounded(.down)))
                let end = min(source - 1, Int((center + radius).rounded(.up)))
                var values: [Double] = []
                var total = 0.0
                for position in start...end {
                    let weight = filter.weight((Double(position) + 0.5 - center) / stretch)
                    values.append(weight)
                    total += weight
                }
                // Trim zero weights at both ends so the inner loops stay short.
                var lower = 0
                var upper = values.count - 1
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
