// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(UIKit)
public import UIKit

/// The image the pipeline produces: `UIImage` on iOS, iPadOS, tvOS, visionOS and watchOS, `NSImage` on macOS and
/// ``Bitmap`` on Linux, so an app sets it on its views as it is.
public typealias PlatformImage = UIImage
#elseif canImport(AppKit)
public import AppKit

/// The image the pipeline produces: `UIImage` on iOS, iPadOS, tvOS, visionOS and watchOS, `NSImage` on macOS and
/// ``Bitmap`` on Linux, so an app sets it on its views as it is.
public typealias PlatformImage = NSImage
#elseif LOOKAHEAD_NONSENDABLE_IMAGE
/// A Linux stand-in for `NSImage`, compiled only by `scripts/test`'s type check of the Apple image shape: a class
/// that is not `Sendable` and is not a ``Bitmap``. Every place the pipeline assumes more of its image than
/// ``PixelImage`` promises fails that build, on Linux.
public final class OpaqueImage {
    let bitmap: Bitmap
    init(bitmap: Bitmap) { self.bitmap = bitmap }
}

/// The image the pipeline produces (here the stand-in for `NSImage`; see ``OpaqueImage``).
public typealias PlatformImage = OpaqueImage
#else
/// The image the pipeline produces: `UIImage` on iOS, iPadOS, tvOS, visionOS and watchOS, `NSImage` on macOS and
/// ``Bitmap`` on Linux, so an app sets it on its views as it is.
public typealias PlatformImage = Bitmap
#endif

/// What the pipeline needs of its image type, and nothing more: a size, a cost for the memory cache, and a way to
/// and from RGBA pixels for processors and exact thumbnail sizes. On Linux the image is a ``Bitmap`` and both ways are
/// free; on Apple platforms they are the only CoreGraphics the pipeline does besides ImageIO's decode.
protocol PixelImage {
    /// Width in pixels.
    var pixelWidth: Int { get }
    /// Height in pixels.
    var pixelHeight: Int { get }
    /// The decoded bytes the image holds: its cost in the memory cache.
    var decodedCost: Int { get }
    /// The image of these pixels.
    static func make(from bitmap: Bitmap) -> PlatformImage
    /// The image's pixels as RGBA, or nil when they cannot be read.
    func makeBitmap() -> Bitmap?
    /// The same pixels shown at `scale` pixels per point (`UIImage.scale`); the image itself where images have no
    /// scale (on Linux it rides on ``ImageResponse/scale``).
    func withScale(_ scale: Double) -> PlatformImage
}

#if canImport(UIKit) || canImport(AppKit)
// The conformance of UIImage and NSImage is in PlatformImage+CoreGraphics.swift.
#elseif LOOKAHEAD_NONSENDABLE_IMAGE
extension OpaqueImage: PixelImage {
    var pixelWidth: Int { bitmap.width }
    var pixelHeight: Int { bitmap.height }
    var decodedCost: Int { bitmap.cost }
    static func make(from bitmap: Bitmap) -> PlatformImage { OpaqueImage(bitmap: bitmap) }
    func makeBitmap() -> Bitmap? { bitmap }
    func withScale(_ scale: Double) -> PlatformImage { self }
}
#else
extension Bitmap: PixelImage {
    var pixelWidth: Int { width }
    var pixelHeight: Int { height }
    var decodedCost: Int { cost }
    static func make(from bitmap: Bitmap) -> PlatformImage { bitmap }
    func makeBitmap() -> Bitmap? { self }
    func withScale(_ scale: Double) -> PlatformImage { self }
}
#endif
