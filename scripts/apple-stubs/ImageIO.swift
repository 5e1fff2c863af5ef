// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Interface stub of ImageIO for scripts/apple-typecheck: only what Lookahead calls, from Apple's documented
// declarations (CGImageSource, CGImageDestination, the image property keys). Bodies never run.
@_exported import CoreGraphics

public final class CGImageSource {}
public final class CGImageDestination {}

public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? { fatalError() }
public func CGImageSourceGetType(_ isrc: CGImageSource) -> CFString? { fatalError() }
public func CGImageSourceGetCount(_ isrc: CGImageSource) -> Int { fatalError() }
public func CGImageSourceCopyProperties(_ isrc: CGImageSource, _ options: CFDictionary?) -> CFDictionary? {
    fatalError()
}
public func CGImageSourceCopyPropertiesAtIndex(
    _ isrc: CGImageSource,
    _ index: Int,
    _ options: CFDictionary?
) -> CFDictionary? { fatalError() }
public func CGImageSourceCreateThumbnailAtIndex(
    _ isrc: CGImageSource,
    _ index: Int,
    _ options: CFDictionary?
) -> CGImage? { fatalError() }

public func CGImageDestinationCreateWithData(
    _ data: CFMutableData,
    _ type: CFString,
    _ count: Int,
    _ options: CFDictionary?
) -> CGImageDestination? { fatalError() }
public func CGImageDestinationAddImage(_ idst: CGImageDestination, _ image: CGImage, _ properties: CFDictionary?) {
    fatalError()
}
public func CGImageDestinationFinalize(_ idst: CGImageDestination) -> Bool { fatalError() }

public var kCGImageSourceCreateThumbnailFromImageAlways: CFString { fatalError() }
public var kCGImageSourceCreateThumbnailWithTransform: CFString { fatalError() }
public var kCGImageSourceShouldCacheImmediately: CFString { fatalError() }
public var kCGImageSourceThumbnailMaxPixelSize: CFString { fatalError() }
public var kCGImageDestinationLossyCompressionQuality: CFString { fatalError() }
public var kCGImagePropertyPixelWidth: CFString { fatalError() }
public var kCGImagePropertyPixelHeight: CFString { fatalError() }
public var kCGImagePropertyOrientation: CFString { fatalError() }
public var kCGImagePropertyGIFDictionary: CFString { fatalError() }
public var kCGImagePropertyGIFDelayTime: CFString { fatalError() }
public var kCGImagePropertyGIFUnclampedDelayTime: CFString { fatalError() }
public var kCGImagePropertyGIFLoopCount: CFString { fatalError() }
public var kCGImagePropertyWebPDictionary: CFString { fatalError() }
public var kCGImagePropertyWebPDelayTime: CFString { fatalError() }
public var kCGImagePropertyWebPUnclampedDelayTime: CFString { fatalError() }
public var kCGImagePropertyWebPLoopCount: CFString { fatalError() }
public var kCGImagePropertyPNGDictionary: CFString { fatalError() }
public var kCGImagePropertyAPNGDelayTime: CFString { fatalError() }
public var kCGImagePropertyAPNGUnclampedDelayTime: CFString { fatalError() }
public var kCGImagePropertyAPNGLoopCount: CFString { fatalError() }
