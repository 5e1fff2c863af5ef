// Lookahead — TurboJPEGEncoder: RGB to JPEG through libjpeg-turbo's TurboJPEG API.

import CJPEGEncoder

/// Encodes packed RGB pixels as a baseline (or progressive) JPEG (4:2:0 chroma subsampling).
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
                0,
                Int32(height),
                Int32(TJPF_RGB.rawValue),
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
