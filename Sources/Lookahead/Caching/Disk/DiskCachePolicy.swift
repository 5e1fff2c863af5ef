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

    /// Follow the response's caching headers, as a browser's private cache does (RFC 9111, RFC 5861, RFC 8246):
    ///
    /// - `Cache-Control: no-store` and `Vary: *` are not stored (and remove an entry stored earlier);
    /// - `max-age`, else `Expires` (relative to `Date`), gives a freshness lifetime, less the age the response
    ///   arrived with (`Age`, `Date`, the request's time); without either, a response with `Last-Modified` is fresh
    ///   for a tenth of its age (at most a week); `no-cache` is revalidated before every use; `immutable` spares
    ///   revalidation while fresh;
    /// - a stored response answers only requests that send the same values for the fields it names in `Vary`;
    /// - a hit returns the stored status and header fields, with its current `Age`;
    /// - a stale entry is revalidated with `If-None-Match` / `If-Modified-Since` when it has a validator (else
    ///   downloaded again): `304 Not Modified` serves the stored data with its fields updated, `200` replaces it;
    ///   within `stale-while-revalidate` it answers at once and is revalidated in the background;
    /// - when the server cannot be reached, or answers 500, 502, 503 or 504 within `stale-if-error`, the stale data
    ///   answers, unless it is under `must-revalidate` or `no-cache`;
    /// - a request that may not load from the network, or asks for
    ///   ``ImageRequest/Options-swift.struct/returnCacheDataElseLoad``, is answered with stale data as it is.
    public static var httpSemantics: DiskCachePolicy { .httpSemantics(now: { Date() }) }

    /// ``httpSemantics`` measured with the given clock.
    public static func httpSemantics(now: @escaping @Sendable () -> Date) -> DiskCachePolicy {
        DiskCachePolicy(kind: .httpSemantics, now: now)
    }
}
