// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(UIKit)
public import UIKit

/// The image the pipeline produces: `UIImage` on UIKit platforms, `NSImage` on macOS and ``Bitmap`` on Linux.
public typealias PlatformImage = UIImage
#elseif canImport(AppKit)
public import AppKit

/// The image the pipeline produces: `UIImage` on UIKit platforms, `NSImage` on macOS and ``Bitmap`` on Linux.
public typealias PlatformImage = NSImage
#elseif LOOKAHEAD_NONSENDABLE_IMAGE
/// A Linux stand-in for `NSImage` (not `Sendable`, not a ``Bitmap``), compiled only by `scripts/test`'s type check,
/// so that anything assuming more of the image than ``PixelImage`` promises fails on Linux.
public final class OpaqueImage {
    let bitmap: Bitmap
    init(bitmap: Bitmap) { self.bitmap = bitmap }
}

/// The image the pipeline produces (here the stand-in for `NSImage`; see ``OpaqueImage``).
public typealias PlatformImage = OpaqueImage
#else
/// The image the pipeline produces: `UIImage` on UIKit platforms, `NSImage` on macOS and ``Bitmap`` on Linux.
public typealias PlatformImage = Bitmap
#endif

/// What the pipeline needs of its image type, and nothing more: a size, a memory cost, and RGBA pixels both ways.
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
    /// The same pixels at `scale` pixels per point (`UIImage.scale`); itself where images have none (Linux).
    func withScale(_ scale: Double) -> PlatformImage
}

#if canImport(UIKit) || canImport(AppKit)
// UIImage and NSImage conform in PlatformImage+CoreGraphics.swift.
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
