// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// UIImageView, UIButton, NSImageView and NSButton as ImageDisplaying; every decision (what to show, when to
// transition, when the activity indicator shows) is ImageViewBinding's, tested on Linux.

#if canImport(UIKit) && !os(watchOS)
public import Lookahead
import ObjectiveC
public import UIKit

/// The keys of a view's binding and activity indicator among its associated objects: addresses allocated once.
@MainActor private let bindingKey = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
@MainActor private let indicatorKey = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

extension UIView {
    /// Shows `transition` on this view: `set` puts the image in place.
    fileprivate func lookaheadShow(
        _ image: PlatformImage?,
        in view: any ImageDisplaying,
        transition: ImageTransition,
        set: @escaping () -> Void
    ) {
        switch transition {
        case .custom(let animate):
            animate(view, image)
        case .fadeIn(let duration) where duration > 0:
            UIView.transition(
                with: self,
                duration: duration,
                options: [.transitionCrossDissolve, .allowUserInteraction],
                animations: set,
                completion: nil
            )
        case .none, .fadeIn:
            set()
        }
    }

    /// A spinner centred on the view while `isVisible`, kept as an associated object.
    fileprivate func lookaheadSetActivityIndicator(_ isVisible: Bool) {
        let existing = objc_getAssociatedObject(self, indicatorKey) as? UIActivityIndicatorView
        guard isVisible else {
            existing?.stopAnimating()
            existing?.removeFromSuperview()
            return
        }
        let indicator = existing ?? UIActivityIndicatorView(style: .medium)
        objc_setAssociatedObject(self, indicatorKey, indicator, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        indicator.translatesAutoresizingMaskIntoConstraints = false
        addSubview(indicator)
        NSLayoutConstraint.activate([
            indicator.centerXAnchor.constraint(equalTo: centerXAnchor),
            indicator.centerYAnchor.constraint(equalTo: centerYAnchor),
        ])
        indicator.startAnimating()
    }

    fileprivate var lookaheadStoredBinding: ImageViewBinding? {
        get { objc_getAssociatedObject(self, bindingKey) as? ImageViewBinding }
        set { objc_setAssociatedObject(self, bindingKey, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC) }
    }
}

extension UIImageView: Lookahead.ImageDisplaying {
    /// Sets the image; `.fadeIn` cross-dissolves from what the view showed.
    public func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) {
        lookaheadShow(image, in: self, transition: transition) { self.image = image }
    }

    /// Shows a spinner over the view while the image loads.
    public func lookaheadShowActivityIndicator(_ isVisible: Bool) {
        lookaheadSetActivityIndicator(isVisible)
    }

    /// The view's binding, kept as an associated object (released with the view, which cancels its load).
    public var lookaheadBinding: ImageViewBinding? {
        get { lookaheadStoredBinding }
        set { lookaheadStoredBinding = newValue }
    }
}

extension UIButton: Lookahead.ImageDisplaying {
    /// Sets the button's image for the normal state; `.fadeIn` cross-dissolves from what it showed.
    public func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) {
        lookaheadShow(image, in: self, transition: transition) { self.setImage(image, for: .normal) }
    }

    /// Shows a spinner over the button while the image loads.
    public func lookaheadShowActivityIndicator(_ isVisible: Bool) {
        lookaheadSetActivityIndicator(isVisible)
    }

    /// The button's binding, kept as an associated object (released with the button, which cancels its load).
    public var lookaheadBinding: ImageViewBinding? {
        get { lookaheadStoredBinding }
        set { lookaheadStoredBinding = newValue }
    }
}

#elseif canImport(AppKit)
public import AppKit
public import Lookahead
import ObjectiveC
import QuartzCore

/// The keys of a view's binding and activity indicator among its associated objects: addresses allocated once.
@MainActor private let bindingKey = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
@MainActor private let indicatorKey = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

extension NSView {
    /// Shows `transition` on this view: `set` puts the image in place (a fade is a transition on the layer).
    fileprivate func lookaheadShow(
        _ image: PlatformImage?,
        in view: any ImageDisplaying,
        transition: ImageTransition,
        set: () -> Void
    ) {
        if case .custom(let animate) = transition { return animate(view, image) }
        if let duration = transition.fadeDuration {
            wantsLayer = true
            let fade = CATransition()
            fade.type = .fade
            fade.duration = duration
            layer?.add(fade, forKey: "lookaheadFade")
        }
        set()
    }

    /// A small spinner centred on the view while `isVisible`, kept as an associated object.
    fileprivate func lookaheadSetActivityIndicator(_ isVisible: Bool) {
        let existing = objc_getAssociatedObject(self, indicatorKey) as? NSProgressIndicator
        guard isVisible else {
            existing?.stopAnimation(nil)
            existing?.removeFromSuperview()
            return
        }
        let indicator = existing ?? NSProgressIndicator(frame: NSRect(x: 0, y: 0, width: 16, height: 16))
        objc_setAssociatedObject(self, indicatorKey, indicator, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        indicator.style = .spinning
        indicator.frame.origin = NSPoint(x: bounds.midX - 8, y: bounds.midY - 8)
        indicator.autoresizingMask = [.minXMargin, .maxXMargin, .minYMargin, .maxYMargin]
        addSubview(indicator)
        indicator.startAnimation(nil)
    }

    fileprivate var lookaheadStoredBinding: ImageViewBinding? {
        get { objc_getAssociatedObject(self, bindingKey) as? ImageViewBinding }
        set { objc_setAssociatedObject(self, bindingKey, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC) }
    }
}

extension NSImageView: Lookahead.ImageDisplaying {
    /// Sets the image; `.fadeIn` cross-dissolves from what the view showed.
    public func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) {
        lookaheadShow(image, in: self, transition: transition) { self.image = image }
    }

    /// Shows a spinner over the view while the image loads.
    public func lookaheadShowActivityIndicator(_ isVisible: Bool) {
        lookaheadSetActivityIndicator(isVisible)
    }

    /// The view's binding, kept as an associated object (released with the view, which cancels its load).
    public var lookaheadBinding: ImageViewBinding? {
        get { lookaheadStoredBinding }
        set { lookaheadStoredBinding = newValue }
    }
}

extension NSButton: Lookahead.ImageDisplaying {
    /// Sets the button's image; `.fadeIn` cross-dissolves from what it showed.
    public func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) {
        lookaheadShow(image, in: self, transition: transition) { self.image = image }
    }

    /// Shows a spinner over the button while the image loads.
    public func lookaheadShowActivityIndicator(_ isVisible: Bool) {
        lookaheadSetActivityIndicator(isVisible)
    }

    /// The button's binding, kept as an associated object (released with the button, which cancels its load).
    public var lookaheadBinding: ImageViewBinding? {
        get { lookaheadStoredBinding }
        set { lookaheadStoredBinding = newValue }
    }
}
#endif
