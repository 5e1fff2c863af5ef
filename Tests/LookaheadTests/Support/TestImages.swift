// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — JPEG test images, encoded here with libjpeg-turbo.

import Foundation

#if canImport(CTurboJPEG)
import CTurboJPEG
#endif

/// Generated images and their source pixels.
enum TestImages {
    /// A 64×48 colour JPEG.
    static let jpeg = Data(encode(pixels: gradient(width: 64, height: 48), width: 64, height: 48))

    /// RGB pixels of a smooth gradient: red grows left to right, green top to bottom, blue constant.
    static func gradient(width: Int, height: Int, blue: UInt8 = 96) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                pixels[offset] = UInt8(x * 255 / max(1, width - 1))
                pixels[offset + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[offset + 2] = blue
            }
        }
        return pixels
    }

    /// Encodes RGB (or grayscale, one byte a pixel) pixels as JPEG.
    static func encode(
        pixels: [UInt8],
        width: Int,
        height: Int,
        grayscale: Bool = false,
        cmyk: Bool = false,
        quality: Int32 = 95,
        progressive: Bool = false
    ) -> [UInt8] {
        #if canImport(CTurboJPEG)
        guard let handle = tjInitCompress() else { fatalError("tjInitCompress failed") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let format = grayscale ? TJPF_GRAY : cmyk ? TJPF_CMYK : TJPF_RGB
        let subsampling = grayscale ? TJSAMP_GRAY : TJSAMP_444
        var flags = Int32(TJFLAG_ACCURATEDCT)
        if progressive { flags |= Int32(TJFLAG_PROGRESSIVE) }
        let status = pixels.withUnsafeBufferPointer { source in
            tjCompress2(
                handle,
                source.baseAddress,
                Int32(width),
                0,
                Int32(height),
                Int32(format.rawValue),
                &buffer,
                &size,
                Int32(subsampling.rawValue),
                quality,
                flags
            )
        }
        precondition(status == 0, "tjCompress2 failed: \(String(cString: tjGetErrorStr2(handle)))")
        defer { tjFree(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
        #else
        fatalError("JPEG test images need libjpeg-turbo")
        #endif
    }

    /// A valid JPEG whose frame header claims `width`×`height`.
    static func jpegClaiming(width: Int, height: Int) -> Data {
        var bytes = [UInt8](jpeg)
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { break }
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker == 0xC0 || marker == 0xC2 {
                bytes[index + 5] = UInt8(height >> 8)
                bytes[index + 6] = UInt8(height & 0xFF)
                bytes[index + 7] = UInt8(width >> 8)
                bytes[index + 8] = UInt8(width & 0xFF)
                return Data(bytes)
            }
            index += 2 + length
        }
        fatalError("no frame header found")
    }
}
