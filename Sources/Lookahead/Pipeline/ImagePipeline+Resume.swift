// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — resumable downloads: keep a cancelled download's first bytes, ask for the rest next time.

import Foundation

extension ImagePipeline {
    /// The handler that keeps a cancelled download's first bytes in `cache`, when the response allows resuming.
    func keepPartialBody(
        in cache: any DataCaching,
        key: String,
        limit: Int
    ) -> @Sendable (Data, HTTPResponseInfo) -> Void {
        let maximumLength = min(limit, configuration.maximumResponseSize ?? Int.max)
        let honoursNoStore = configuration.diskCachePolicy.kind == .httpSemantics
        return { data, response in
            if honoursNoStore, HTTPCacheHeaders(headers: response.headers).noStore { return }
            guard let partial = PartialDownload(data: data, response: response, maximumLength: maximumLength) else {
                return
            }
            cache.storeData(partial.encoded(), for: PartialDownload.key(for: key))
        }
    }

    /// Reads and removes the kept first bytes of `key`'s download, on the I/O queue. They are used once: resumed or
    /// not, they are gone.
    func takePartialDownload(_ cache: (any DataCaching)?, key: String) async -> PartialDownload? {
        guard let cache else { return nil }
        let partialKey = PartialDownload.key(for: key)
        return await withCheckedContinuation { continuation in
            ioQueue.async {
                guard let stored = cache.cachedData(for: partialKey) else { return continuation.resume(returning: nil) }
                cache.removeData(for: partialKey)
                continuation.resume(returning: PartialDownload.decode(stored))
            }
        }
    }

    /// Joins the answer to a resumed request to its prefix; starts over (one plain download) when the answer
    /// cannot be joined or the server refused the range (416).
    func finishResume(
        _ partial: PartialDownload,
        after result: Result<DataLoadResponse, Error>,
        url: URL,
        operation: Int,
        _ keepPartial: (@Sendable (Data, HTTPResponseInfo) -> Void)?
    ) async -> Result<DataLoadResponse, Error> {
        switch result {
        case .success(var response):
            switch partial.resume(with: response) {
            case .joined(let data):
                if let limit = configuration.maximumResponseSize, data.count > limit {
                    return .failure(.responseTooLarge(limit: limit))
                }
                response.data = data
                return .success(response)
            case .replaced:
                return result
            case .startOver:
                if Task.isCancelled { return .failure(.cancelled) }
                return await download(url, operation: operation, keepPartial: keepPartial)
            }
        case .failure(.statusCodeUnacceptable(416)):
            if Task.isCancelled { return .failure(.cancelled) }
            return await download(url, operation: operation, keepPartial: keepPartial)
        case .failure:
            return result
        }
    }
}

extension PartialDownload {
    private struct Header: Codable {
        var validator: String
        var totalLength: Int64?
    }

    /// The key the first bytes of `dataKey`'s download are kept under, in the same cache.
    static func key(for dataKey: String) -> String { dataKey + "\u{0}lookahead-partial-v1" }

    /// The stored form: a one-line JSON header, a newline, the bytes.
    func encoded() -> Data {
        let header = (try? JSONEncoder().encode(Header(validator: validator, totalLength: totalLength))) ?? Data()
        return header + Data([0x0A]) + data
    }

    /// Decodes the stored form; `nil` when unreadable.
    static func decode(_ stored: Data) -> PartialDownload? {
        guard let newline = stored.firstIndex(of: 0x0A),
            let header = try? JSONDecoder().decode(Header.self, from: stored[stored.startIndex..<newline])
        else { return nil }
        let data = stored[(newline + 1)...]
        guard !data.isEmpty else { return nil }
        return PartialDownload(data: Data(data), validator: header.validator, totalLength: header.totalLength)
    }
}
