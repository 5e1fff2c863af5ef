// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Settings shared by the default data loaders (``CurlDataLoader`` on Linux, ``URLSessionDataLoader``).
public struct DataLoaderOptions: Sendable {
    /// The most redirects followed for one request (to `http` and `https` only). Default 5.
    public var maximumRedirects: Int = 5
    /// Whether `file:` URLs are read (regular files only). Off by default: remote URLs must not read local files.
    public var allowsLocalFiles: Bool = false
    /// The most connections open to one host at once. Default 12, so stalled downloads do not hold up the rest.
    public var maximumConnectionsPerHost: Int = 12
    /// The `User-Agent` header; `nil` sends the transport's own.
    public var userAgent: String? = "Lookahead"
    /// Headers added to every request; redirects keep the sensitive ones on its origin (``sensitiveHeaderFields``).
    public var headers: [String: String] = [:]
    /// Header fields, compared case-insensitively, that a redirect never carries to another origin (scheme, host
    /// or port), such as `X-Api-Key`; `Authorization`, `Cookie` and `Proxy-Authorization` always. Empty by default.
    public var sensitiveHeaderFields: Set<String> = []
    /// Whether an `https` URL may redirect to plain `http`. Off by default, as App Transport Security refuses it.
    public var allowsInsecureRedirects: Bool = false
    /// The most header fields a response may have. Default 256.
    public var maximumHeaderFieldCount: Int = 256
    /// The most bytes a response's header fields may take. Default 64 KiB.
    public var maximumHeaderSize: Int = 64 << 10
    /// Certificates (PEM) trusted beside the system's, for a private or self-signed server (not by
    /// FoundationNetworking on Linux, which trusts only what the system trusts).
    public var trustedCertificates: [Data] = []
    /// Public keys an `https` server's own certificate must carry: the base64 SHA-256 of its DER
    /// SubjectPublicKeyInfo (HPKP's `pin-sha256`, from `openssl x509 -pubkey | openssl pkey -pubin -outform der |
    /// openssl dgst -sha256 -binary | base64`). Another key fails with a `tls` ``TransportFailure``; pin a backup key
    /// too. Where pins cannot be checked (``URLSessionDataLoader`` on Linux), every `https` load fails so.
    public var pinnedPublicKeyHashes: Set<String> = []
    /// The certificate the app presents when a server asks for one (mutual TLS); `nil`, the default, presents none.
    /// An archive that does not open fails the load with a ``TransportFailure`` of kind `tls`. FoundationNetworking
    /// on Linux cannot present one: there ``URLSessionDataLoader`` connects without it.
    public var clientCertificate: ClientCertificate?

    public init() {}
}

/// Where a default loader sends a URL: `data:` and (when allowed) `file:` URLs need no network.
enum DataSource {
    /// Loads a `data:` or allowed `file:` URL and throws for URLs no loader may load; `nil` for `http` and `https`
    /// whose header fields pass ``HeaderFields/check(_:)``.
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
            try HeaderFields.check(options.headers.merging(request.headers) { _, new in new })
            if let agent = options.userAgent { try HeaderFields.check(["User-Agent": agent]) }
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

/// Decodes `data:[<media type>][;base64],<data>` URLs: base64 or percent-encoded.
enum DataURL {
    /// The bytes of a `data:` URL.
    static func decode(_ url: URL, limit: Int?) throws(DataLoadingError) -> Data {
        let string = url.absoluteString
        // The scheme is `data` (the caller routed it here), so the header starts after its five characters.
        guard string.utf8.count > 5, let comma = string.utf8.firstIndex(of: UInt8(ascii: ",")) else {
            throw .unsupportedURL(url)
        }
        let header = string[string.utf8.index(string.startIndex, offsetBy: 5)..<comma].lowercased()
        let payload = string.utf8[string.utf8.index(after: comma)...]
        // A bound before decoding: base64 shrinks by a quarter, percent-encoding by up to two thirds.
        if let limit, payload.count / 4 > limit { throw .responseTooLarge(limit: limit) }
        guard let bytes = percentDecoded(payload) else { throw .unsupportedURL(url) }
        let data: Data
        if header.hasSuffix(";base64") {
            // Line breaks and spaces are allowed between base64 characters; nothing else is.
            let characters = bytes.filter { !($0 == 0x20 || (0x09...0x0D).contains($0)) }
            guard let decoded = Data(base64Encoded: Data(characters)) else { throw .unsupportedURL(url) }
            data = decoded
        } else {
            data = Data(bytes)
        }
        if let limit, data.count > limit { throw .responseTooLarge(limit: limit) }
        return data
    }

    /// `%XX` escapes turned into bytes; `nil` for a malformed escape.
    private static func percentDecoded(_ bytes: Substring.UTF8View) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexDigit), let low = iterator.next().flatMap(hexDigit) else {
                return nil
            }
            output.append(UInt8(high << 4 | low))
        }
        return output
    }

    private static func hexDigit(_ byte: UInt8) -> Int? { Character(Unicode.Scalar(byte)).hexDigitValue }
}
