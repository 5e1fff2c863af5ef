// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureImages: the deterministic picture generator behind the fixture server.

import Synchronization

/// Deterministic test pictures: the same number and size always give the same pixels and the
/// same JPEG bytes.
///
/// Each picture is a two-hue gradient (hues derived from the number), faint diagonal stripes, a
/// disc and a rectangle at number-dependent places, and the number itself in blocky digits, so
/// neighbouring numbers are easy to tell apart even as terminal thumbnails.
///
/// ```swift
/// let pixels = FixtureImages.rgb(number: 7, width: 64, height: 48)   // 64 * 48 * 3 bytes
/// let jpeg = try FixtureImages.jpeg(number: 7, width: 64, height: 48)
/// ```
public enum FixtureImages {
    /// The largest width or height the generator produces; larger requests are clamped.
    public static let maximumDimension = 4096

    /// The JPEG quality used when none is given.
    public static let defaultQuality = 85

    /// The raw pixels of picture `number`: packed RGB, 3 bytes per pixel, rows top to bottom.
    ///
    /// `width` and `height` are clamped to `1...maximumDimension`; the result always has
    /// `clampedWidth * clampedHeight * 3` bytes.
    public static func rgb(number: Int, width: Int, height: Int) -> [UInt8] {
        let key = PaintedPictures.Key(number: number, width: clampedDimension(width), height: clampedDimension(height))
        if let pixels = painted.withLock({ $0.pixels[key] }) { return pixels }
        let pixels = paint(number: number, width: key.width, height: key.height)
        painted.withLock { $0.store(pixels, for: key) }
        return pixels
    }

    /// Every picture painted in this process, so that each is painted once however many servers (a test run starts
    /// dozens) and clients ask for it: painting is plain Swift, slow in a debug build. At most
    /// ``PaintedPictures/byteLimit`` bytes, which a benchmark running a server in its own process counts too.
    private static let painted = Mutex(PaintedPictures())

    private static func paint(number: Int, width: Int, height: Int) -> [UInt8] {
        let key = UInt64(bitPattern: Int64(number))
        var random = SplitMix64(seed: SplitMix64.mix(key ^ 0x4C6F_6F6B_6168_6561))
        let shortSide = Double(min(width, height))

        let hue = Double((key &* 0x9E37_79B9_7F4A_7C15) >> 11) * 0x1.0p-53
        let secondHue = hue + 0.18 + 0.25 * random.nextUnitInterval()
        let direction = FixtureImagePainter.GradientDirection.allCases[Int(random.next() % 4)]

        var painter = FixtureImagePainter(width: width, height: height)
        painter.fillGradient(
            from: .init(hue: hue, saturation: 0.75, value: 0.95),
            to: .init(hue: secondHue, saturation: 0.85, value: 0.45),
            direction: direction
        )
        painter.overlayStripes(period: max(3, min(width, height) / 10), color: .white, alpha: 0.08)
        painter.fillCircle(
            centerX: Double(width) * (0.2 + 0.6 * random.nextUnitInterval()),
            centerY: Double(height) * (0.2 + 0.6 * random.nextUnitInterval()),
            radius: shortSide * (0.15 + 0.15 * random.nextUnitInterval()),
            color: .init(hue: hue + 0.5, saturation: 0.55, value: 1),
            alpha: 0.85
        )
        painter.fillRect(
            x: Int(Double(width) * (0.05 + 0.5 * random.nextUnitInterval())),
            y: Int(Double(height) * (0.05 + 0.5 * random.nextUnitInterval())),
            width: Int(Double(width) * (0.2 + 0.25 * random.nextUnitInterval())),
            height: Int(Double(height) * (0.1 + 0.2 * random.nextUnitInterval())),
            color: .init(hue: secondHue + 0.5, saturation: 0.7, value: 0.8),
            alpha: 0.6
        )
        painter.drawNumber(UInt64(number.magnitude), color: .white)
        return painter.pixels
    }

    /// Picture `number` encoded by libjpeg-turbo as an RGB, 4:2:0 JPEG.
    ///
    /// - Parameters:
    ///   - number: Which picture; any integer, though the server only serves `0...`.
    ///   - width: Width in pixels, clamped to `1...maximumDimension`.
    ///   - height: Height in pixels, clamped to `1...maximumDimension`.
    ///   - quality: JPEG quality, clamped to `1...100`.
    /// - Returns: The JPEG file bytes; identical for identical arguments.
    public static func jpeg(
        number: Int,
        width: Int,
        height: Int,
        quality: Int = defaultQuality
    ) throws(FixtureServer.Error) -> [UInt8] {
        try TurboJPEGEncoder.encode(
            rgb: rgb(number: number, width: width, height: height),
            width: clampedDimension(width),
            height: clampedDimension(height),
            quality: quality
        )
    }

    /// `value` clamped to the sizes the generator supports.
    static func clampedDimension(_ value: Int) -> Int {
        min(max(value, 1), maximumDimension)
    }
}

/// Painted pixels by picture, up to a byte limit; past it the store starts again empty.
private struct PaintedPictures {
    struct Key: Hashable {
        var number: Int
        var width: Int
        var height: Int
    }

    static let byteLimit = 32 << 20

    var pixels: [Key: [UInt8]] = [:]
    var bytes = 0

    mutating func store(_ picture: [UInt8], for key: Key) {
        guard pixels[key] == nil, picture.count <= Self.byteLimit else { return }
        if bytes + picture.count > Self.byteLimit {
            pixels.removeAll()
            bytes = 0
        }
        pixels[key] = picture
        bytes += picture.count
    }
}
