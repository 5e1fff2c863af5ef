// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

extension ImageProcessors {
    /// A line drawn along the inside of a shape's edge.
    public struct Border: Sendable, Hashable {
        /// The line's colour, straight (not premultiplied) RGBA.
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8
        public var alpha: UInt8
        /// The line's width in pixels.
        public var width: Int

        /// Creates a border of a colour and a width in pixels.
        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255, width: Int = 1) {
            (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
            self.width = max(0, width)
        }

        /// Part of the processor's identifier.
        var identifier: String { "border(\(red),\(green),\(blue),\(alpha),\(width))" }
    }

    /// Crops the image to its centre square and masks it to a circle (transparent outside, anti-aliased edge),
    /// with an optional border along the inside of the edge.
    public struct Circle: ImageProcessing {
        /// The line along the edge, if any.
        public let border: Border?

        /// Creates the processor.
        public init(border: Border? = nil) {
            self.border = border
        }

        public var identifier: String { border.map { "circle(\($0.identifier))" } ?? "circle" }

        public func process(_ image: Bitmap) throws -> Bitmap {
            let side = min(image.width, image.height)
            let square = image.cropped(width: side, height: side)
            let radius = Double(side) / 2
            return square.masked(border: border) { x, y in
                let dx = x + 0.5 - radius
                let dy = y + 0.5 - radius
                return radius - (dx * dx + dy * dy).squareRoot()
            }
        }
    }

    /// Rounds the corners of the image with a radius in pixels, with an optional border along the inside of the edge.
    public struct RoundedCorners: ImageProcessing {
        /// The corner radius in pixels.
        public let radius: Int
        /// The line along the edge, if any.
        public let border: Border?

        /// Creates the processor.
        public init(radius: Int, border: Border? = nil) {
            self.radius = max(0, radius)
            self.border = border
        }

        public var identifier: String {
            border.map { "roundedCorners(\(radius),\($0.identifier))" } ?? "roundedCorners(\(radius))"
        }

        public func process(_ image: Bitmap) throws -> Bitmap {
            let radius = Double(min(radius, min(image.width, image.height) / 2))
            guard radius > 0 || border != nil else { return image }
            let width = Double(image.width)
            let height = Double(image.height)
            return image.masked(border: border) { x, y in
                // Distance to the rounded rectangle's edge: positive inside, negative outside (in a corner, to the
                // corner's arc; elsewhere, to the nearest side, which a border follows).
                let qx = abs(x + 0.5 - width / 2) - (width / 2 - radius)
                let qy = abs(y + 0.5 - height / 2) - (height / 2 - radius)
                let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
                return radius - outside - min(max(qx, qy), 0)
            }
        }
    }
}

extension Bitmap {
    /// Multiplies alpha by the coverage `clamp(distance + 0.5, 0, 1)`, where `distance(x, y)` is how far inside
    /// the shape a pixel's centre lies (negative outside); a border covers the band of its width inside the edge,
    /// anti-aliased on its inner side too.
    func masked(border: ImageProcessors.Border?, _ distance: (Double, Double) -> Double) -> Bitmap {
        var output = pixels
        let band = Double(border?.width ?? 0)
        for y in 0..<height {
            for x in 0..<width {
                let inside = distance(Double(x), Double(y))
                let coverage = min(1, max(0, inside + 0.5))
                let offset = y * bytesPerRow + x * 4
                if let border, band > 0, coverage > 0 {
                    // The part of the pixel within the band, of the part inside the shape.
                    let line = min(1, max(0, band - inside + 0.5))
                    if line > 0 {
                        let alpha = Double(output[offset + 3]) * (1 - line) + Double(border.alpha) * line
                        let colour = [border.red, border.green, border.blue]
                        for channel in 0..<3 {
                            // Blended by alpha weight, so a transparent pixel lends no colour.
                            let mixed =
                                Double(output[offset + channel]) * Double(output[offset + 3]) * (1 - line)
                                + Double(colour[channel]) * Double(border.alpha) * line
                            output[offset + channel] = alpha > 0 ? UInt8(min(255, (mixed / alpha).rounded())) : 0
                        }
                        output[offset + 3] = UInt8(alpha.rounded())
                    }
                }
                guard coverage < 1 else { continue }
                output[offset + 3] = UInt8((Double(output[offset + 3]) * coverage).rounded())
            }
        }
        return Bitmap(width: width, height: height, bytesPerRow: bytesPerRow, pixels: output)
    }
}
