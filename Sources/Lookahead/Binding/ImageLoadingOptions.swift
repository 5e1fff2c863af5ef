// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// How a loaded image appears in its view.
public enum ImageTransition: Sendable {
    /// The image replaces what was shown at once.
    case none
    /// The image fades in over `duration` seconds, cross-dissolving from what the view showed.
    case fadeIn(duration: Double)
    /// The app's own animation (a flip, a zoom): `animate` shows the image in the view, typically by calling
    /// `view.lookaheadDisplay(image, transition: .none)` inside the platform's animation block.
    case custom(animate: @MainActor @Sendable (_ view: any ImageDisplaying, _ image: PlatformImage?) -> Void)

    /// The default: a quarter-second fade.
    public static let standard = ImageTransition.fadeIn(duration: 0.25)

    /// The fade's length in seconds, or `nil` when the image replaces what was shown at once.
    package var fadeDuration: Double? {
        guard case .fadeIn(let duration) = self, duration > 0 else { return nil }
        return duration
    }

    /// Whether the image appears with an animation rather than at once.
    public var isAnimated: Bool {
        if case .custom = self { true } else { fadeDuration != nil }
    }
}

/// What an image view shows around a load: its placeholder, its failure image and how the image appears.
public struct ImageLoadingOptions {
    /// The pipeline that loads the images.
    public var pipeline: ImagePipeline
    /// Shown while the image loads, and when there is no URL (`nil`: nothing).
    public var placeholder: PlatformImage?
    /// Shown when the load fails (`nil`: the placeholder).
    public var failureImage: PlatformImage?
    /// How an image that was not in the memory cache appears.
    public var transition: ImageTransition
    /// The priority of the view's load while on screen (`.high`; a hero image above thumbnails may ask `.veryHigh`).
    public var priority: ImageRequest.Priority = .high
    /// Whether a new load keeps the image the view shows, instead of the placeholder, until its result. Off by default.
    public var keepsCurrentImageWhileLoading = false
    /// Whether the view shows its activity indicator while the image loads. Off by default.
    public var showsActivityIndicator = false

    /// Creates options.
    public init(
        pipeline: ImagePipeline = .shared,
        placeholder: PlatformImage? = nil,
        failureImage: PlatformImage? = nil,
        transition: ImageTransition = .standard
    ) {
        self.pipeline = pipeline
        self.placeholder = placeholder
        self.failureImage = failureImage
        self.transition = transition
    }
}
