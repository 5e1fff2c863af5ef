// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// The status and headers of an HTTP response: a plain value, not `URLResponse` (FoundationNetworking on Linux).
public struct HTTPResponseInfo: Hashable, Sendable {
    /// The URL that answered, after redirects.
    public var url: URL?
    /// The HTTP status code.
    public var statusCode: Int
    /// Header fields, names lowercased.
    public var headers: [String: String]

    /// Creates a response description.
    public init(url: URL?, statusCode: Int, headers: [String: String] = [:]) {
        self.url = url
        self.statusCode = statusCode
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// The `Content-Length` header, when there is a valid one.
    public var expectedContentLength: Int64? {
        headers["content-length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }
}
