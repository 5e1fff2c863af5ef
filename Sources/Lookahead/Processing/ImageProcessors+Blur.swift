// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

extension ImageProcessors {
    /// Blurs the image with a Gaussian whose standard deviation is `radius` pixels, approximated by three box blurs in
    /// time independent of the radius. The edges extend the border pixels, so they do not darken, and transparent
    /// pixels lend no colour to their neighbours.
    public struct GaussianBlur: ImageProcessing {
        /// The standard deviation of the Gaussian, in pixels.
        public let radius: Int

        /// Creates the processor; `radius` is the Gaussian's standard deviation in pixels (default 8).
        public init(radius: Int = 8) {
            self.radius = max(0, radius)
        }

        public var identifier: String { "gaussianBlur(\(radius))" }

        public func process(_ image: Bitmap) throws -> Bitmap {
            guard radius > 0, image.width > 0, image.height > 0 else { return image }
            let (width, height) = (image.width, image.height)
            var pixels = image.premultipliedPixels()
            var scratch = [UInt8](repeating: 0, count: pixels.count)
            for size in Self.boxSizes(deviation: Double(radius)) {
                Self.boxBlur(&pixels, into: &scratch, count: width, lines: height, step: 4, lineStep: width * 4, size)
                Self.boxBlur(&scratch, into: &pixels, count: height, lines: width, step: width * 4, lineStep: 4, size)
            }
            return Bitmap(width: width, height: height, pixels: Bitmap.unpremultiplied(pixels))
        }

        /// The odd widths of three box filters whose succession has the variance of a Gaussian of `deviation`
        /// (the widths differ by at most 2; Kovesi, "Fast almost-Gaussian filtering", 2010).
        static func boxSizes(deviation: Double) -> [Int] {
            let n = 3.0
            let ideal = (12 * deviation * deviation / n + 1).squareRoot()
            var lower = Int(ideal)
            if lower % 2 == 0 { lower -= 1 }
            let upper = lower + 2
            let l = Double(lower)
            let lowerCount = Int(
                ((12 * deviation * deviation - n * l * l - 4 * n * l - 3 * n) / (-4 * l - 4)).rounded()
            )
            return (0..<3).map { $0 < lowerCount ? lower : upper }
        }

        /// A box blur of odd width `size` along each of `lines` lines of `count` pixels (RGBA, premultiplied): pixel
        /// `i` of line `j` is at `j × lineStep + i × step`. Beyond the ends a line repeats its end pixels.
        private static func boxBlur(
            _ source: inout [UInt8],
            into destination: inout [UInt8],
            count: Int,
            lines: Int,
            step: Int,
            lineStep: Int,
            _ size: Int
        ) {
            let radius = size / 2
            let width = UInt32(2 * radius + 1)
            source.withUnsafeBufferPointer { input in
                destination.withUnsafeMutableBufferPointer { output in
                    for line in 0..<lines {
                        let start = line * lineStep
                        func at(_ index: Int) -> Int { start + min(max(index, 0), count - 1) * step }
                        for channel in 0..<4 {
                            var sum: UInt32 = 0
                            for index in -radius...radius { sum += UInt32(input[at(index) + channel]) }
                            for index in 0..<count {
                                output[start + index * step + channel] = UInt8((sum + width / 2) / width)
                                sum += UInt32(input[at(index + radius + 1) + channel])
                                sum -= UInt32(input[at(index - radius) + channel])
                            }
                        }
                    }
                }
            }
        }
    }

    /// A processor made of a closure, identified by `id`: the closure itself cannot be compared, so two
    /// processors with the same `id` must do the same thing (the identifier is part of the cache keys).
    ///
    /// ```swift
    /// let grayscale = ImageProcessors.Anonymous(id: "com.example.grayscale") { image in makeGray(image) }
    /// ```
    public struct Anonymous: ImageProcessing {
        public let identifier: String
        private let closure: @Sendable (Bitmap) throws -> Bitmap

        /// Creates a processor that runs `closure`, identified by `id`.
        public init(id: String, _ closure: @escaping @Sendable (Bitmap) throws -> Bitmap) {
            self.identifier = id
            self.closure = closure
        }

        public func process(_ image: Bitmap) throws -> Bitmap {
            try closure(image)
        }
    }
}

extension Bitmap {
    /// Tightly packed RGBA with each colour multiplied by its alpha (rounded).
    func premultipliedPixels() -> [UInt8] {
        var output = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let source = y * bytesPerRow + x * 4
                let target = (y * width + x) * 4
                let alpha = UInt32(pixels[source + 3])
                for channel in 0..<3 {
                    output[target + channel] = UInt8((UInt32(pixels[source + channel]) * alpha + 127) / 255)
                }
                output[target + 3] = UInt8(alpha)
            }
        }
        return output
    }

    /// Straight RGBA from premultiplied RGBA (a colour over its alpha is clamped; transparent pixels are black).
    static func unpremultiplied(_ pixels: [UInt8]) -> [UInt8] {
        var output = pixels
        for offset in stride(from: 0, to: output.count, by: 4) {
            let alpha = UInt32(output[offset + 3])
            guard alpha < 255 else { continue }
            for channel in 0..<3 {
                output[offset + channel] =
                    alpha == 0 ? 0 : UInt8(min(255, (UInt32(output[offset + channel]) * 255 + alpha / 2) / alpha))
            }
        }
        return output
    }
}
