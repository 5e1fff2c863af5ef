// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// A decoded image: 8-bit RGBA pixels, rows top to bottom, ready to draw; copies share storage until mutated.
public struct Bitmap: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from the start of one row to the start of the next (at least `width * 4`).
    public let bytesPerRow: Int
    /// RGBA pixels, `height * bytesPerRow` bytes, straight (not premultiplied) alpha.
    public private(set) var pixels: [UInt8]

    /// Creates a bitmap from RGBA pixels: `height` rows of `bytesPerRow` bytes (at least `width * 4`).
    public init(width: Int, height: Int, bytesPerRow: Int? = nil, pixels: [UInt8]) {
        let bytesPerRow = bytesPerRow ?? width * 4
        precondition(width >= 0 && height >= 0 && bytesPerRow >= width * 4, "Invalid bitmap geometry")
        precondition(pixels.count == height * bytesPerRow, "Pixel buffer does not match the bitmap geometry")
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixels = pixels
    }

    /// A bitmap filled with one colour.
    public init(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for offset in stride(from: 0, to: pixels.count, by: 4) {
            pixels[offset] = red
            pixels[offset + 1] = green
            pixels[offset + 2] = blue
            pixels[offset + 3] = alpha
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The memory the pixels take, in bytes: the cost of the image in the memory cache.
    public var cost: Int { pixels.count }

    /// The RGBA components of the pixel at `(x, y)`.
    public subscript(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let offset = y * bytesPerRow + x * 4
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2], pixels[offset + 3])
    }
}

extension Bitmap: CustomStringConvertible {
    public var description: String { "Bitmap(\(width)×\(height))" }
}

/// Turns one decoded bitmap into another: resizing, cropping, rounding corners. Implementations must be thread
/// safe: they run on the pipeline's decode threads.
public protocol ImageProcessing: Sendable {
    /// Identifies the processor and its parameters. Part of the cache and coalescing keys, so two processors
    /// with the same identifier must produce the same output.
    var identifier: String { get }

    /// Processes a bitmap; throws to fail the request with ``ImagePipeline/Error/processingFailed(identifier:message:)``.
    func process(_ image: Bitmap) throws -> Bitmap
}
