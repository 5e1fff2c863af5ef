// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Decides what an image view shows for an ``ImageSlot/State``: the image gets the transition only when it replaces its
/// own placeholder or the image kept for it; the same content twice is shown once.
package struct ImageViewPresenter {
    /// What the view shows, by the request it belongs to.
    package enum Shown: Equatable {
        case nothing
        case placeholder(ImageCacheKey?)
        /// What the view showed before, kept while this request loads.
        case kept(ImageCacheKey)
        case preview(ImageCacheKey)
        case image(ImageCacheKey)
        case failure(ImageCacheKey)
    }

    /// What to hand to the view.
    package struct Display {
        package var image: PlatformImage?
        package var transition: ImageTransition
    }

    package private(set) var shown = Shown.nothing
    /// Whether the view shows its activity indicator.
    package private(set) var showsActivity = false

    package init() {}

    /// The display for `state`, or `nil` when the view already shows it.
    package mutating func present(_ state: ImageSlot.State, options: ImageLoadingOptions) -> Display? {
        let next: Shown
        var display = Display(image: options.placeholder, transition: .none)
        switch state {
        case .empty:
            next = .placeholder(nil)
        case .loading(let request) where options.keepsCurrentImageWhileLoading && shown != .nothing:
            if shown != .preview(request.imageKey) { shown = .kept(request.imageKey) }
            return nil
        case .loading(let request):
            next = .placeholder(request.imageKey)
        case .preview(let image, let request):  // every preview, each one sharper
            shown = .preview(request.imageKey)
            return Display(image: image, transition: .none)
        case .loaded(let image, let request, _):
            next = .image(request.imageKey)
            let isAwaited = shown == .placeholder(request.imageKey) || shown == .kept(request.imageKey)
            display = Display(image: image, transition: isAwaited ? options.transition : .none)
        case .failed(_, let request):
            next = .failure(request.imageKey)
            display.image = options.failureImage ?? options.placeholder
        }
        guard next != shown else { return nil }
        shown = next
        return display
    }

    /// Whether the activity indicator shows for `state`, or `nil` when the view already shows it so.
    package mutating func activity(for state: ImageSlot.State, options: ImageLoadingOptions) -> Bool? {
        let next = options.showsActivityIndicator && state.loadingRequest != nil
        guard next != showsActivity else { return nil }
        showsActivity = next
        return next
    }
}
