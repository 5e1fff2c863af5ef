// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// How long data in the disk cache is used, and whether the server's caching headers are consulted. Set it with
/// ``ImagePipeline/Configuration/diskCachePolicy``.
public struct DiskCachePolicy: Sendable {
    /// The two behaviours.
    package enum Kind: Sendable, Equatable {
        case cacheForever
        case httpSemantics
    }

    package let kind: Kind
    /// The clock freshness is measured with; tests inject their own.
    package let now: @Sendable () -> Date

    /// Keep every downloaded image until the cache evicts it, and never ask the server again; no response header
    /// is consulted (`no-store` included). The default, and the right choice for immutable CDN URLs.
    public static let cacheForever = DiskCachePolicy(kind: .cacheForever, now: { Date() })

    /// Follow the response's caching headers:
    ///
    /// - `Cache-Control: no-store` is not stored (and removes an entry stored earlier);
    /// - `max-age`, else `Expires` (relative to `Date`), gives a freshness lifetime; a response without one is
    ///   stored but revalidated before its next use; `no-cache` is revalidated before every use;
    /// - `immutable` is fresh for as long as it is stored;
    /// - a stale entry is revalidated with `If-None-Match` / `If-Modified-Since` when it has a validator (else
    ///   downloaded again): `304 Not Modified` serves the stored data and refreshes it, `200` replaces it;
    /// - when the revalidation cannot reach the server, the stale data is served rather than an error; a status code
    ///   from the server (404, 500) fails the request.
    /// - A request that may not load from the network serves stale data as it is.
    public static var httpSemantics: DiskCachePolicy { .httpSemantics(now: { Date() }) }

    /// ``httpSemantics`` measured with the given clock.
    public static func httpSemantics(now: @escaping @Sendable () -> Date) -> DiskCachePolicy {
        DiskCachePolicy(kind: .httpSemantics, now: now)
    }
}
