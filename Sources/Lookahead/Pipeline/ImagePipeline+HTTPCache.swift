// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — the disk cache under HTTP cache semantics: fresh or stale entries, revalidation, no-store.

import Foundation

/// A disk cache entry that must be revalidated (or downloaded again) before use.
struct StaleDiskCacheEntry: Sendable {
    var data: Data
    /// `nil` when the entry has no readable metadata: it is then downloaded again, unconditionally.
    var metadata: HTTPCacheMetadata?
}

/// What the disk cache holds for a key, judged by the configuration's ``DiskCachePolicy``.
enum DiskCacheLookup: Sendable {
    case miss
    case fresh(Data)
    case stale(StaleDiskCacheEntry)
}

extension ImagePipeline {
    /// Reads the disk cache (and, under HTTP semantics, the entry's metadata) on the I/O queue: never on the
    /// caller's thread or the cooperative pool.
    func lookUpDiskCache(_ cache: any DataCaching, key: String) async -> DiskCacheLookup {
        let policy = configuration.diskCachePolicy
        return await withCheckedContinuation { continuation in
            ioQueue.async {
                guard let data = cache.cachedData(for: key) else { return continuation.resume(returning: .miss) }
                guard policy.kind == .httpSemantics else { return continuation.resume(returning: .fresh(data)) }
                let metadata = cache.cachedData(for: HTTPCacheMetadata.key(for: key)).flatMap(HTTPCacheMetadata.decode)
                if let metadata, metadata.isFresh(now: policy.now()) {
                    continuation.resume(returning: .fresh(data))
                } else {
                    continuation.resume(returning: .stale(StaleDiskCacheEntry(data: data, metadata: metadata)))
                }
            }
        }
    }

    /// Loaded data read from the disk cache.
    func diskCacheHit(
        _ data: Data,
        url: URL,
        cache: any DataCaching,
        key: String,
        response: HTTPResponseInfo? = nil
    ) -> TaskGraph.LoadedData {
        configuration.eventHandler?(.diskCacheHit(url, byteCount: data.count))
        return TaskGraph.LoadedData(
            response: DataLoadResponse(data: data, response: response),
            cacheType: .disk,
            diskCacheTicket: DiskCacheTicket(origin: .disk, cache: cache, key: key, data: data)
        )
    }

    /// The stale entry's data when the revalidation says to use it: on `304 Not Modified` (its metadata refreshed
    /// at once) or when the server could not be reached. `nil` when the download's result stands.
    func serveStale(
        _ entry: StaleDiskCacheEntry,
        after result: Result<DataLoadResponse, Error>,
        url: URL,
        cache: any DataCaching,
        key: String
    ) -> TaskGraph.LoadedData? {
        switch result {
        case .success(let response):
            guard let info = response.response, info.statusCode == 304, let metadata = entry.metadata else {
                return nil
            }
            let headers = HTTPCacheHeaders(headers: info.headers)
            if headers.noStore {
                removeEntry(cache: cache, key: key)
            } else {
                let refreshed = metadata.refreshed(by: headers, now: configuration.diskCachePolicy.now())
                cache.storeData(refreshed.encoded(), for: HTTPCacheMetadata.key(for: key))
            }
            return diskCacheHit(entry.data, url: url, cache: cache, key: key, response: info)
        case .failure(let error):
            guard error.meansTheServerWasNotReached else { return nil }
            return diskCacheHit(entry.data, url: url, cache: cache, key: key)
        }
    }

    /// The ticket that stores downloaded data once it decodes: with its metadata under HTTP semantics, none for a
    /// `no-store` response (which also removes what was stored before).
    func networkTicket(for response: DataLoadResponse, cache: any DataCaching, key: String) -> DiskCacheTicket? {
        let policy = configuration.diskCachePolicy
        guard policy.kind == .httpSemantics else {
            return DiskCacheTicket(origin: .network, cache: cache, key: key, data: response.data)
        }
        let headers = HTTPCacheHeaders(headers: response.response?.headers ?? [:])
        if headers.noStore {
            removeEntry(cache: cache, key: key)
            return nil
        }
        let metadata = HTTPCacheMetadata(headers: headers, now: policy.now())
        return DiskCacheTicket(
            origin: .network,
            cache: cache,
            key: key,
            data: response.data,
            sidecar: (HTTPCacheMetadata.key(for: key), metadata.encoded())
        )
    }

    private func removeEntry(cache: any DataCaching, key: String) {
        cache.removeData(for: key)
        cache.removeData(for: HTTPCacheMetadata.key(for: key))
    }
}

extension ImagePipelineError {
    /// `true` when the transfer failed before the server could answer it in full: refused, reset, timed out,
    /// truncated. A status code is an answer, not one of these.
    var meansTheServerWasNotReached: Bool {
        guard case .dataLoadingFailed(let error) = self, let error = error as? DataLoadingError else { return false }
        switch error {
        case .connectionFailed, .timedOut, .truncated: return true
        default: return false
        }
    }
}
