// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — WebPEncoder: RGB(A) to lossy WebP through libwebp's simple encoding API.

import CAnimationEncoders

/// Encodes packed RGB or RGBA pixels as a lossy WebP: what an image CDN sends a client that accepts it.
enum WebPEncoder {
    /// Encodes `pixels` (`bytesPerRow` bytes from one row to the next, rows top to bottom; RGBA when `hasAlpha`,
    /// else RGB) at `quality` (1...100).
    static func encode(
        _ pixels: [UInt8],
        width: Int,
        height: Int,
        bytesPerRow: Int,
        hasAlpha: Bool,
        quality: Int
    ) throws(FixtureServer.Error) -> [UInt8] {
        guard width > 0, height > 0, bytesPerRow >= width * (hasAlpha ? 4 : 3), pixels.count >= bytesPerRow * height
        else {
            throw .encodingFailed(reason: "WebP: \(pixels.count) bytes do not hold \(width)×\(height) pixels")
        }
        var output: UnsafeMutablePointer<UInt8>?
        let encode = hasAlpha ? WebPEncodeRGBA : WebPEncodeRGB
        let size = pixels.withUnsafeBufferPointer { buffer in
            encode(buffer.baseAddress, Int32(width), Int32(height), Int32(bytesPerRow), Float(quality), &output)
        }
        guard size > 0, let output else { throw .encodingFailed(reason: "WebP: the encoder failed") }
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
