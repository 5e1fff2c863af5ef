// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Interface stub of QuartzCore (Core Animation) for scripts/apple-typecheck: only what Lookahead calls, from Apple's
// documented declarations. Bodies never run.
@_exported import CoreGraphics
@_exported import Foundation

open class CAAnimation: NSObject {
    open var duration: CFTimeInterval {
        get { fatalError() }
        set { fatalError() }
    }
}

public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let fade = CATransitionType(rawValue: "fade")
}

open class CATransition: CAAnimation {
    open var type: CATransitionType {
        get { fatalError() }
        set { fatalError() }
    }
}

open class CALayer: NSObject {
    open var cornerRadius: CGFloat {
        get { fatalError() }
        set { fatalError() }
    }
    open func add(_ anim: CAAnimation, forKey key: String?) { fatalError() }
}
