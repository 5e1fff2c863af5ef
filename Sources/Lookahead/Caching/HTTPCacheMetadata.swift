// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The validators and freshness of a disk cache entry, kept as a sidecar entry of the same ``DataCaching`` under
/// ``key(for:)``, so any cache gets HTTP semantics without a format change. The two are not written atomically:
/// metadata without data is ignored; data without readable metadata is stale with no validator.
package struct HTTPCacheMetadata: Codable, Hashable, Sendable {
    package var etag: String?
    package var lastModified: String?
    /// Until when the entry is fresh: its arrival, plus its freshness lifetime, less the age it arrived with;
    /// `nil` for "stale at once".
    package var freshUntil: Date?
    /// The stored response's freshness lifetime in seconds, which a `304` without one renews; `nil` when none.
    package var lifetime: TimeInterval?
    /// `Cache-Control: no-cache`: revalidated before each use.
    package var noCache: Bool
    /// `Cache-Control: must-revalidate`: once stale, never used without the server's say-so.
    package var mustRevalidate: Bool
    /// `Cache-Control: stale-if-error`, in seconds past `freshUntil`.
    package var staleIfError: TimeInterval?

    /// The sidecar key of a data key.
    package static func key(for dataKey: String) -> String { dataKey + "\u{0}lookahead-http-metadata-v2" }

    /// The metadata of a response whose request was sent at `requestTime` and which arrived at `responseTime`.
    /// `immutable` changes nothing here: it spares revalidation only while the response is fresh (RFC 8246).
    package init(headers: HTTPCacheHeaders, requestTime: Date, responseTime: Date) {
        etag = headers.etag
        lastModified = headers.lastModified
        lifetime = headers.freshnessLifetime(now: responseTime)
        let initialAge = headers.initialAge(requestTime: requestTime, responseTime: responseTime)
        freshUntil = lifetime.map { responseTime.addingTimeInterval($0 - initialAge) }
        noCache = headers.noCache
        mustRevalidate = headers.mustRevalidate
        staleIfError = headers.staleIfError.map(TimeInterval.init)
    }

    /// The metadata after a `304 Not Modified` (RFC 9111 §4.3.4): the fields it sends replace the stored ones;
    /// without freshness of its own, the stored lifetime is renewed from its arrival, less the age it arrived with.
    package func refreshed(by headers: HTTPCacheHeaders, requestTime: Date, responseTime: Date) -> HTTPCacheMetadata {
        let carriesFreshness = headers.maxAge != nil || headers.expires != nil || headers.noCache
        var refreshed =
            carriesFreshness
            ? HTTPCacheMetadata(headers: headers, requestTime: requestTime, responseTime: responseTime)
            : self
        if !carriesFreshness {
            let initialAge = headers.initialAge(requestTime: requestTime, responseTime: responseTime)
            refreshed.freshUntil = lifetime.map { responseTime.addingTimeInterval($0 - initialAge) }
        }
        refreshed.etag = headers.etag ?? etag
        refreshed.lastModified = headers.lastModified ?? lastModified
        return refreshed
    }

    /// Whether the entry may be used without asking the server.
    package func isFresh(now: Date) -> Bool {
        guard !noCache, let freshUntil else { return false }
        return now < freshUntil
    }

    /// Whether the stale entry may answer when the server cannot be reached (RFC 9111 §4.2.4): not under
    /// `must-revalidate` or `no-cache`.
    package var mayAnswerWhenUnreachable: Bool { !mustRevalidate && !noCache }

    /// Whether the stale entry may answer a `status` of 500, 502, 503 or 504 at `now`: within `stale-if-error` of
    /// going stale (RFC 5861 §4), and not under `must-revalidate` or `no-cache`.
    package func mayAnswer(status: Int, now: Date) -> Bool {
        guard mayAnswerWhenUnreachable, [500, 502, 503, 504].contains(status), let staleIfError, let freshUntil
        else { return false }
        return now <= freshUntil.addingTimeInterval(staleIfError)
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
