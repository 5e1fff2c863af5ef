// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureImagePainter: a tiny software painter for the generated fixture pictures.

/// Draws gradients, stripes, shapes and digits into a packed RGB buffer.
///
/// Everything is plain arithmetic (no trigonometry, no platform graphics), so the same calls give
/// the same bytes on every machine. Shapes are clipped to the canvas.
struct FixtureImagePainter {
    /// A colour with components in `0...1`.
    struct Color {
        var red: Double
        var green: Double
        var blue: Double

        static let white = Color(red: 1, green: 1, blue: 1)
        static let black = Color(red: 0, green: 0, blue: 0)

        /// HSV to RGB; `hue` is in turns (any value, wrapped into `0..<1`).
        init(hue: Double, saturation: Double, value: Double) {
            let wrapped = hue - hue.rounded(.down)
            let scaled = wrapped * 6
            let sector = Int(scaled) % 6
            let fraction = scaled - Double(sector)
            let p = value * (1 - saturation)
            let q = value * (1 - saturation * fraction)
            let t = value * (1 - saturation * (1 - fraction))
            switch sector {
            case 0: self.init(red: value, green: t, blue: p)
            case 1: self.init(red: q, green: value, blue: p)
            case 2: self.init(red: p, green: value, blue: t)
            case 3: self.init(red: p, green: q, blue: value)
            case 4: self.init(red: t, green: p, blue: value)
            default: self.init(red: value, green: p, blue: q)
            }
        }

        init(red: Double, green: Double, blue: Double) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// The direction a gradient runs in.
    enum GradientDirection: Int, CaseIterable {
        case horizontal, vertical, diagonal, antidiagonal
    }

    let width: Int
    let height: Int
    private(set) var pixels: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: 0, count: width * height * 3)
    }

    // MARK: - Fills

    /// Fills the whole canvas with a linear gradient from `start` to `end`.
    mutating func fillGradient(from start: Color, to end: Color, direction: GradientDirection) {
        let width = self.width
        let height = self.height
        forEachPixel { x, y in
            let u = (Double(x) + 0.5) / Double(width)
            let v = (Double(y) + 0.5) / Double(height)
            let t: Double
            switch direction {
            case .horizontal: t = u
            case .vertical: t = v
            case .diagonal: t = (u + v) / 2
            case .antidiagonal: t = (u + 1 - v) / 2
            }
            let color = Color(
                red: start.red + (end.red - start.red) * t,
                green: start.green + (end.green - start.green) * t,
                blue: start.blue + (end.blue - start.blue) * t
            )
            return (color, 1)
        }
    }

    /// Blends diagonal stripes of `color` over the canvas; stripes are `period` pixels wide.
    mutating func overlayStripes(period: Int, color: Color, alpha: Double) {
        let period = max(period, 1)
        forEachPixel { x, y in
            ((x + y) / period).isMultiple(of: 2) ? (color, alpha) : nil
        }
    }

    /// Blends an anti-aliased disc.
    mutating func fillCircle(centerX: Double, centerY: Double, radius: Double, color: Color, alpha: Double) {
        let minX = Int((centerX - radius - 1).rounded(.down))
        let maxX = Int((centerX + radius + 1).rounded(.up))
        let minY = Int((centerY - radius - 1).rounded(.down))
        let maxY = Int((centerY + radius + 1).rounded(.up))
        forEachPixel(xRange: minX...maxX, yRange: minY...maxY) { x, y in
            let dx = Double(x) + 0.5 - centerX
            let dy = Double(y) + 0.5 - centerY
            let coverage = min(max(radius - (dx * dx + dy * dy).squareRoot() + 0.5, 0), 1)
            return coverage > 0 ? (color, alpha * coverage) : nil
        }
    }

    /// Blends an axis-aligned rectangle covering `x..<x + width`, `y..<y + height`.
    mutating func fillRect(x: Int, y: Int, width: Int, height: Int, color: Color, alpha: Double) {
        guard width > 0, height > 0 else { return }
        forEachPixel(xRange: x...(x + width - 1), yRange: y...(y + height - 1)) { _, _ in (color, alpha) }
    }

    // MARK: - Text

    /// Draws the decimal digits of `number`, centred, on a translucent dark plate.
    ///
    /// Glyphs are 3×5 cells; the cell size is chosen so the text spans at most about 70% of the
    /// width and 40% of the height (never less than one pixel per cell).
    mutating func drawNumber(_ number: UInt64, color: Color) {
        let digits = Array(String(number).utf8).map { Int($0 - UInt8(ascii: "0")) }
        let columns = digits.count * 4 + 1
        let rows = 7
        let cell = max(1, min(width * 7 / (10 * columns), height * 4 / (10 * rows)))
        let originX = (width - columns * cell) / 2
        let originY = (height - rows * cell) / 2
        fillRect(x: originX, y: originY, width: columns * cell, height: rows * cell, color: .black, alpha: 0.45)
        for (position, digit) in digits.enumerated() {
            let glyphX = originX + (1 + position * 4) * cell
            let glyphY = originY + cell
            for (row, bits) in Self.glyphs[digit].enumerated() {
                for column in 0..<3 where bits & (0b100 >> column) != 0 {
                    fillRect(
                        x: glyphX + column * cell,
                        y: glyphY + row * cell,
                        width: cell,
                        height: cell,
                        color: color,
                        alpha: 1
                    )
                }
            }
        }
    }

    /// 3×5 bitmaps of the digits 0–9, one 3-bit row per entry, leftmost pixel in the high bit.
    private static let glyphs: [[UInt8]] = [
        [0b111, 0b101, 0b101, 0b101, 0b111],
        [0b010, 0b110, 0b010, 0b010, 0b111],
        [0b111, 0b001, 0b111, 0b100, 0b111],
        [0b111, 0b001, 0b111, 0b001, 0b111],
        [0b101, 0b101, 0b111, 0b001, 0b001],
        [0b111, 0b100, 0b111, 0b001, 0b111],
        [0b111, 0b100, 0b111, 0b101, 0b111],
        [0b111, 0b001, 0b001, 0b010, 0b010],
        [0b111, 0b101, 0b111, 0b101, 0b111],
        [0b111, 0b101, 0b111, 0b001, 0b111],
    ]

    // MARK: - Pixel access

    /// Visits every pixel in the (clipped) ranges; `shade` returns a colour and an opacity to
    /// blend at that pixel, or `nil` to leave it alone.
    private mutating func forEachPixel(
        xRange: ClosedRange<Int>? = nil,
        yRange: ClosedRange<Int>? = nil,
        _ shade: (Int, Int) -> (Color, Double)?
    ) {
        guard width > 0, height > 0 else { return }
        let canvasX = 0...(width - 1)
        let canvasY = 0...(height - 1)
        let requestedX = xRange ?? canvasX
        let requestedY = yRange ?? canvasY
        // `clamped(to:)` of disjoint ranges yields a one-element range at the edge: skip those.
        guard requestedX.overlaps(canvasX), requestedY.overlaps(canvasY) else { return }
        let xs = requestedX.clamped(to: canvasX)
        let ys = requestedY.clamped(to: canvasY)
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in ys {
                for x in xs {
                    guard let (color, alpha) = shade(x, y), alpha > 0 else { continue }
                    let offset = (y * width + x) * 3
                    buffer[offset] = Self.blend(buffer[offset], color.red, alpha)
                    buffer[offset + 1] = Self.blend(buffer[offset + 1], color.green, alpha)
                    buffer[offset + 2] = Self.blend(buffer[offset + 2], color.blue, alpha)
                }
            }
        }
    }

    private static func blend(_ old: UInt8, _ component: Double, _ alpha: Double) -> UInt8 {
        let alpha = min(alpha, 1)
        let value = Double(old) * (1 - alpha) + min(max(component, 0), 1) * 255 * alpha
        return UInt8(min(max(value.rounded(), 0), 255))
    }
}
