// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// A view that shows one image: the target of ``ImageViewBinding`` and of `view.lookahead.setImage(with:)`.
///
/// The two requirements are all a platform view adds: how to show an image (with or without a fade) and where to keep
/// its binding. Every decision — which load is current, placeholder or image or failure image, fade or not — is made by
/// ``ImageViewBinding``, on every platform the same code.
///
/// ```swift
/// final class TerminalCell: ImageDisplaying {
///     var lookaheadBinding: ImageViewBinding?
///     func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) { draw(image) }
/// }
/// cell.lookahead.setImage(with: photo.url, placeholder: gray)
/// ```
@MainActor
public protocol ImageDisplaying: AnyObject {
    /// Shows `image` (the loaded image, the placeholder or the failure image; `nil`: none), with `transition`.
    func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition)
    /// Storage for the view's binding, created on the first load; the view keeps it alive.
    var lookaheadBinding: ImageViewBinding? { get set }
}
