// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Disk-cache entries of downloaded data, and their HTTP freshness.
extension DataLoadWorker {
    /// A disk cache entry that must be revalidated (or downloaded again) before use.
    struct StaleEntry: Sendable {
        var data: Data
        /// `nil` when the entry has no readable metadata: it is then downloaded again, unconditionally.
        var metadata: HTTPCacheMetadata?

        /// Whether the entry may answer when the server cannot be reached (without metadata, nothing forbids it).
        var mayAnswerWhenUnreachable: Bool { metadata?.mayAnswerWhenUnreachable ?? true }
    }

    enum Lookup: Sendable {
        case miss
        case fresh(Data, HTTPCacheMetadata?)
        case stale(StaleEntry)
        /// A fresh stored error answer (a `404` with `max-age`): the request fails as the server answered.
        case errorAnswer(HTTPCacheMetadata)
    }

    /// Reads an entry (and, under HTTP semantics, its metadata) on the I/O queue and judges its freshness, with the
    /// key it lives under: `key`, or the slot of the variant the request wants when the entry at `key` was stored for
    /// other values of the fields its response varies on (``HTTPCacheMetadata/variantKey(of:for:)``), which is also
    /// where a download for the request is stored.
    func lookUp(_ key: String, for request: ImageRequest, in cache: any DataCaching) async -> (Lookup, key: String) {
        let policy = configuration.diskCachePolicy
        let requestHeaders = self.requestHeaders(for: request)
        return await ioQueue.run {
            guard policy.kind == .httpSemantics else {
                return (cache.cachedData(for: key).map { .fresh($0, nil) } ?? .miss, key)
            }
            let (lookup, metadata) = Self.judge(key, in: cache, for: requestHeaders, now: policy.now())
            guard let metadata, !metadata.matches(requestHeaders),
                let variantKey = metadata.variantKey(of: key, for: requestHeaders)
            else { return (lookup, key) }
            return (Self.judge(variantKey, in: cache, for: requestHeaders, now: policy.now()).0, variantKey)
        }
    }

    /// The entry under `key` judged for a request with `requestHeaders`, and its metadata.
    private static func judge(
        _ key: String,
        in cache: any DataCaching,
        for requestHeaders: [String: String],
        now: Date
    ) -> (Lookup, HTTPCacheMetadata?) {
        let data = cache.cachedData(for: key)
        let metadata = cache.cachedData(for: HTTPCacheMetadata.key(for: key)).flatMap(HTTPCacheMetadata.decode)
        if let metadata, !metadata.matches(requestHeaders) { return (.miss, metadata) }
        guard let data else {
            // An error answer is stored as metadata alone.
            guard let metadata, metadata.isStorableErrorAnswer(now: now) else { return (.miss, metadata) }
            return (.errorAnswer(metadata), metadata)
        }
        if let metadata, metadata.isFresh(now: now) { return (.fresh(data, metadata), metadata) }
        return (.stale(StaleEntry(data: data, metadata: metadata)), metadata)
    }

    /// A disk-cache hit, with the stored response as it stands now when there is one.
    func hit(_ data: Data, url: URL, cache: any DataCaching, key: String, metadata: HTTPCacheMetadata?) -> LoadedData {
        events?(.diskCacheHit(url, byteCount: data.count))
        let response = metadata?.response(url: url, now: configuration.diskCachePolicy.now())
        return LoadedData(
            response: DataLoadResponse(data: data, response: response),
            cacheType: .disk,
            diskCacheTicket: DiskCacheTicket(origin: .disk, cache: cache, key: key, data: data)
        )
    }

    /// The stale entry when the revalidation says to use it: on `304` (its metadata refreshed at once), or when the
    /// server could not be reached or answered 500, 502, 503 or 504 within the entry's `stale-if-error` (never under
    /// `must-revalidate` or `no-cache`); `nil` when the result stands.
    func serve(
        _ entry: StaleEntry,
        after result: Result<DataLoadResponse, ImagePipeline.Error>,
        requestTime: Date,
        url: URL,
        cache: any DataCaching,
        key: String
    ) -> LoadedData? {
        let now = configuration.diskCachePolicy.now()
        switch result {
        case .success(let response):
            guard let info = response.response, info.statusCode == 304, let metadata = entry.metadata else {
                return nil
            }
            let refreshed = metadata.refreshed(by: info, requestTime: requestTime, responseTime: now)
            if HTTPCacheHeaders(headers: info.headers).forbidsStoring(status: metadata.statusCode) {
                cache.removeData(for: key)
                cache.removeData(for: HTTPCacheMetadata.key(for: key))
            } else {
                cache.storeData(refreshed.encoded(), for: HTTPCacheMetadata.key(for: key))
            }
            return hit(entry.data, url: url, cache: cache, key: key, metadata: refreshed)
        case .failure(.statusCodeUnacceptable(let status, _)):
            guard entry.metadata?.mayAnswer(status: status, now: now) == true else { return nil }
        case .failure(let error):
            guard error.isServerUnreachable, entry.mayAnswerWhenUnreachable else { return nil }
        }
        return hit(entry.data, url: url, cache: cache, key: key, metadata: entry.metadata)
    }

    /// Keeps an error answer that stays fresh (a `404` with `max-age`) in place of what was stored for the request, to
    /// answer again from the disk while fresh (RFC 9111 §3).
    func storeErrorAnswer(
        _ error: ImagePipeline.Error,
        of request: ImageRequest,
        requestTime: Date,
        cache: any DataCaching,
        key: String
    ) {
        guard configuration.diskCachePolicy.kind == .httpSemantics,
            case .statusCodeUnacceptable(let status, let info?) = error,
            !HTTPCacheHeaders(headers: info.headers).forbidsStoring(status: status)
        else { return }
        let now = configuration.diskCachePolicy.now()
        let metadata = HTTPCacheMetadata(
            response: info,
            requestHeaders: requestHeaders(for: request),
            requestTime: requestTime,
            responseTime: now
        )
        guard metadata.isStorableErrorAnswer(now: now), !metadata.vary.contains("*") else { return }
        cache.removeData(for: key)
        cache.storeData(metadata.encoded(), for: HTTPCacheMetadata.key(for: key))
    }

    /// The ticket that stores downloaded data once it decodes: with its metadata under HTTP semantics, none for a
    /// `no-store` or `Vary: *` response (which also removes what was stored before).
    func networkTicket(
        for response: DataLoadResponse,
        of request: ImageRequest,
        requestTime: Date,
        cache: any DataCaching,
        key: String
    ) -> DiskCacheTicket? {
        let policy = configuration.diskCachePolicy
        guard policy.kind == .httpSemantics else {
            return DiskCacheTicket(origin: .network, cache: cache, key: key, data: response.data)
        }
        let info = response.response ?? HTTPResponseInfo(url: request.url, statusCode: 200)
        let headers = HTTPCacheHeaders(headers: info.headers)
        if headers.forbidsStoring(status: info.statusCode) || headers.vary.contains("*") {
            cache.removeData(for: key)
            cache.removeData(for: HTTPCacheMetadata.key(for: key))
            return nil
        }
        let metadata = HTTPCacheMetadata(
            response: info,
            requestHeaders: requestHeaders(for: request),
            requestTime: requestTime,
            responseTime: policy.now()
        )
        return DiskCacheTicket(
            origin: .network,
            cache: cache,
            key: key,
            data: response.data,
            sidecar: (HTTPCacheMetadata.key(for: key), metadata.encoded())
        )
    }
}
