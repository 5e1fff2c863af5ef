// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Disk-cache entries of downloaded data, and their HTTP freshness.
extension DataLoadWorker {
    // MARK: - Disk cache and HTTP freshness

    /// A disk cache entry that must be revalidated (or downloaded again) before use.
    struct StaleEntry: Sendable {
        var data: Data
        /// `nil` when the entry has no readable metadata: it is then downloaded again, unconditionally.
        var metadata: HTTPCacheMetadata?

        /// Whether the entry may answer when the server cannot be reached; an entry without metadata has no
        /// directive against it.
        var mayAnswerWhenUnreachable: Bool { metadata?.mayAnswerWhenUnreachable ?? true }

        /// Whether the entry may answer after `error`: when the server could not be reached, or answered 500, 502,
        /// 503 or 504 within the entry's `stale-if-error`; never under `must-revalidate` or `no-cache`.
        func mayAnswer(after error: ImagePipeline.Error, now: Date) -> Bool {
            if error.isServerUnreachable { return mayAnswerWhenUnreachable }
            guard case .statusCodeUnacceptable(let status, _) = error, let metadata else { return false }
            return metadata.mayAnswer(status: status, now: now)
        }
    }

    enum Lookup: Sendable {
        case miss
        case fresh(Data)
        case stale(StaleEntry)
    }

    /// Reads an entry (and, under HTTP semantics, its metadata) on the I/O queue and judges its freshness.
    func lookUp(_ key: String, in cache: any DataCaching) async -> Lookup {
        let policy = settings.diskCachePolicy
        return await ioQueue.run {
            guard let data = cache.cachedData(for: key) else { return .miss }
            guard policy.kind == .httpSemantics else { return .fresh(data) }
            let metadata = cache.cachedData(for: HTTPCacheMetadata.key(for: key)).flatMap(HTTPCacheMetadata.decode)
            if let metadata, metadata.isFresh(now: policy.now()) { return .fresh(data) }
            return .stale(StaleEntry(data: data, metadata: metadata))
        }
    }

    func hit(
        _ data: Data,
        url: URL,
        cache: any DataCaching,
        key: String,
        response: HTTPResponseInfo? = nil
    ) -> LoadedData {
        events?(.diskCacheHit(url, byteCount: data.count))
        return LoadedData(
            response: DataLoadResponse(data: data, response: response),
            cacheType: .disk,
            diskCacheTicket: DiskCacheTicket(origin: .disk, cache: cache, key: key, data: data)
        )
    }

    /// The stale entry when the revalidation says to use it: on `304` (its metadata refreshed at once), or when
    /// the server fails in a way the entry's directives allow it to answer (see ``StaleEntry/mayAnswer(after:now:)``).
    /// `nil` when the download's result stands.
    func serve(
        _ entry: StaleEntry,
        after result: Result<DataLoadResponse, ImagePipeline.Error>,
        requestTime: Date,
        url: URL,
        cache: any DataCaching,
        key: String
    ) -> LoadedData? {
        let now = settings.diskCachePolicy.now()
        switch result {
        case .success(let response):
            guard let info = response.response, info.statusCode == 304, let metadata = entry.metadata else {
                return nil
            }
            let headers = HTTPCacheHeaders(headers: info.headers)
            if headers.noStore {
                cache.removeData(for: key)
                cache.removeData(for: HTTPCacheMetadata.key(for: key))
            } else {
                let refreshed = metadata.refreshed(by: headers, requestTime: requestTime, responseTime: now)
                cache.storeData(refreshed.encoded(), for: HTTPCacheMetadata.key(for: key))
            }
            return hit(entry.data, url: url, cache: cache, key: key, response: info)
        case .failure(let error):
            guard entry.mayAnswer(after: error, now: now) else { return nil }
            return hit(entry.data, url: url, cache: cache, key: key)
        }
    }

    /// The ticket that stores downloaded data once it decodes: with its metadata under HTTP semantics, none for a
    /// `no-store` response (which also removes what was stored before).
    func networkTicket(
        for response: DataLoadResponse,
        requestTime: Date,
        cache: any DataCaching,
        key: String
    ) -> DiskCacheTicket? {
        let policy = settings.diskCachePolicy
        guard policy.kind == .httpSemantics else {
            return DiskCacheTicket(origin: .network, cache: cache, key: key, data: response.data)
        }
        let headers = HTTPCacheHeaders(headers: response.response?.headers ?? [:])
        if headers.noStore {
            cache.removeData(for: key)
            cache.removeData(for: HTTPCacheMetadata.key(for: key))
            return nil
        }
        let metadata = HTTPCacheMetadata(headers: headers, requestTime: requestTime, responseTime: policy.now())
        return DiskCacheTicket(
            origin: .network,
            cache: cache,
            key: key,
            data: response.data,
            sidecar: (HTTPCacheMetadata.key(for: key), metadata.encoded())
        )
    }
}
