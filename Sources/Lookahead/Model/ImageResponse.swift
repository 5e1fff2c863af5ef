// Lookahead — ImageResponse: a loaded image and where it came from.

/// A loaded image, with the request that produced it and where it came from.
public struct ImageResponse: Sendable {
    /// Where a response came from, when it did not come from the original source.
    public enum CacheType: Hashable, Sendable {
        /// The memory cache: no work was done.
        case memory
        /// The disk cache: data read from disk and decoded.
        case disk
    }

    /// The prepared image.
    public var image: PlatformImage
    /// The request this response answers.
    public var request: ImageRequest
    /// `.memory` or `.disk` for cache hits, `nil` for images loaded from the original source.
    public var cacheType: CacheType?
    /// The HTTP response, when the data came over HTTP.
    public var httpResponse: HTTPResponseInfo?

    /// Creates a response.
    public init(
        image: PlatformImage,
        request: ImageRequest,
        cacheType: CacheType? = nil,
        httpResponse: HTTPResponseInfo? = nil
    ) {
        self.image = image
        self.request = request
        self.cacheType = cacheType
        self.httpResponse = httpResponse
    }
}
