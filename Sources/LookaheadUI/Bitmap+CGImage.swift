// LookaheadUI — Bitmap to CGImage, the edge where Lookahead's images meet Apple's views.
// Apple platforms only: this file is empty on Linux and cannot be built or tested there.

#if canImport(CoreGraphics)
public import CoreGraphics
import Foundation
public import Lookahead

extension Bitmap {
    /// The bitmap as a `CGImage` (8-bit RGBA, straight alpha, sRGB), sharing nothing with later mutations.
    public var cgImage: CGImage? {
        guard let provider = CGDataProvider(data: Data(pixels) as CFData) else { return nil }
        return CGImage(
            width: width,
            height: height,
            bitsPerComponent: 8,
            bitsPerPixel: 32,
            bytesPerRow: bytesPerRow,
            space: CGColorSpace(name: CGColorSpace.sRGB) ?? CGColorSpaceCreateDeviceRGB(),
            bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue),
            provider: provider,
            decode: nil,
            shouldInterpolate: true,
            intent: .defaultIntent
        )
    }
}
#endif
