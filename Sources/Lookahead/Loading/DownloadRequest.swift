// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// A download as ``ImagePipeline/Configuration/requestModifier`` sees it just before it is sent: the URL and header
/// fields it may change, and what it may need to decide (see <doc:Recipes>).
public struct DownloadRequest: Sendable {
    /// Changes a download before it is sent; throwing fails the download with the error.
    public typealias Modifier = @Sendable (DownloadRequest) async throws -> DownloadRequest

    /// The URL loaded (a signed URL may be signed here).
    public var url: URL
    /// The header fields sent: the loader's are added to these.
    public var headers: [String: String]
    /// The ``ImageRequest/userInfo`` of the request that started the download.
    public let userInfo: [String: any Sendable]
    /// The server answered the first attempt with `401 Unauthorized`: this is the one retry, to refresh credentials.
    public let isRetryAfterUnauthorized: Bool

    /// Creates a download request.
    public init(
        url: URL,
        headers: [String: String] = [:],
        userInfo: [String: any Sendable] = [:],
        isRetryAfterUnauthorized: Bool = false
    ) {
        self.url = url
        self.headers = headers
        self.userInfo = userInfo
        self.isRetryAfterUnauthorized = isRetryAfterUnauthorized
    }
}
