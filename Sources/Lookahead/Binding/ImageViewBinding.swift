// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Loads images into one ``ImageDisplaying`` view, safely under reuse: the per-view state behind
/// `view.lookahead.setImage(with:)`.
///
/// ```swift
/// // cellForRowAt: the previous row's load stops, a memory hit shows in this call, a miss shows the placeholder
/// cell.photoView.lookahead.setImage(with: photo.url, placeholder: gray)
/// ```
///
/// - Every load goes through the view's ``ImageSlot``: a new call cancels the previous load, and a completion for
///   an earlier call is never shown.
/// - The binding's own calls show their change before they return (a memory hit, the placeholder). Every other change
///   of the slot — a completion on a pipeline thread, or a ``ListImageSlots`` starting or releasing the slot — hops
///   to the main queue; the loader then shows the slot's *current* state, so a late hop can never put another row's
///   image into a reused view.
/// - What to show and whether to fade is `ImageViewPresenter`'s decision.
@MainActor
public final class ImageViewBinding {
    /// The slot that loads the view's image; a list's ``ListImageSlots`` binds it by row.
    public private(set) var slot: ImageSlot
    /// The options of the current load.
    public private(set) var options: ImageLoadingOptions
    /// The state the view shows now: the slot's state as of the last call or hop (the view may still be fading it in).
    public private(set) var state = ImageSlot.State.empty
    private var presenter = ImageViewPresenter()
    private weak var view: (any ImageDisplaying)?
    private let target: RenderTarget
    private let mainScheduler: Scheduler

    /// Runs a closure on the main thread, later.
    package typealias Scheduler = @Sendable (@escaping @Sendable () -> Void) -> Void

    /// Creates the binding of `view`; `view.lookahead` creates it on the first load and keeps it in the view.
    public convenience init(view: any ImageDisplaying, options: ImageLoadingOptions = ImageLoadingOptions()) {
        self.init(view: view, options: options) { DispatchQueue.main.async(execute: $0) }
    }

    /// Creates a binding whose completions reach the main thread through `mainScheduler`: what tests pass to decide
    /// when a completion's hop runs.
    package init(view: any ImageDisplaying, options: ImageLoadingOptions, mainScheduler: @escaping Scheduler) {
        let target = RenderTarget()
        self.target = target
        self.mainScheduler = mainScheduler
        self.view = view
        self.options = options
        self.slot = Self.makeSlot(pipeline: options.pipeline, target: target, mainScheduler: mainScheduler)
        target.binding = self
    }

    deinit {
        // The view is gone: nobody will show this load.
        slot.prepareForReuse()
    }

    /// The binding kept in `view`, created on first use (with `options`' pipeline).
    public static func binding(
        for view: any ImageDisplaying,
        options: @autoclosure () -> ImageLoadingOptions = ImageLoadingOptions()
    ) -> ImageViewBinding {
        if let binding = view.lookaheadBinding { return binding }
        let binding = ImageViewBinding(view: view, options: options())
        view.lookaheadBinding = binding
        return binding
    }

    // MARK: - Loading

    /// Shows the image for `request`: at once from memory, else the placeholder while it loads (then the image,
    /// fading in). `nil` cancels the load and shows the placeholder. The same request again keeps its load going.
    public func load(_ request: ImageRequest?, options: ImageLoadingOptions) {
        use(options)
        slot.configure(with: request)
        render()
    }

    /// Binds the view to `row` of a list: like ``load(_:options:)``, through `list`, which joins a prefetch already
    /// running for the row and, during a fling, defers the load (see ``ListImageSlots/bind(row:request:to:)``).
    public func bind(row: Int, request: ImageRequest?, in list: ListImageSlots, options: ImageLoadingOptions) {
        var options = options
        options.pipeline = list.pipeline
        use(options)
        list.bind(row: row, request: request, to: slot)
        render()
    }

    /// Cancels the load and shows the placeholder.
    public func cancel() {
        slot.prepareForReuse()
        render()
    }

    /// Loads a failed image again, now, without waiting for the URL's failure backoff.
    public func retry() {
        slot.retry()
        render()
    }

    // MARK: - Showing

    /// Shows the slot's current state if the view does not show it yet.
    func render() {
        state = slot.state
        guard let display = presenter.present(state, options: options) else { return }
        view?.lookaheadDisplay(display.image, transition: display.transition)
    }

    /// Adopts the options of a new call; a different pipeline gets a new slot (the old one's load stops).
    private func use(_ options: ImageLoadingOptions) {
        if options.pipeline !== slot.pipeline {
            slot.prepareForReuse()
            slot = Self.makeSlot(pipeline: options.pipeline, target: target, mainScheduler: mainScheduler)
        }
        self.options = options
    }

    private static func makeSlot(
        pipeline: ImagePipeline,
        target: RenderTarget,
        mainScheduler: @escaping Scheduler
    ) -> ImageSlot {
        ImageSlot(pipeline: pipeline) { _ in
            // Always a hop, even from the main thread: the binding's own calls show their change when the slot
            // returns, and the hop then finds nothing new. Either way the binding shows the slot's state as it is
            // when the hop runs, never the state this callback was called with, so a late hop is harmless.
            mainScheduler { MainActor.assumeIsolated { target.binding?.render() } }
        }
    }

    /// The slot's callback reaches the binding through this weak reference: the binding owns the slot.
    @MainActor
    private final class RenderTarget {
        weak var binding: ImageViewBinding?
    }
}
