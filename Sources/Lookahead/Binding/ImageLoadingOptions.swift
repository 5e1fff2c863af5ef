// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// How a loaded image appears in its view.
public enum ImageTransition: Sendable, Equatable {
    /// The image replaces what was shown at once.
    case none
    /// The image fades in over `duration` seconds.
    case fadeIn(duration: Double)

    /// The default: a quarter-second fade.
    public static let standard = ImageTransition.fadeIn(duration: 0.25)

    /// The fade's length in seconds, or `nil` when the image replaces what was shown at once.
    package var fadeDuration: Double? {
        guard case .fadeIn(let duration) = self, duration > 0 else { return nil }
        return duration
    }
}

/// What an image view shows around a load: its placeholder, its failure image and how the image appears (the
/// transition only when the image replaces its own placeholder; a memory hit shows without a fade).
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
