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
    open var bounds: NSRect {
        get { fatalError() }
        set { fatalError() }
    }
    open var frame: NSRect {
        get { fatalError() }
        set { fatalError() }
    }
    open var autoresizingMask: NSView.AutoresizingMask {
        get { fatalError() }
        set { fatalError() }
    }
    open func addSubview(_ view: NSView) { fatalError() }
    open func removeFromSuperview() { fatalError() }

    public struct AutoresizingMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let minXMargin = AutoresizingMask(rawValue: 1 << 0)
        public static let maxXMargin = AutoresizingMask(rawValue: 1 << 2)
        public static let minYMargin = AutoresizingMask(rawValue: 1 << 3)
        public static let maxYMargin = AutoresizingMask(rawValue: 1 << 5)
    }
}

@MainActor open class NSControl: NSView {}

@MainActor open class NSButton: NSControl {
    open var image: NSImage? {
        get { fatalError() }
        set { fatalError() }
    }
}

@MainActor open class NSProgressIndicator: NSView {
    public enum Style: UInt, Sendable {
        case bar = 0
        case spinning = 1
    }
    open var style: NSProgressIndicator.Style {
        get { fatalError() }
        set { fatalError() }
    }
    open func startAnimation(_ sender: Any?) { fatalError() }
    open func stopAnimation(_ sender: Any?) { fatalError() }
}

@MainActor open class NSImageView: NSControl {
    open var image: NSImage? {
        get { fatalError() }
        set { fatalError() }
    }
}
