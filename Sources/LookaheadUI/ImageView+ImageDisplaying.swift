// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// UIImageView and NSImageView as ImageDisplaying; every decision is ImageViewBinding's, tested on Linux.

#if canImport(UIKit) && !os(watchOS)
public import Lookahead
import ObjectiveC
public import UIKit

/// The key of the view's binding among its associated objects: the address of one byte, allocated once.
@MainActor private let bindingKey = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

extension UIImageView: Lookahead.ImageDisplaying {
    /// Sets the image; `.fadeIn` cross-dissolves from what the view showed.
    public func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) {
        guard let duration = transition.fadeDuration else {
            self.image = image
            return
        }
        UIView.transition(
            with: self,
            duration: duration,
            options: [.transitionCrossDissolve, .allowUserInteraction],
            animations: { self.image = image },
            completion: nil
        )
    }

    /// The view's binding, kept as an associated object (released with the view, which cancels its load).
    public var lookaheadBinding: ImageViewBinding? {
        get { objc_getAssociatedObject(self, bindingKey) as? ImageViewBinding }
        set { objc_setAssociatedObject(self, bindingKey, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC) }
    }
}

#elseif canImport(AppKit)
public import AppKit
public import Lookahead
import ObjectiveC
import QuartzCore

/// The key of the view's binding among its associated objects: the address of one byte, allocated once.
@MainActor private let bindingKey = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

extension NSImageView: Lookahead.ImageDisplaying {
    /// Sets the image; `.fadeIn` cross-dissolves from what the view showed (a fade transition on its layer).
    public func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) {
        if let duration = transition.fadeDuration {
            wantsLayer = true
            let fade = CATransition()
            fade.type = .fade
            fade.duration = duration
            layer?.add(fade, forKey: "lookaheadFade")
        }
        self.image = image
    }

    /// The view's binding, kept as an associated object (released with the view, which cancels its load).
    public var lookaheadBinding: ImageViewBinding? {
        get { objc_getAssociatedObject(self, bindingKey) as? ImageViewBinding }
        set { objc_setAssociatedObject(self, bindingKey, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC) }
    }
}
#endif
