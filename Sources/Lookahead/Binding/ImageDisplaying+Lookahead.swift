// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

extension ImageDisplaying {
    /// Loads images into this view: `imageView.lookahead.setImage(with: url, placeholder: gray)`.
    public var lookahead: LookaheadWrapper<Self> { LookaheadWrapper(view: self) }
}

/// The loading calls of one view, reached through `view.lookahead`.
@MainActor
public struct LookaheadWrapper<View: ImageDisplaying> {
    /// The view.
    public let view: View

    /// The view's binding (created on first use and kept by the view).
    public var binding: ImageViewBinding { ImageViewBinding.binding(for: view) }

    /// What the view shows now.
    public var state: ImageSlot.State { view.lookaheadBinding?.state ?? .empty }

    /// Shows the image at `url`: a memory hit at once, else `placeholder` (over the options' one) while it loads. The
    /// view's previous load stops; `completion` runs once on the main thread, never for a load a later call replaced.
    public func setImage(
        with url: URL?,
        placeholder: PlatformImage? = nil,
        options: ImageLoadingOptions = .init(),
        progress: ImageViewBinding.ProgressHandler? = nil,
        completion: ImageViewBinding.Completion? = nil
    ) {
        let request = url.map { ImageRequest(url: $0) }
        setImage(with: request, placeholder: placeholder, options: options, progress: progress, completion: completion)
    }

    /// Shows the image for `request` (its thumbnail size, processors, options): like the URL variant.
    public func setImage(
        with request: ImageRequest?,
        placeholder: PlatformImage? = nil,
        options: ImageLoadingOptions = .init(),
        progress: ImageViewBinding.ProgressHandler? = nil,
        completion: ImageViewBinding.Completion? = nil
    ) {
        var options = options
        if let placeholder { options.placeholder = placeholder }
        ImageViewBinding.binding(for: view, options: options)
            .load(request, options: options, progress: progress, completion: completion)
    }

    /// Cancels the view's load and shows its placeholder.
    public func cancel() {
        view.lookaheadBinding?.cancel()
    }

    /// Loads a failed image again, at once.
    public func retry() {
        view.lookaheadBinding?.retry()
    }
}
