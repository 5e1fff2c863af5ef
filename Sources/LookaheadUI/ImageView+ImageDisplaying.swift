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

extension ImageDisplaying where Self: UIView {
    /// The view's binding, kept as an associated object (released with the view, which cancels its load).
    public var lookaheadBinding: ImageViewBinding? {
        get { objc_getAssociatedObject(self, bindingKey) as? ImageViewBinding }
        set { objc_setAssociatedObject(self, bindingKey, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC) }
    }

    /// A spinner centred on the view while the image loads.
    public func lookaheadShowActivityIndicator(_ isVisible: Bool) {
        let indicator =
            objc_getAssociatedObject(self, indicatorKey) as? UIActivityIndicatorView
            ?? UIActivityIndicatorView(style: .medium)
        objc_setAssociatedObject(self, indicatorKey, indicator, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        guard isVisible else { return indicator.removeFromSuperview() }
        indicator.translatesAutoresizingMaskIntoConstraints = false
        addSubview(indicator)
        NSLayoutConstraint.activate([
            indicator.centerXAnchor.constraint(equalTo: centerXAnchor),
            indicator.centerYAnchor.constraint(equalTo: centerYAnchor),
        ])
        indicator.startAnimating()
    }

    /// Shows `image` with `transition`; `set` puts it in place (`.fadeIn` cross-dissolves from what was shown).
    fileprivate func show(_ image: PlatformImage?, _ transition: ImageTransition, set: @escaping () -> Void) {
        if case .custom(let animate) = transition { return animate(self, image) }
        guard let duration = transition.fadeDuration else { return set() }
        UIView.transition(
            with: self,
            duration: duration,
            options: [.transitionCrossDissolve, .allowUserInteraction],
            animations: set
        )
    }
}

extension UIImageView: Lookahead.ImageDisplaying {
    /// Sets the image with the transition.
    public func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) {
        show(image, transition) { self.image = image }
    }
}

extension UIButton: Lookahead.ImageDisplaying {
    /// Sets the button's image for the normal state with the transition.
    public func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) {
        show(image, transition) { self.setImage(image, for: .normal) }
    }
}

#elseif canImport(AppKit)
public import AppKit
public import Lookahead
import ObjectiveC
import QuartzCore

/// The key of a view's binding among its associated objects: the address of one byte, allocated once.
@MainActor private let bindingKey = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

extension ImageDisplaying where Self: NSView {
    /// The view's binding, kept as an associated object (released with the view, which cancels its load).
    public var lookaheadBinding: ImageViewBinding? {
        get { objc_getAssociatedObject(self, bindingKey) as? ImageViewBinding }
        set { objc_setAssociatedObject(self, bindingKey, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC) }
    }

    /// Shows `image` with `transition`; `set` puts it in place (`.fadeIn` is a fade transition on the layer).
    fileprivate func show(_ image: PlatformImage?, _ transition: ImageTransition, set: () -> Void) {
        if case .custom(let animate) = transition { return animate(self, image) }
        if let duration = transition.fadeDuration {
            wantsLayer = true
            let fade = CATransition()
            fade.type = .fade
            fade.duration = duration
            layer?.add(fade, forKey: "lookaheadFade")
        }
        set()
    }
}

extension NSImageView: Lookahead.ImageDisplaying {
    /// Sets the image with the transition.
    public func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) {
        show(image, transition) { self.image = image }
    }
}

extension NSButton: Lookahead.ImageDisplaying {
    /// Sets the button's image with the transition.
    public func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) {
        show(image, transition) { self.image = image }
    }
}
#endif
