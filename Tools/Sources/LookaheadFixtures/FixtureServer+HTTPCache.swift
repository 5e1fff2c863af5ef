// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureServer+HTTPCache: what tests can observe about the `/cacheable/` route.

import Foundation

extension FixtureServer {
    /// The URL of cacheable image `number` (see `FixtureRoutes+HTTPCache.swift`): `cacheControl` is sent as the
    /// `Cache-Control` header, `age` as the `Age` header.
    public func cacheableImageURL(
        _ number: Int,
        size: Int = 64,
        cacheControl: String? = nil,
        age: Int? = nil,
        vary: String? = nil
    ) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.path = "/cacheable/\(number).jpg"
        var items = [URLQueryItem(name: "w", value: "\(size)")]
        if let cacheControl { items.append(URLQueryItem(name: "cc", value: cacheControl)) }
        if let age { items.append(URLQueryItem(name: "age", value: "\(age)")) }
        if let vary { items.append(URLQueryItem(name: "vary", value: vary)) }
        components.queryItems = items
        return components.url!
    }

    /// The body bytes the `/cacheable/` and `/resumable/` routes handed out for `path` (e.g. `"/cacheable/3.jpg"`);
    /// a 304 adds none, a 206 its range, a stalled response the half it wrote.
    public func bodyBytesSent(forPath path: String) -> Int {
        httpCacheLedger.bodyBytes(path: path)
    }

    /// Changes the version of the cacheable image at `path`: its `ETag` becomes `"<tag>-<n>"` and its pixels
    /// differ from version `v1`'s.
    public func setCacheableVersion(_ tag: String, forPath path: String) {
        httpCacheLedger.setVersion(tag, path: path)
    }

    /// Makes the cacheable image at `path` answer `status` with its caching headers and a short text in place of the
    /// image, as an origin in trouble (503) or one whose image is gone (404) does; `nil` serves the image again.
    public func setCacheableStatus(_ status: Int?, forPath path: String) {
        httpCacheLedger.setStatus(status, path: path)
    }

    /// How many requests for `path` of the `/resumable/` route carried a `Range` header, answered with a range or
    /// not.
    public func rangeRequestCount(forPath path: String) -> Int {
        httpCacheLedger.rangeRequests(path: path)
    }

    /// How many `206 Partial Content` answers the `/resumable/` route gave for `path`.
    public func partialContentCount(forPath path: String) -> Int {
        httpCacheLedger.partial(path: path)
    }

    /// How many `304 Not Modified` answers the `/cacheable/` route gave for `path`.
    public func notModifiedCount(forPath path: String) -> Int {
        httpCacheLedger.notModified(path: path)
    }

    /// The header fields of each request for `path` of the `/hostile/headers/` route (e.g. `"/hostile/headers/a"`),
    /// oldest first, names lowercased.
    public func receivedHeaders(forPath path: String) -> [[String: String]] {
        headerLedger.headers(path: path)
    }
}
