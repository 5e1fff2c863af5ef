// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The validators and freshness of a disk cache entry, kept as a sidecar entry of the same ``DataCaching`` under
/// ``key(for:)``, so any cache gets HTTP semantics without a format change. The two are not written atomically:
/// metadata without data is ignored; data without readable metadata is stale with no validator.
package struct HTTPCacheMetadata: Codable, Hashable, Sendable {
    package var etag: String?
    package var lastModified: String?
    /// Until when the entry is fresh; `nil` for "stale at once".
    package var freshUntil: Date?
    /// The stored response's freshness lifetime in seconds, which a `304` without one renews; `nil` when none.
    package var lifetime: TimeInterval?
    /// `Cache-Control: immutable`: fresh for as long as it is stored.
    package var immutable: Bool
    /// `Cache-Control: no-cache`: revalidated before each use.
    package var noCache: Bool

    /// The sidecar key of a data key.
    package static func key(for dataKey: String) -> String { dataKey + "\u{0}lookahead-http-metadata-v1" }

    /// The metadata of a response received at `now`.
    package init(headers: HTTPCacheHeaders, now: Date) {
        etag = headers.etag
        lastModified = headers.lastModified
        lifetime = headers.freshnessLifetime(now: now)
        freshUntil = lifetime.map { now.addingTimeInterval($0) }
        immutable = headers.immutable
        noCache = headers.noCache
    }

    /// The metadata after a `304 Not Modified` at `now` (RFC 9111 §4.3.4): the fields it sends replace the stored
    /// ones; without freshness of its own, the stored lifetime is renewed from now.
    package func refreshed(by headers: HTTPCacheHeaders, now: Date) -> HTTPCacheMetadata {
        let carriesFreshness = headers.maxAge != nil || headers.expires != nil || headers.noCache || headers.immutable
        var refreshed = carriesFreshness ? HTTPCacheMetadata(headers: headers, now: now) : self
        if !carriesFreshness { refreshed.freshUntil = lifetime.map { now.addingTimeInterval($0) } }
        refreshed.etag = headers.etag ?? etag
        refreshed.lastModified = headers.lastModified ?? lastModified
        return refreshed
    }

    /// Whether the entry may be used without asking the server.
    package func isFresh(now: Date) -> Bool {
        if noCache { return false }
        if immutable { return true }
        guard let freshUntil else { return false }
        return now < freshUntil
    }

    /// The conditional request header fields; empty without a validator.
    package var conditionalHeaders: [String: String] {
        var headers: [String: String] = [:]
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        return headers
    }

    package func encoded() -> Data { (try? JSONEncoder().encode(self)) ?? Data() }

    /// Decodes stored metadata; `nil` when unreadable.
    package static func decode(_ data: Data) -> HTTPCacheMetadata? { try? JSONDecoder().decode(Self.self, from: data) }
}
