// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Resuming an interrupted download from its kept first bytes.
extension DataLoadWorker {
    /// The handler that keeps an interrupted download's first bytes in `cache` when resuming is on and allowed.
    func partialBodyKeeper(key: String, in cache: any DataCaching) -> (@Sendable (Data, HTTPResponseInfo) -> Void)? {
        guard let limit = configuration.partialDownloadLimit else { return nil }
        let maximumLength = min(limit, configuration.maximumResponseSize ?? Int.max)
        let honoursNoStore = configuration.diskCachePolicy.kind == .httpSemantics
        return { data, response in
            if honoursNoStore, HTTPCacheHeaders(headers: response.headers).forbidsStoring(status: response.statusCode) {
                return
            }
            guard let partial = PartialDownload(data: data, response: response, maximumLength: maximumLength)
            else { return }
            cache.storeData(partial.encoded(), for: PartialDownload.key(for: key))
        }
    }

    /// Reads and removes the kept first bytes of `key`'s download: used once, resumed or not.
    func takePartialDownload(_ key: String, from cache: (any DataCaching)?) async -> PartialDownload? {
        guard let cache else { return nil }
        let partialKey = PartialDownload.key(for: key)
        return await ioQueue.run {
            guard let stored = cache.cachedData(for: partialKey) else { return nil }
            cache.removeData(for: partialKey)
            return PartialDownload.decode(stored)
        }
    }

    /// Joins the answer to a resumed request to its prefix; starts over (one plain download) when it cannot, or `416`.
    func finishResume(
        _ partial: PartialDownload,
        after result: Result<DataLoadResponse, ImagePipeline.Error>,
        request: ImageRequest,
        reporter: OperationReporter,
        _ keepPartial: (@Sendable (Data, HTTPResponseInfo) -> Void)?
    ) async -> Result<DataLoadResponse, ImagePipeline.Error> {
        switch result {
        case .success(var response):
            switch partial.resume(with: response) {
            case .joined(let data):
                if let limit = configuration.maximumResponseSize, data.count > limit {
                    return .failure(.responseTooLarge(limit: limit))
                }
                response.data = data
                return .success(response)
            case .replaced: return result
            case .startOver: break
            }
        case .failure(.statusCodeUnacceptable(416, _)): break
        case .failure: return result
        }
        if Task.isCancelled { return .failure(.cancelled) }
        return await download(request, reporter: reporter, keepPartial: keepPartial)
    }
}
