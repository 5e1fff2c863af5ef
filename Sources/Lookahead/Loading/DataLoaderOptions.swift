// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Settings shared by the default data loaders (``CurlDataLoader`` on Linux, ``URLSessionDataLoader``).
///
/// ```swift
/// var options = DataLoaderOptions()
/// options.allowsLocalFiles = true          // an app showing the user's own photos
/// let pipeline = ImagePipeline { $0.dataLoader = DefaultDataLoader(options: options) }
/// ```
public struct DataLoaderOptions: Sendable {
    /// The most redirects followed for one request; one more fails with
    /// ``DataLoadingError/tooManyRedirects(limit:)``. Redirects go to `http` and `https` only. Default 5.
    public var maximumRedirects: Int
    /// Whether `file:` URLs are read. Off by default: a remote list of URLs must not make an app read local
    /// files. When on, only regular files are read (never a FIFO or a device), off the cooperative pool.
    public var allowsLocalFiles: Bool
    /// The most connections open to one host at once. Default 12: twice the default
    /// ``ImagePipeline/Configuration/dataLoadingConcurrency``, so downloads that gave their slot back while stalled
    /// do not hold up the rest.
    public var maximumConnectionsPerHost: Int
    /// The `User-Agent` header; `nil` sends the transport's own.
    public var userAgent: String?
    /// Headers added to every request. `Authorization` and `Cookie` are never sent on to another host after a
    /// redirect.
    public var headers: [String: String]
    /// Whether an `https` URL may redirect to plain `http`. Off by default, as App Transport Security refuses it:
    /// the redirect fails with ``DataLoadingError/insecureRedirect(_:)``.
    public var allowsInsecureRedirects: Bool
    /// The most header fields a response may have. Default 256.
    public var maximumHeaderFieldCount: Int
    /// The most bytes a response's header fields may take. Default 64 KiB.
    public var maximumHeaderSize: Int
    /// Certificates (PEM) trusted beside the system's, for a server with a private or self-signed certificate.
    /// Honoured by ``CurlDataLoader``.
    public var trustedCertificates: [Data]

    /// Creates the default options.
    public init() {
        maximumRedirects = 5
        allowsLocalFiles = false
        maximumConnectionsPerHost = 12
        userAgent = "Lookahead"
        headers = [:]
        allowsInsecureRedirects = false
        maximumHeaderFieldCount = 256
        maximumHeaderSize = 64 << 10
        trustedCertificates = []
    }
}

/// Where a default loader sends a URL: `data:` and (when allowed) `file:` URLs need no network.
enum DataSource {
    /// Loads a `data:` or allowed `file:` URL and throws for URLs no loader may load; `nil` for `http` and `https`,
    /// which the caller's transport loads.
    static func loadWithoutNetwork(
        _ request: DataLoadRequest,
        options: DataLoaderOptions
    ) async throws -> DataLoadResponse? {
        let url = request.url
        switch url.scheme?.lowercased() ?? "" {
        case "":
            throw DataLoadingError.unsupportedURL(url)
        case "http", "https":
            guard let host = url.host, !host.isEmpty else { throw DataLoadingError.unsupportedURL(url) }
            return nil
        case "file" where options.allowsLocalFiles:
            return try await FileDataReader.load(request)
        case "data":
            let data = try DataURL.decode(url, limit: request.maximumResponseSize)
            request.progress(Int64(data.count), Int64(data.count))
            return DataLoadResponse(data: data)
        case let scheme:
            throw DataLoadingError.unsupportedScheme(scheme)
        }
    }
}
