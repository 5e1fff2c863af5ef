// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// A loaded image, with the request that produced it and where it came from.
public struct ImageResponse {
    /// Where a response came from, when it did not come from the original source.
    public enum CacheType: Hashable, Sendable {
        /// The memory cache: no work was done.
        case memory
        /// The disk cache: data read from disk and decoded.
        case disk
    }

    /// The prepared image; for an animation, its first frame.
    public var image: PlatformImage
    /// The animation, when the request asked for one (``ImageRequest/isAnimated``) and the data is animated: its
    /// frames are decoded as it plays. `nil` for a still image.
    public var animation: AnimatedImage?
    /// The request this response answers.
    public var request: ImageRequest
    /// `.memory` or `.disk` for cache hits, `nil` for images loaded from the original source.
    public var cacheType: CacheType?
    /// The HTTP response, when the data came over HTTP.
    public var httpResponse: HTTPResponseInfo?
    /// Whether the image is a preview (``ImageTask/Event/preview(_:)``), never stored in the memory cache.
    public var isPreview = false

    /// Creates a response.
    public init(
        image: PlatformImage,
        request: ImageRequest,
        cacheType: CacheType? = nil,
        httpResponse: HTTPResponseInfo? = nil,
        animation: AnimatedImage? = nil
    ) {
        self.image = image
        self.animation = animation
        self.request = request
        self.cacheType = cacheType
        self.httpResponse = httpResponse
    }
}

extension ImageResponse {
    /// Pixels per point: the request's ``ThumbnailOptions/scale``, 1 without a thumbnail.
    public var scale: Double { request.thumbnail?.scale ?? 1 }

    /// The memory the response takes in the memory cache: an animation's ``AnimatedImage/cost``, else the image's.
    package var decodedCost: Int { animation?.cost ?? image.decodedCost }
}

#if LOOKAHEAD_NONSENDABLE_IMAGE
// SAFETY: where the platform image is not `Sendable` (NSImage on macOS 13), it is only an image the pipeline made
// from a finished CGImage (or Bitmap) and never mutates; AppKit documents such images as safe to draw on any thread.
extension ImageResponse: @unchecked Sendable {}
#else
extension ImageResponse: Sendable {}
#endif

/// The status and headers of an HTTP response: a plain value, not `URLResponse` (FoundationNetworking on Linux).
public struct HTTPResponseInfo: Hashable, Sendable {
    /// The URL that answered, after redirects.
    public var url: URL?
    /// The HTTP status code.
    public var statusCode: Int
    /// Header fields, names lowercased.
    public var headers: [String: String]

    /// Creates a response description. A field whose name is not a token is dropped, and each CR, LF or NUL in a
    /// value becomes a space (RFC 9110 §5.5), so no field a server sends can pass for another line.
    public init(url: URL?, statusCode: Int, headers: [String: String] = [:]) {
        self.url = url
        self.statusCode = statusCode
        let fields = headers.compactMap { HeaderFields.sanitized(name: $0.key, value: $0.value) }
        self.headers = Dictionary(fields, uniquingKeysWith: { a, _ in a })
    }

    /// The `Content-Length` header, when there is a valid one.
    public var expectedContentLength: Int64? {
        headers["content-length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }
}
