// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// How long data in the disk cache is used. Set it with ``ImagePipeline/Configuration/diskCachePolicy``.
public struct DiskCachePolicy: Sendable {
    package enum Kind: Sendable, Equatable { case cacheForever, httpSemantics }

    package let kind: Kind
    /// The clock freshness is measured with; tests inject their own.
    package let now: @Sendable () -> Date

    /// Keep every downloaded image until the cache evicts it, and never ask the server again; no response header
    /// is consulted (`no-store` included). The default, and the right choice for immutable CDN URLs.
    public static let cacheForever = DiskCachePolicy(kind: .cacheForever, now: { Date() })

    /// Follow the response's caching headers, as a browser's private cache does (RFC 9111, RFC 5861, RFC 8246):
    /// `no-store`, freshness lifetimes, `Vary`, revalidation with `If-None-Match` / `If-Modified-Since`,
    /// `stale-while-revalidate` and `stale-if-error`. <doc:Caching> lists every rule.
    public static var httpSemantics: DiskCachePolicy { .httpSemantics(now: { Date() }) }

    /// ``httpSemantics`` measured with the given clock.
    public static func httpSemantics(now: @escaping @Sendable () -> Date) -> DiskCachePolicy {
        DiskCachePolicy(kind: .httpSemantics, now: now)
    }
}

/// What the disk cache keeps of a request. Set it with ``ImagePipeline/Configuration/diskCacheContent``.
public enum DiskCacheContent: Sendable, Hashable {
    /// The downloaded bytes, whatever the request; every size and processing of a URL shares one entry. The default.
    case originalData
    /// For a request with a thumbnail or processors, its final image, encoded (JPEG, or PNG with transparency) under
    /// the request's own key, without the original; for a request with neither, the downloaded bytes.
    case automatic
    /// Both: the downloaded bytes of every request, and the final image of a request with a thumbnail or processors.
    case all
}
