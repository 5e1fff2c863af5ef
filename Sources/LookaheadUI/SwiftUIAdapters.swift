// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// SwiftUI views over LazyImageModel and ListPrefetcher, whose decisions are tested on Linux. iOS 16: no Observation.

#if canImport(SwiftUI)
public import Combine
public import Foundation
public import Lookahead
public import SwiftUI

/// The phase of a ``LazyImage``, as SwiftUI's `AsyncImagePhase`: `.empty`, `.success(Image)`, `.failure(error)`.
public typealias LazyImagePhase = ImagePhase<Image>

/// What a ``LazyImage`` knows of its load: the phase, and while it loads, the progress and the latest preview.
public struct LazyImageState {
    /// `.empty`, `.success(image)` or `.failure(error)`.
    public var phase: LazyImagePhase
    /// The latest preview while the image loads (a progressive JPEG's scans so far).
    public var preview: Image?
    /// Whether a load is running.
    public var isLoading: Bool
    /// The download's progress.
    public var progress: LazyImageModel.Progress

    /// The image, else the preview.
    public var image: Image? { phase.image ?? preview }
    /// The error, when the load failed.
    public var error: ImagePipeline.Error? { phase.error }
}

/// What `LazyImage(url:)` shows without a content closure: the image (or its preview) filling the frame, else a
/// gray rectangle.
public struct LazyImageDefaultContent: View {
    let state: LazyImageState

    public var body: some View {
        if let image = state.image {
            image.resizable().scaledToFill()
        } else {
            Color.gray.opacity(0.2)
        }
    }
}

/// An image loaded through the pipeline, drawn by a phase-based content closure, like `AsyncImage`:
///
/// ```swift
/// LazyImage(url: photo.url) { phase in
///     switch phase {
///     case .success(let image): image.resizable().scaledToFill()
///     case .failure: Image(systemName: "photo")
///     case .empty: ProgressView()
///     }
/// }
/// ```
///
/// A memory hit shows in the first frame. A miss loads when the view appears and fades in; the load stops when the
/// view disappears, or goes on at low priority (`.onDisappear(.lowerPriority)`). An animated request plays its frames
/// while the view is on screen. A new request is a new image (the view's identity is the request's image key).
///
/// ```swift
/// LazyImage(url: url) { phase in phase.image?.resizable() }
///     .processors([ImageProcessors.Circle()])
///     .priority(.veryHigh)
///     .onProgress { completed, total in bar.progress = Double(completed) / Double(total ?? 1) }
///     .onCompletion { result in if case .failure(let error) = result { showRetry("\(error)") } }
///     .onDisappear(.lowerPriority)
/// ```
@MainActor
public struct LazyImage<Content: View>: View {
    private var request: ImageRequest?
    private var options: ImageLoadingOptions
    private let content: (LazyImageState, @escaping @MainActor () -> Void) -> Content
    private var handlers = LazyImageHandlers()

    /// Loads the image at `url`; `content` draws its state (`state.image`, `state.isLoading`, `state.progress`).
    public init(
        url: URL?,
        pipeline: ImagePipeline = .shared,
        transition: ImageTransition = .standard,
        @ViewBuilder content: @escaping (LazyImageState) -> Content
    ) {
        self.init(request: url.map { ImageRequest(url: $0) }, pipeline: pipeline, transition: transition) { state, _ in
            content(state)
        }
    }

    /// Loads the image for `request` (its thumbnail size, processors and options); `content` draws its state.
    public init(
        request: ImageRequest?,
        pipeline: ImagePipeline = .shared,
        transition: ImageTransition = .standard,
        @ViewBuilder content: @escaping (LazyImageState) -> Content
    ) {
        self.init(request: request, pipeline: pipeline, transition: transition) { state, _ in content(state) }
    }

    /// Loads the image at `url`; `content` draws its phase, as `AsyncImage`'s does.
    @_disfavoredOverload
    public init(
        url: URL?,
        pipeline: ImagePipeline = .shared,
        transition: ImageTransition = .standard,
        @ViewBuilder content: @escaping (LazyImagePhase) -> Content
    ) {
        self.init(url: url, pipeline: pipeline, transition: transition) { (state: LazyImageState) in
            content(state.phase)
        }
    }

    /// Loads the image for `request`; `content` draws its phase, as `AsyncImage`'s does.
    @_disfavoredOverload
    public init(
        request: ImageRequest?,
        pipeline: ImagePipeline = .shared,
        transition: ImageTransition = .standard,
        @ViewBuilder content: @escaping (LazyImagePhase) -> Content
    ) {
        self.init(request: request, pipeline: pipeline, transition: transition) { state, _ in content(state.phase) }
    }

    /// Loads the image for `request`; `content` also receives `retry`, which loads a failed image again at once.
    public init(
        request: ImageRequest?,
        pipeline: ImagePipeline = .shared,
        transition: ImageTransition = .standard,
        @ViewBuilder content: @escaping (LazyImagePhase, _ retry: @escaping @MainActor () -> Void) -> Content
    ) {
        self.init(request: request, pipeline: pipeline, transition: transition) { state, retry in
            content(state.phase, retry)
        }
    }

    private init(
        request: ImageRequest?,
        pipeline: ImagePipeline,
        transition: ImageTransition,
        content: @escaping (LazyImageState, @escaping @MainActor () -> Void) -> Content
    ) {
        self.request = request
        self.options = ImageLoadingOptions(pipeline: pipeline, transition: transition)
        self.content = content
    }

    /// The content for the request's state, in a view whose identity is the request's image key.
    public var body: some View {
        LazyImageBody(request: request, options: options, handlers: handlers, content: content).id(request?.imageKey)
    }

    /// Loads through `pipeline`.
    public func pipeline(_ pipeline: ImagePipeline) -> Self {
        var copy = self
        copy.options.pipeline = pipeline
        return copy
    }

    /// How a loaded image appears: ``ImageTransition/standard`` by default, `.none`, or `.fadeIn(duration:)`
    /// (`.custom` is for UIKit and AppKit views; animate the content itself instead).
    public func imageTransition(_ transition: ImageTransition) -> Self {
        var copy = self
        copy.options.transition = transition
        return copy
    }

    /// Receives the request of each load as it starts (not for a memory hit).
    public func onStart(_ handler: @escaping (ImageRequest) -> Void) -> Self {
        var copy = self
        copy.handlers.start = handler
        return copy
    }

    /// Applies these processors to the image, in place of the request's.
    public func processors(_ processors: [any ImageProcessing]) -> Self {
        var copy = self
        copy.request?.processors = processors
        return copy
    }

    /// The priority of the load while the view is on screen (`.high` by default).
    public func priority(_ priority: ImageRequest.Priority) -> Self {
        var copy = self
        copy.options.priority = priority
        return copy
    }

    /// What happens to a load still running when the view disappears (`.cancel` by default).
    public func onDisappear(_ behavior: LazyImageModel.DisappearBehavior) -> Self {
        var copy = self
        copy.handlers.disappearBehavior = behavior
        return copy
    }

    /// Receives the download's progress.
    public func onProgress(_ handler: @escaping ImageViewBinding.ProgressHandler) -> Self {
        var copy = self
        copy.handlers.progress = handler
        return copy
    }

    /// Receives the load's result once, when it ends (at once for a memory hit).
    public func onCompletion(_ handler: @escaping ImageViewBinding.Completion) -> Self {
        var copy = self
        copy.handlers.completion = handler
        return copy
    }
}

/// What a ``LazyImage``'s modifiers hand to its model.
@MainActor
private struct LazyImageHandlers {
    var disappearBehavior = LazyImageModel.DisappearBehavior.cancel
    var start: ((ImageRequest) -> Void)?
    var progress: ImageViewBinding.ProgressHandler?
    var completion: ImageViewBinding.Completion?
}

/// One request's image: its model lives as long as the view's identity, that is, the request.
@MainActor
private struct LazyImageBody<Content: View>: View {
    let request: ImageRequest?
    let handlers: LazyImageHandlers
    let content: (LazyImageState, @escaping @MainActor () -> Void) -> Content
    @StateObject private var model: LazyImageModel

    init(
        request: ImageRequest?,
        options: ImageLoadingOptions,
        handlers: LazyImageHandlers,
        content: @escaping (LazyImageState, @escaping @MainActor () -> Void) -> Content
    ) {
        self.request = request
        self.handlers = handlers
        self.content = content
        _model = StateObject(wrappedValue: LazyImageModel(request: request, options: options))
    }

    var body: some View {
        content(state) { [model] in model.retry() }
            .onAppear {
                // Called after the state changed: SwiftUI redraws from it, animated when it fades (a custom
                // transition is for UIKit and AppKit views: SwiftUI content animates itself).
                model.onChange = { [weak model] _, transition in
                    guard let model else { return }
                    if let duration = transition.fadeDuration {
                        withAnimation(.easeIn(duration: duration)) { model.objectWillChange.send() }
                    } else {
                        model.objectWillChange.send()
                    }
                }
                model.disappearBehavior = handlers.disappearBehavior
                model.onStart = handlers.start
                model.onProgress = handlers.progress
                model.onCompletion = handlers.completion
                model.appear(request)
            }
            .onDisappear { model.disappear() }
            // An animation plays while the view is on screen; a new player restarts the task.
            .task(id: model.player.map(ObjectIdentifier.init)) { [model] in await model.playAnimation() }
    }
}

extension LazyImageBody {
    /// The model's state, in SwiftUI images.
    private var state: LazyImageState {
        LazyImageState(
            phase: model.phase.map(Image.init(platformImage:)),
            preview: model.preview.map(Image.init(platformImage:)),
            isLoading: model.isLoading,
            progress: model.progress
        )
    }
}

extension LazyImage where Content == LazyImageDefaultContent {
    /// Loads the image at `url` and shows it filling the frame (its preview while it loads), else a gray rectangle.
    public init(url: URL?, pipeline: ImagePipeline = .shared, transition: ImageTransition = .standard) {
        self.init(url: url, pipeline: pipeline, transition: transition) { (state: LazyImageState) in
            LazyImageDefaultContent(state: state)
        }
    }
}

extension Image {
    /// A SwiftUI image of the pipeline's image (`UIImage` or `NSImage`).
    fileprivate init(platformImage: PlatformImage) {
        #if canImport(UIKit)
        self.init(uiImage: platformImage)
        #else
        self.init(nsImage: platformImage)
        #endif
    }
}

/// A ``LazyImageModel`` in a `@StateObject`; `LazyImage` sends its `objectWillChange` when the phase changes.
extension LazyImageModel: Combine.ObservableObject {}

/// A ``ListPrefetcher`` in a `@StateObject` (it publishes nothing: views never redraw for it).
extension ListPrefetcher: Combine.ObservableObject {}

extension View {
    /// Reports this item's appearance to a list prefetcher (SwiftUI's `onAppear`/`onDisappear`), in a `ForEach`
    /// over the items of the prefetcher's snapshot:
    ///
    /// ```swift
    /// ForEach(photos) { photo in
    ///     LazyImage(url: photo.url) { phase in phase.image?.resizable() }
    ///         .prefetching(photo.id, in: prefetcher)
    /// }
    /// ```
    public func prefetching<ItemID>(_ item: ItemID, in prefetcher: ListPrefetcher<ItemID>) -> some View {
        onAppear { prefetcher.itemAppeared(item) }.onDisappear { prefetcher.itemDisappeared(item) }
    }
}
#endif
