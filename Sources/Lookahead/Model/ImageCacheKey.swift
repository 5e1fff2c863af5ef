// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Identifies a prepared image: the image's identity (``ImageRequest/imageID``, else its URL), the thumbnail
/// options, the processors applied, and whether every frame of an animation was decoded; not how it is loaded.
public struct ImageCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The image's identity: ``ImageRequest/imageID``, else the absolute string of its URL.
    public let imageID: String
    /// The thumbnail options the image was decoded with.
    public let thumbnail: ThumbnailOptions?
    /// The identifiers of the processors applied, in order.
    public let processors: [String]
    /// Whether the entry holds every frame of an animation (``ImageRequest/isAnimated``), not just the first.
    public let isAnimated: Bool

    /// Creates a key.
    public init(
        imageID: String,
        thumbnail: ThumbnailOptions? = nil,
        processors: [String] = [],
        isAnimated: Bool = false
    ) {
        self.imageID = imageID
        self.thumbnail = thumbnail
        self.processors = processors
        self.isAnimated = isAnimated
    }

    public var description: String {
        var parts = [imageID]
        if let thumbnail { parts.append("thumbnail=\(thumbnail)") }
        if !processors.isEmpty { parts.append("processors=\(processors.joined(separator: ","))") }
        if isAnimated { parts.append("animated") }
        return parts.joined(separator: " ")
    }
}
