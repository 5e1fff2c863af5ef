// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Does the work of data stages: a request's original bytes from, in order, the disk cache (a stale entry is
/// revalidated), the failure backoff, a kept prefix of an earlier download (resumed with `Range`), the download.
/// Downloaded data is stored by its ``DiskCacheTicket`` once the decode stage has judged it an image.
struct DataLoadWorker: Sendable {
    /// The loader, the disk cache and its policy, the download limits, the request modifier, the decoders.
    let configuration: ImagePipeline.Configuration
    let credentials: CredentialRefresh
    /// The `Accept` header of a download whose request sends none.
    let accept: String?
    var events: PipelineEventSink { configuration.eventHandler }
    let failureRecords: FailureRecords?
    /// Disk-cache reads: never on the caller's thread or the cooperative pool.
    let ioQueue: DispatchQueue
    /// Decodes previews.
    let executor: any ImagePipelineExecutor
    let revalidations = BackgroundRevalidations()

    /// The stale entry as the answer without waiting for the server, when the request may not load from the network,
    /// takes data of any age, or `stale-while-revalidate` allows it (then revalidated in the background); else `nil`.
    private func answerWithStale(
        _ entry: StaleEntry,
        for request: ImageRequest,
        cache: any DataCaching,
        key: String,
        reporter: OperationReporter
    ) -> LoadedData? {
        guard let url = request.url, reporter.mayAnswerFromDisk else { return nil }
        let policy = request.dataPolicy
        if !policy.loadsFromNetwork || policy.usesDataOfAnyAge {
            return hit(entry.data, url: url, cache: cache, key: key, metadata: entry.metadata)
        }
        guard let metadata = entry.metadata,
            metadata.mayAnswerWhileRevalidating(now: configuration.diskCachePolicy.now())
        else { return nil }
        revalidateInBackground(entry, for: request, cache: cache, key: key)
        return hit(entry.data, url: url, cache: cache, key: key, metadata: metadata)
    }

    /// Loads a request's data. Local files and `data:` URLs skip the disk cache: they are not downloads.
    func run(_ request: ImageRequest, reporter: OperationReporter) async -> Result<LoadedData, ImagePipeline.Error> {
        guard let url = request.url else { return .failure(.invalidURL(nil)) }
        let policy = request.dataPolicy
        var key = request.dataIdentity
        let diskCache = url.isFileURL || url.scheme?.lowercased() == "data" ? nil : configuration.diskCache
        var stale: StaleEntry?
        if let diskCache, policy.readsDiskCache {
            let (lookup, entryKey) = await lookUp(key, for: request, in: diskCache)
            key = entryKey
            switch lookup {
            case .miss:
                break
            case .fresh(let data, let metadata):
                // Unless a reload joined during the lookup: then both get a download.
                if reporter.mayAnswerFromDisk {
                    return .success(hit(data, url: url, cache: diskCache, key: key, metadata: metadata))
                }
            case .stale(let entry):
                if let answer = answerWithStale(entry, for: request, cache: diskCache, key: key, reporter: reporter) {
                    return .success(answer)
                }
                stale = entry
            case .errorAnswer(let metadata):
                // A user's explicit retry asks the server again.
                if !policy.skipsFailureBackoff, reporter.mayAnswerFromDisk {
                    let response = metadata.response(url: url, now: configuration.diskCachePolicy.now())
                    return .failure(.statusCodeUnacceptable(metadata.statusCode, response: response))
                }
            }
        }
        guard policy.loadsFromNetwork else { return .failure(.dataMissingInCache) }
        if Task.isCancelled { return .failure(.cancelled) }
        if let error = failureRecords?.admit(request) {
            // The URL is backing off after failures: a stale entry that may stand in for the server is better.
            if let stale, stale.mayAnswerWhenUnreachable, let diskCache {
                return .success(hit(stale.data, url: url, cache: diskCache, key: key, metadata: stale.metadata))
            }
            return .failure(error)
        }
        reporter.report(.startedDownload)
        return await loadFromNetwork(request, key: key, stale: stale, diskCache: diskCache, reporter: reporter)
    }

    /// Downloads the data, resuming a kept prefix or revalidating a stale entry (served when the server says so).
    private func loadFromNetwork(
        _ request: ImageRequest,
        key: String,
        stale: StaleEntry?,
        diskCache: (any DataCaching)?,
        reporter: OperationReporter
    ) async -> Result<LoadedData, ImagePipeline.Error> {
        let policy = request.dataPolicy
        let keepPartial = policy.writesDiskCache ? diskCache.flatMap { partialBodyKeeper(key: key, in: $0) } : nil
        // A kept prefix is resumed with `Range`, never beside a revalidation.
        let resume = stale == nil && keepPartial != nil ? await takePartialDownload(key, from: diskCache) : nil
        let downloadStart = ContinuousClock.now
        let requestTime = configuration.diskCachePolicy.now()
        var result = await download(
            request,
            reporter: reporter,
            headers: stale?.metadata?.conditionalHeaders ?? resume?.resumeHeaders ?? [:],
            servesStaleOnTransportFailure: stale?.mayAnswerWhenUnreachable ?? false,
            progressOffset: Int64(resume?.data.count ?? 0),
            keepPartial: keepPartial,
            // A resumed body arrives without its first bytes: previews decode them in front of it.
            previews: PreviewSession(for: request, configuration: configuration, prefix: resume?.data ?? Data())
        )
        if let resume {
            result = await finishResume(resume, after: result, request: request, reporter: reporter, keepPartial)
        }
        if let stale, let diskCache, let url = request.url,
            let served = serve(stale, after: result, requestTime: requestTime, url: url, cache: diskCache, key: key)
        {
            return .success(served)
        }
        if case .failure(let error) = result, error.isServerUnreachable, stale?.mayAnswerWhenUnreachable == false {
            // A stale entry that must be revalidated: the cache answers with a 504 of its own (RFC 9111 §5.2.2.2).
            let generated = HTTPResponseInfo(url: request.url, statusCode: 504)
            result = .failure(.statusCodeUnacceptable(504, response: generated))
        }
        if case .failure(let error) = result, policy.writesDiskCache, let diskCache {
            storeErrorAnswer(error, of: request, requestTime: requestTime, cache: diskCache, key: key)
        }
        let downloaded = ImageTaskMetrics.Interval.since(downloadStart)
        return result.map { response in
            let ticket = (policy.writesDiskCache ? diskCache : nil).flatMap {
                networkTicket(for: response, of: request, requestTime: requestTime, cache: $0, key: key)
            }
            var loaded = LoadedData(response: response, diskCacheTicket: ticket)
            loaded.metrics.download = downloaded
            loaded.metrics.downloadedBytes = response.data.count
            loaded.metrics.resumedBytes = resume.map { min($0.data.count, response.data.count) } ?? 0
            return loaded
        }
    }
}
