// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Interface stub of AppKit (macOS) for scripts/apple-typecheck: only what Lookahead calls, from Apple's documented
// declarations. As in the macOS 13 SDK, NSImage is not Sendable and views are @MainActor. Bodies never run.
@_exported import Foundation
@_exported import QuartzCore

open class NSImage: NSObject {
    public override init() { fatalError() }
    public init(cgImage: CGImage, size: NSSize) { fatalError() }
    public init(size: NSSize) { fatalError() }
    open var size: NSSize { fatalError() }
    open func cgImage(
        forProposedRect proposedDestRect: UnsafeMutablePointer<NSRect>?,
        context referenceContext: NSGraphicsContext?,
        hints: [NSImageRep.HintKey: Any]?
    ) -> CGImage? { fatalError() }
}

open class NSImageRep: NSObject {
    public struct HintKey: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

open class NSGraphicsContext: NSObject {}

@MainActor open class NSResponder: NSObject {}

@MainActor open class NSView: NSResponder {
    public init(frame frameRect: NSRect) { fatalError() }
    public required init?(coder: NSCoder) { fatalError() }
    public override convenience init() { self.init(frame: .zero) }
    open var wantsLayer: Bool {
        get { fatalError() }
        set { fatalError() }
    }
    open var layer: CALayer? {
        get { fatalError() }
        set { fatalError() }
    }
}

@MainActor open class NSControl: NSView {}

@MainActor open class NSButton: NSControl {
    open var image: NSImage? {
        get { fatalError() }
        set { fatalError() }
    }
}

@MainActor open class NSImageView: NSControl {
    open var image: NSImage? {
        get { fatalError() }
        set { fatalError() }
    }
}

// Dispatch's memory-pressure source: in Apple's Dispatch on every platform, absent from swift-corelibs-libdispatch.
public protocol DispatchSourceMemoryPressure: DispatchSourceProtocol {
    var data: DispatchSource.MemoryPressureEvent { get }
}

extension DispatchSource {
    public struct MemoryPressureEvent: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let normal = MemoryPressureEvent(rawValue: 1)
        public static let warning = MemoryPressureEvent(rawValue: 2)
        public static let critical = MemoryPressureEvent(rawValue: 4)
    }

    public static func makeMemoryPressureSource(
        eventMask: MemoryPressureEvent,
        queue: DispatchQueue? = nil
    ) -> any DispatchSourceMemoryPressure { fatalError() }
}
