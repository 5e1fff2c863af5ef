// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Dispatch

/// The state behind a declarative image view (SwiftUI's `LazyImage`): its phase, and when to fade.
///
/// ```swift
/// let model = LazyImageModel(request: request)           // a memory hit is `.success` from the start
/// model.onChange = { phase, transition in redraw(phase, animated: transition.isAnimated) }
/// model.appear(request)                                  // onAppear, and when the request changes
/// model.disappear()                                      // onDisappear: a load still running stops (or slows)
/// await model.playAnimation()                            // .task(id: model.player.map(ObjectIdentifier.init))
/// ```
@MainActor
public final class LazyImageModel: ImageDisplaying {
    /// What the view shows, as SwiftUI's `AsyncImagePhase`.
    public typealias Phase = ImagePhase<PlatformImage>

    /// What happens to a load still running when the view disappears.
    public enum DisappearBehavior: Sendable, Equatable {
        /// The load stops; it starts again when the view appears (the default).
        case cancel
        /// The load goes on at `.veryLow` priority, so a view that scrolls back finds the image or joins the load.
        case lowerPriority
    }

    /// What the view shows now.
    public private(set) var phase: Phase
    /// Called on every change of phase, with the transition to animate it with.
    public var onChange: ((Phase, ImageTransition) -> Void)?
    /// The pipeline and the transition (placeholder and failure images are the view's content, not options here).
    public let options: ImageLoadingOptions
    /// The binding that loads this model's image: ``ImageDisplaying`` storage.
    public var lookaheadBinding: ImageViewBinding?
    /// The player of an animated image's frames (``playAnimation()`` runs it); `nil` for a still image.
    public var player: AnimationPlayer? { lookaheadBinding?.player }

    /// Whether a load is running: the phase is `.empty` and the image is on its way.
    public private(set) var isLoading = false
    /// The latest preview of the image while it loads (a progressive JPEG's scans so far), else `nil`.
    public private(set) var preview: PlatformImage?
    /// The current load's download progress.
    public private(set) var progress = Progress()

    /// A download's progress: bytes received, and the expected total when known.
    public struct Progress: Sendable, Equatable {
        /// The bytes received.
        public var completed: Int64 = 0
        /// The expected bytes, when known.
        public var total: Int64?
        /// The fraction received, 0 to 1 (0 while the total is unknown).
        public var fraction: Double {
            guard let total, total > 0 else { return 0 }
            return min(1, Double(completed) / Double(total))
        }
    }

    /// What happens to a load still running when the view disappears.
    public var disappearBehavior = DisappearBehavior.cancel
    /// Called when a load starts (not for a memory hit, nor for the same request again), with its request.
    public var onStart: ((ImageRequest) -> Void)?
    /// Receives the download's progress of the current load.
    public var onProgress: ImageViewBinding.ProgressHandler?
    /// Receives the current load's result once: at ``appear(_:)`` for a memory hit, else when it ends.
    public var onCompletion: ImageViewBinding.Completion?

    /// A load that went on at low priority after the view disappeared (``DisappearBehavior/lowerPriority``).
    private let slowedLoad = Locked<ImageTask?>(nil)

    /// Creates the model, `.success` at once for a memory hit; nothing loads until ``appear(_:)``.
    public init(
        request: ImageRequest?,
        options: ImageLoadingOptions = ImageLoadingOptions(),
        animationClock: any Clock<Duration> = ContinuousClock()
    ) {
        self.options = options
        self.phase = request.flatMap { options.pipeline.cachedImage(for: $0) }.map(Phase.success) ?? .empty
        let binding = ImageViewBinding(view: self, options: options, animationClock: animationClock) {
            DispatchQueue.main.async(execute: $0)
        }
        binding.playsAnimationsWhenShown = false  // only while the view is on screen: `playAnimation()`
        lookaheadBinding = binding
    }

    /// The view appeared, or its request changed: shows the image for `request`, else loads it.
    public func appear(_ request: ImageRequest?) {
        let binding = ImageViewBinding.binding(for: self, options: options)
        let wasLoading = binding.state.loadingRequest?.imageKey
        binding.load(
            request,
            options: options,
            progress: { [weak self] completed, total in
                guard let self else { return }
                self.progress = Progress(completed: completed, total: total)
                self.onChange?(self.phase, .none)
                self.onProgress?(completed, total)
            },
            completion: { [weak self] result in self?.onCompletion?(result) }
        )
        if let started = binding.state.loadingRequest, started.imageKey != wasLoading { onStart?(started) }
        // The new load joined the slowed one (the same image) or replaced it.
        slowedLoad.withLock { $0.take() }?.cancel()
    }

    /// The view disappeared: a load still running stops, or goes on at low priority (``disappearBehavior``).
    public func disappear() {
        guard let loader = lookaheadBinding, case .loading = loader.state else { return }
        switch disappearBehavior {
        case .cancel:
            loader.cancel()
        case .lowerPriority:
            guard let task = loader.detachLoad() else { return }
            task.priority = .veryLow
            slowedLoad.withLock { $0.take() }?.cancel()
            slowedLoad.withLock { $0 = task }
        }
    }

    deinit {
        slowedLoad.withLock { $0.take() }?.cancel()
    }

    /// Loads a failed image again, at once (a tap on the failure view).
    public func retry() {
        lookaheadBinding?.retry()
    }

    /// Plays the animation, if any, until it ends or the task is cancelled; each frame is a new `.success` phase.
    public func playAnimation() async {
        await player?.play()
    }

    /// ``ImageDisplaying``: the binding shows a new state.
    public func lookaheadDisplay(_ image: PlatformImage?, transition: ImageTransition) {
        let state = lookaheadBinding?.state ?? .empty
        let next: Phase =
            switch state {
            case .empty, .loading, .preview: .empty
            // The image, or the frame of its animation shown now.
            case .loaded(let loaded, _, _): .success(image ?? loaded)
            case .failed(let error, _): .failure(error)
            }
        let wasLoading = isLoading
        let hadPreview = preview != nil
        isLoading = state.loadingRequest != nil
        if case .preview(let image, _) = state { preview = image } else { preview = nil }
        if !isLoading { progress = Progress() }
        if case .empty = phase, case .empty = next, wasLoading == isLoading, !hadPreview, preview == nil { return }
        phase = next
        onChange?(next, transition)
    }
}
