// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// A view that shows one image: the target of ``ImageViewBinding``, which makes every decision.
@MainActor
public protocol ImageDisplaying: AnyObject {
    /// Shows `image` (the loaded image, the placeholder or the failure image; `nil`: none), with `transition`.
    func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition)
    /// Storage for the view's binding, created on the first load; the view keeps it alive.
    var lookaheadBinding: ImageViewBinding? { get set }
    /// Shows or hides the view's activity indicator (``ImageLoadingOptions/showsActivityIndicator``).
    func lookaheadShowActivityIndicator(_ isVisible: Bool)
}

extension ImageDisplaying {
    /// A view without an activity indicator ignores the call.
    public func lookaheadShowActivityIndicator(_ isVisible: Bool) {}
}
