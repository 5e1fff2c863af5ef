// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Interface stub of CoreGraphics (and the CoreFoundation types it takes) for scripts/apple-typecheck: only what
// Lookahead calls, from Apple's documented declarations. Bodies never run.
//
// Approximations: CGFloat, CGPoint, CGSize and CGRect are Foundation's on Linux, so a file must import Foundation to
// see them (on Apple platforms CoreGraphics declares them); the CF types are Foundation's toll-free bridged classes,
// so the bridging casts our code writes (`data as CFData`, `options as CFDictionary`) type-check as they do there.
public import Foundation

public typealias CFData = NSData
public typealias CFMutableData = NSMutableData
public typealias CFString = NSString
public typealias CFDictionary = NSDictionary
public typealias CFTimeInterval = Double

public final class CGColorSpace {
    public init?(name: CFString) { fatalError() }
    public class var sRGB: CFString { fatalError() }
    public class var displayP3: CFString { fatalError() }
    public var model: CGColorSpaceModel { fatalError() }
    public var name: CFString? { fatalError() }
}

public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { fatalError() }

public enum CGColorSpaceModel: Int32, Sendable {
    case unknown = -1
    case monochrome, rgb, cmyk, lab, deviceN, indexed, pattern, XYZ
}

public enum CGImageAlphaInfo: UInt32, Sendable {
    case none, premultipliedLast, premultipliedFirst, last, first, noneSkipLast, noneSkipFirst, alphaOnly
}

public struct CGBitmapInfo: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

public enum CGColorRenderingIntent: Int32, Sendable {
    case defaultIntent, absoluteColorimetric, relativeColorimetric, perceptual, saturation
}

public enum CGInterpolationQuality: Int32, Sendable {
    case `default`, none, low, high, medium
}

public final class CGDataProvider {
    public init?(data: CFData) { fatalError() }
}

public final class CGImage {
    public init?(
        width: Int,
        height: Int,
        bitsPerComponent: Int,
        bitsPerPixel: Int,
        bytesPerRow: Int,
        space: CGColorSpace,
        bitmapInfo: CGBitmapInfo,
        provider: CGDataProvider,
        decode: UnsafePointer<CGFloat>?,
        shouldInterpolate: Bool,
        intent: CGColorRenderingIntent
    ) { fatalError() }
    public var width: Int { fatalError() }
    public var height: Int { fatalError() }
    public var bitsPerComponent: Int { fatalError() }
    public var bitsPerPixel: Int { fatalError() }
    public var bytesPerRow: Int { fatalError() }
    public var colorSpace: CGColorSpace? { fatalError() }
    public var alphaInfo: CGImageAlphaInfo { fatalError() }
}

public final class CGContext {
    public init?(
        data: UnsafeMutableRawPointer?,
        width: Int,
        height: Int,
        bitsPerComponent: Int,
        bytesPerRow: Int,
        space: CGColorSpace,
        bitmapInfo: UInt32
    ) { fatalError() }
    public var interpolationQuality: CGInterpolationQuality {
        get { fatalError() }
        set { fatalError() }
    }
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool = false) { fatalError() }
    public func makeImage() -> CGImage? { fatalError() }
}
