// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — TurboJPEGEncoder: RGB to JPEG through libjpeg-turbo's TurboJPEG API.

import CJPEGEncoder
import Foundation

/// Encodes packed RGB or RGBA pixels as a baseline (or progressive) JPEG (4:2:0 chroma subsampling), and reads the
/// size a JPEG's header declares.
///
/// The only file in the module that touches C pointers. A compressor handle is created and
/// destroyed per call: it is cheap next to the encode itself, and it keeps the encoder free of
/// shared mutable state.
enum TurboJPEGEncoder {
    /// Encodes `pixels` (`width * height * 3` bytes, rows top to bottom) at `quality` (1...100); `progressive`
    /// writes libjpeg-turbo's standard progression of scans instead of one baseline scan.
    static func encode(
        rgb pixels: [UInt8],
        width: Int,
        height: Int,
        quality: Int,
        progressive: Bool = false
    ) throws(FixtureServer.Error) -> [UInt8] {
        guard width > 0, height > 0, pixels.count == width * height * 3 else {
            throw .encodingFailed(reason: "expected \(width)×\(height)×3 bytes, got \(pixels.count)")
        }
        return try compress(
            pixels,
            width: width,
            height: height,
            pitch: width * 3,
            format: TJPF_RGB,
            quality: quality,
            progressive: progressive
        )
    }

    /// Encodes `pixels` (RGBA, `bytesPerRow` bytes from one row to the next, rows top to bottom; alpha is
    /// dropped) at `quality` (1...100) as a baseline JPEG.
    static func encode(
        rgba pixels: [UInt8],
        width: Int,
        height: Int,
        bytesPerRow: Int,
        quality: Int
    ) throws(FixtureServer.Error) -> [UInt8] {
        guard width > 0, height > 0, bytesPerRow >= width * 4, pixels.count >= height * bytesPerRow else {
            throw .encodingFailed(reason: "expected \(height) rows of \(bytesPerRow) bytes, got \(pixels.count) bytes")
        }
        return try compress(
            pixels,
            width: width,
            height: height,
            pitch: bytesPerRow,
            format: TJPF_RGBA,
            quality: quality,
            progressive: false
        )
    }

    /// The width and height `data`'s JPEG header declares (as stored, before any EXIF orientation), or `nil` if
    /// it is not a JPEG header libjpeg-turbo can read.
    static func size(ofJPEG data: Data) -> (width: Int, height: Int)? {
        guard let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = data.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), !raw.isEmpty else { return -1 }
            return tjDecompressHeader3(handle, base, UInt(raw.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0, width > 0, height > 0 else { return nil }
        return (Int(width), Int(height))
    }

    private static func compress(
        _ pixels: [UInt8],
        width: Int,
        height: Int,
        pitch: Int,
        format: TJPF,
        quality: Int,
        progressive: Bool
    ) throws(FixtureServer.Error) -> [UInt8] {
        guard let handle = tjInitCompress() else {
            throw .encodingFailed(reason: "tjInitCompress failed")
        }
        defer { tjDestroy(handle) }

        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        defer {
            if let output { tjFree(output) }
        }
        let status = pixels.withUnsafeBufferPointer { source in
            tjCompress2(
                handle,
                source.baseAddress,
                Int32(width),
                Int32(pitch),
                Int32(height),
                Int32(format.rawValue),
                &output,
                &outputSize,
                Int32(TJSAMP_420.rawValue),
                Int32(min(max(quality, 1), 100)),
                progressive ? Int32(TJFLAG_PROGRESSIVE) : 0
            )
        }
        guard status == 0, let output else {
            let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
            throw .encodingFailed(reason: message)
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }
}
