// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — ImageProcessors.Circle and .RoundedCorners: masks with anti-aliased edges.

import Foundation

extension ImageProcessors {
    /// Crops the image to its centre square and masks it to a circle (transparent outside, anti-aliased edge).
    public struct Circle: ImageProcessing {
        /// Creates the processor.
        public init() {}

        public var identifier: String { "circle" }

        public func process(_ image: Bitmap) throws -> Bitmap {
            let side = min(image.width, image.height)
            let square = image.cropped(width: side, height: side)
            let radius = Double(side) / 2
            return square.masked { x, y in
                let dx = x + 0.5 - radius
                let dy = y + 0.5 - radius
                return radius - (dx * dx + dy * dy).squareRoot()
            }
        }
    }

    /// Rounds the corners of the image with a radius in pixels (the seed table rounds its 80×80 images by 8).
    public struct RoundedCorners: ImageProcessing {
        /// The corner radius in pixels.
        public let radius: Int

        /// Creates the processor.
        public init(radius: Int) {
            self.radius = max(0, radius)
        }

        public var identifier: String { "roundedCorners(\(radius))" }

        public func process(_ image: Bitmap) throws -> Bitmap {
            let radius = Double(min(radius, min(image.width, image.height) / 2))
            guard radius > 0 else { return image }
            let width = Double(image.width)
            let height = Double(image.height)
            return image.masked { x, y in
                // Distance inside the rounded rectangle: positive inside, negative outside.
                let px = x + 0.5
                let py = y + 0.5
                let cx = min(max(px, radius), width - radius)
                let cy = min(max(py, radius), height - radius)
                let dx = px - cx
                let dy = py - cy
                return radius - (dx * dx + dy * dy).squareRoot()
            }
        }
    }
}

extension Bitmap {
    /// Multiplies alpha by the coverage `clamp(distance + 0.5, 0, 1)`, where `distance(x, y)` is how far inside
    /// the shape a pixel's centre lies (negative outside).
    func masked(_ distance: (Double, Double) -> Double) -> Bitmap {
        var output = pixels
        for y in 0..<height {
            for x in 0..<width {
                let coverage = min(1, max(0, distance(Double(x), Double(y)) + 0.5))
                guard coverage < 1 else { continue }
                let offset = y * bytesPerRow + x * 4 + 3
                output[offset] = UInt8((Double(output[offset]) * coverage).rounded())
            }
        }
        return Bitmap(width: width, height: height, bytesPerRow: bytesPerRow, pixels: output)
    }
}
