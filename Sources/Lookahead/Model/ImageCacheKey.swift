// Lookahead — ImageCacheKey: what identifies a prepared image in the memory cache and the task graph.

/// Identifies a prepared image: the source URL, the thumbnail options and the processors applied.
///
/// Priority and cache options are not part of the key: they change how an image is loaded, not which image.
public struct ImageCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The absolute string of the source URL.
    public var url: String
    /// The thumbnail options the image was decoded with.
    public var thumbnail: ThumbnailOptions?
    /// The identifiers of the processors applied, in order.
    public var processors: [String]

    /// Creates a key.
    public init(url: String, thumbnail: ThumbnailOptions? = nil, processors: [String] = []) {
        self.url = url
        self.thumbnail = thumbnail
        self.processors = processors
    }

    public var description: String {
        var parts = [url]
        if let thumbnail { parts.append("thumbnail=\(thumbnail)") }
        if !processors.isEmpty { parts.append("processors=\(processors.joined(separator: ","))") }
        return parts.joined(separator: " ")
    }
}
