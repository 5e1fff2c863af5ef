// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// The phase of a declarative image view, as SwiftUI's `AsyncImagePhase`.
public enum ImagePhase<Image> {
    /// No image yet: loading, cancelled, or no request.
    case empty
    /// The image.
    case success(Image)
    /// The load failed.
    case failure(ImagePipeline.Error)

    /// The image, in `.success`.
    public var image: Image? {
        if case .success(let image) = self { return image }
        return nil
    }

    /// The error, in `.failure`.
    public var error: ImagePipeline.Error? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The same phase with the image transformed (to the view framework's image type).
    public func map<T>(_ transform: (Image) throws -> T) rethrows -> ImagePhase<T> {
        switch self {
        case .empty: .empty
        case .success(let image): .success(try transform(image))
        case .failure(let error): .failure(error)
        }
    }
}

extension ImagePhase: Sendable where Image: Sendable {}
