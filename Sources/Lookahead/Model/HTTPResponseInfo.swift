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
