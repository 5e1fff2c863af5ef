// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Loads images into one ``ImageDisplaying`` view, safely under reuse: a change from the slot hops to the main queue
/// and shows the slot's *current* state, so a late hop never puts another row's image into a reused view.
@MainActor
public final class ImageViewBinding {
    /// The slot that loads the view's image; a ``ListPrefetcher`` binds it by item.
    public private(set) var slot: ImageSlot
    /// The options of the current load.
    public private(set) var options: ImageLoadingOptions
    /// The state the view shows: the slot's as of the last call or hop.
    public private(set) var state = ImageSlot.State.empty
    /// The player of the animation shown, for an animated request (``ImageRequest/isAnimated``); `nil` otherwise.
    public private(set) var player: AnimationPlayer?
    /// Whether the binding plays an animation as soon as it shows it; a view that plays it only while on screen
    /// (SwiftUI's `LazyImage`) turns this off and runs ``player`` itself.
    public var playsAnimationsWhenShown = true
    private var playback: Task<Void, Never>?
    private var playerKey: ImageCacheKey?
    private let animationClock: any Clock<Duration>
    private var presenter = ImageViewPresenter()
    private weak var view: (any ImageDisplaying)?
    private let target: RenderTarget
    private let mainScheduler: Scheduler
    /// The current load's handlers: its progress, and its completion until it is called.
    private var handlers: Handlers? {
        didSet { target.wantsProgress.store(handlers?.progress == nil ? 0 : 1) }
    }

    /// Runs a closure on the main thread, later.
    package typealias Scheduler = @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Receives the download's progress of the current load: bytes received, and the expected total when known.
    public typealias ProgressHandler = @MainActor (_ completed: Int64, _ total: Int64?) -> Void
    /// Receives the current load's result once, when it ends; never for a load another call replaced or cancelled.
    public typealias Completion = @MainActor (Result<ImageResponse, ImagePipeline.Error>) -> Void

    private struct Handlers {
        let imageKey: ImageCacheKey
        let progress: ProgressHandler?
        var completion: Completion?
    }

    /// Creates the binding of `view`; `view.lookahead` creates it on the first load and keeps it in the view.
    public convenience init(view: any ImageDisplaying, options: ImageLoadingOptions = ImageLoadingOptions()) {
        self.init(view: view, options: options) { DispatchQueue.main.async(execute: $0) }
    }

    /// A binding whose completions reach the main thread through `mainScheduler`, its animations on `animationClock`.
    package init(
        view: any ImageDisplaying,
        options: ImageLoadingOptions,
        animationClock: any Clock<Duration> = ContinuousClock(),
        mainScheduler: @escaping Scheduler
    ) {
        let target = RenderTarget()
        self.animationClock = animationClock
        self.target = target
        self.mainScheduler = mainScheduler
        self.view = view
        self.options = options
        self.slot = Self.makeSlot(options: options, target: target, mainScheduler: mainScheduler)
        target.binding = self
    }

    deinit {
        slot.prepareForReuse()  // nobody will show this load
        playback?.cancel()
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

    /// Shows the image for `request`: at once from memory, else the placeholder while it loads; the same request again
    /// keeps its load going. `completion` runs once, never for a load a later call or ``cancel()`` replaced.
    public func load(
        _ request: ImageRequest?,
        options: ImageLoadingOptions,
        progress: ProgressHandler? = nil,
        completion: Completion? = nil
    ) {
        use(options)
        handlers = request.map { Handlers(imageKey: $0.imageKey, progress: progress, completion: completion) }
        slot.configure(with: request)
        render()
    }

    /// Binds the view to `item` of a list: like ``load(_:options:progress:completion:)``, through `list`, whose
    /// pipeline `options` must name.
    func bind<ItemID>(
        _ item: ItemID,
        request: ImageRequest?,
        in list: ListImageSlots<ItemID>,
        options: ImageLoadingOptions
    ) {
        use(options)
        handlers = nil
        list.bind(item, request: request, to: slot)
        render()
    }

    /// Cancels the load and shows the placeholder.
    public func cancel() {
        detachLoad()?.cancel()
    }

    /// Shows the placeholder and hands the running load (if any) over to the caller, who must cancel it.
    package func detachLoad() -> ImageTask? {
        handlers = nil
        let task = slot.detachLoad()
        render()
        return task
    }

    /// Loads a failed image again, now, without waiting for the URL's failure backoff.
    public func retry() {
        slot.retry()
        render()
    }

    // MARK: - Showing

    /// Shows the slot's current state if the view does not show it yet, then completes the load if it ended.
    func render() {
        let animation: AnimatedImage?
        (state, animation) = slot.stateAndAnimation
        if let display = presenter.present(state, options: options) {
            view?.lookaheadDisplay(display.image, transition: display.transition)
        }
        preparePlayer(for: state.image == nil ? nil : animation)
        if let showsActivity = presenter.activity(for: state, options: options) {
            view?.lookaheadShowActivityIndicator(showsActivity)
        }
        completeIfEnded()
    }

    /// Keeps the player of the animation shown, or makes one (and plays it); stops one no longer shown.
    private func preparePlayer(for animation: AnimatedImage?) {
        let key = animation == nil ? nil : state.request?.imageKey
        guard key != playerKey else { return }
        playback?.cancel()
        playback = nil
        playerKey = key
        player = animation.map { AnimationPlayer($0, clock: animationClock) }
        guard let player else { return }
        player.onFrameChange = { [weak self, weak player] image in
            guard let self, let player, self.player === player else { return }
            self.view?.lookaheadDisplay(image, transition: .none)
        }
        if playsAnimationsWhenShown { playback = Task { await player.play() } }
    }

    /// Calls the current load's completion once its request is shown or has failed.
    private func completeIfEnded() {
        guard let completion = handlers?.completion, let imageKey = handlers?.imageKey else { return }
        let result: Result<ImageResponse, ImagePipeline.Error>
        switch state {
        case .loaded(let image, let request, let cacheType) where request.imageKey == imageKey:
            result = .success(ImageResponse(image: image, request: request, cacheType: cacheType))
        case .failed(let error, let request) where request.imageKey == imageKey:
            result = .failure(error)
        default:
            return
        }
        handlers?.completion = nil
        completion(result)
    }

    /// The slot reported progress for `request`: the current load's handler hears of it.
    private func progressed(_ request: ImageRequest, completed: Int64, total: Int64?) {
        guard let handlers, handlers.imageKey == request.imageKey, state.request?.imageKey == request.imageKey else {
            return
        }
        handlers.progress?(completed, total)
    }

    /// Adopts the options of a new call; a different pipeline or priority gets a new slot.
    private func use(_ options: ImageLoadingOptions) {
        if options.pipeline !== slot.pipeline || options.priority != slot.visiblePriority {
            slot.prepareForReuse()
            slot = Self.makeSlot(options: options, target: target, mainScheduler: mainScheduler)
        }
        self.options = options
    }

    private static func makeSlot(
        options: ImageLoadingOptions,
        target: RenderTarget,
        mainScheduler: @escaping Scheduler
    ) -> ImageSlot {
        ImageSlot(
            pipeline: options.pipeline,
            visiblePriority: options.priority,
            onProgress: { request, completed, total in
                guard target.wantsProgress.load() != 0 else { return }  // no hop while nobody listens
                mainScheduler {
                    MainActor.assumeIsolated {
                        target.binding?.progressed(request, completed: completed, total: total)
                    }
                }
            },
            onChange: { _ in
                // Always a hop: it shows the slot's state when it runs, so a late or redundant hop is harmless.
                mainScheduler { MainActor.assumeIsolated { target.binding?.render() } }
            }
        )
    }

    /// The slot's callbacks reach the binding through this weak reference: the binding owns the slot.
    private final class RenderTarget: Sendable {
        @MainActor weak var binding: ImageViewBinding?
        /// 1 while the current load has a progress handler; read on the data loader's thread.
        let wantsProgress = AtomicInt(0)
    }
}
