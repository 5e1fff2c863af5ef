// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The data stage: a request's original bytes, from the disk cache or the network.
///
/// In order: the disk cache (under ``DiskCachePolicy/httpSemantics``, a stale entry is revalidated), the failure
/// backoff, a kept prefix of an earlier download (resumed with `Range`), then the download itself, which feeds
/// progressive previews and gives its slot back when it stalls. Downloaded data is not stored here: its
/// ``DiskCacheTicket`` stores it once the decode stage has judged it an image.
struct DataLoadWorker: Sendable {
    /// The stage's slice of ``ImagePipeline/Configuration``.
    struct Settings: Sendable {
        var dataLoader: any DataLoading
        var diskCache: (any DataCaching)?
        var diskCachePolicy: DiskCachePolicy = .cacheForever
        var partialDownloadLimit: Int?
        var maximumResponseSize: Int?
        var timeout: Duration?
        var idleTimeout: Duration?
        var stalledDownloadInterval: Duration?
        var requestModifier: DownloadRequest.Modifier?
        /// The `Accept` header of a download whose request sends none.
        var accept: String?
        /// The gate each download's previews start from (a value: every download gets a fresh copy); `nil` when
        /// progressive decoding is off.
        var previewGate: ProgressivePreviewGate?
        /// The pixel limit of a preview.
        var maximumPixelCount = Int.max
    }

    let settings: Settings
    let events: PipelineEventSink
    let failureRecords: FailureRecords?
    /// Disk-cache reads: never on the caller's thread or the cooperative pool.
    let ioQueue: DispatchQueue
    /// Decodes previews.
    let executor: any ImagePipelineExecutor

    /// Loads a request's data. Local files and `data:` URLs skip the disk cache: they are not downloads.
    func run(_ request: ImageRequest, reporter: OperationReporter) async -> Result<LoadedData, ImagePipelineError> {
        guard let url = request.url else { return .failure(.invalidURL(nil)) }
        let policy = request.dataPolicy
        let key = request.dataIdentity
        let diskCache = url.isFileURL || url.scheme?.lowercased() == "data" ? nil : settings.diskCache
        var stale: StaleEntry?
        if let diskCache, policy.readsDiskCache {
            switch await lookUp(key, in: diskCache) {
            case .miss:
                break
            case .fresh(let data):
                // Unless a reload joined during the lookup: then both get a download.
                if reporter.mayAnswerFromDisk { return .success(hit(data, url: url, cache: diskCache, key: key)) }
            case .stale(let entry):
                // Not allowed to ask the server: stale data is better than none.
                guard policy.loadsFromNetwork else {
                    return .success(hit(entry.data, url: url, cache: diskCache, key: key))
                }
                stale = entry
            }
        }
        guard policy.loadsFromNetwork else { return .failure(.dataMissingInCache) }
        if Task.isCancelled { return .failure(.cancelled) }
        if let error = failureRecords?.admit(request) {
            // The URL is backing off after failures: a stale entry is better than the error.
            if let stale, let diskCache { return .success(hit(stale.data, url: url, cache: diskCache, key: key)) }
            return .failure(error)
        }
        reporter.report(.startedDownload)
        let keepPartial = policy.writesDiskCache ? diskCache.flatMap { partialBodyKeeper(key: key, in: $0) } : nil
        // A kept prefix is resumed with `Range`, never beside a revalidation.
        let resume = stale == nil && keepPartial != nil ? await takePartialDownload(key, from: diskCache) : nil
        let downloadStart = ContinuousClock.now
        var result = await download(
            request,
            reporter: reporter,
            headers: stale?.metadata?.conditionalHeaders ?? resume?.resumeHeaders ?? [:],
            servesStaleOnTransportFailure: stale != nil,
            progressOffset: Int64(resume?.data.count ?? 0),
            keepPartial: keepPartial,
            // A resumed body arrives without its first bytes: previews decode them in front of it.
            previews: makePreviewSession(for: request, prefix: resume?.data ?? Data())
        )
        if let resume {
            result = await finishResume(resume, after: result, request: request, reporter: reporter, keepPartial)
        }
        if let stale, let diskCache, let served = serve(stale, after: result, url: url, cache: diskCache, key: key) {
            return .success(served)
        }
        let downloaded = ImageTaskMetrics.Interval.since(downloadStart)
        return result.map { response in
            let ticket = (policy.writesDiskCache ? diskCache : nil).flatMap {
                networkTicket(for: response, cache: $0, key: key)
            }
            var loaded = LoadedData(response: response, diskCacheTicket: ticket)
            loaded.metrics.download = downloaded
            loaded.metrics.downloadedBytes = response.data.count
            loaded.metrics.resumedBytes = resume.map { min($0.data.count, response.data.count) } ?? 0
            return loaded
        }
    }

    // MARK: - Download

    /// Downloads the request's URL with its header fields. With conditional `headers`, `304 Not Modified` is a
    /// success with no body; without them it is an unacceptable status. `servesStaleOnTransportFailure`: a stale
    /// entry stands by, so failing to reach the server is not counted by the failure backoff. `progressOffset`: the
    /// bytes of a resumed prefix.
    private func download(
        _ request: ImageRequest,
        reporter: OperationReporter,
        headers: [String: String] = [:],
        servesStaleOnTransportFailure: Bool = false,
        progressOffset: Int64 = 0,
        keepPartial: (@Sendable (Data, HTTPResponseInfo) -> Void)? = nil,
        previews: PreviewSession? = nil
    ) async -> Result<DataLoadResponse, ImagePipelineError> {
        let url = request.url!  // checked by run(_:reporter:)
        let limit = settings.maximumResponseSize
        events?(.dataLoadStarted(url))
        var dataRequest = DataLoadRequest(
            url: url,
            maximumResponseSize: limit,
            timeout: settings.timeout,
            idleTimeout: settings.idleTimeout
        ) { completed, total in
            reporter.report(
                .progressed(completed: completed + progressOffset, total: total.map { $0 + progressOffset })
            )
        }
        dataRequest.headers = request.headers.merging(headers) { _, conditional in conditional }
        if let accept = settings.accept, request.acceptHeader == nil { dataRequest.headers["Accept"] = accept }
        dataRequest.partialBodyOnInterruption = keepPartial
        if let previews {
            dataRequest.onData = { body in bodyArrived(body, in: previews, reporter: reporter) }
        }
        // No preview once the download is over: the final image follows (or the failure).
        defer { previews?.gate.withLock { $0.close() } }
        let watch = settings.stalledDownloadInterval.map { interval in
            StallWatch(every: interval, progress: { reporter.completedBytes }, stalled: { reporter.report(.stalled) })
        }
        defer { watch?.cancel() }
        let result: Result<DataLoadResponse, ImagePipelineError>
        var failedResponse: HTTPResponseInfo?
        do {
            let response = try await send(dataRequest, for: request)
            if Task.isCancelled {
                result = .failure(.cancelled)
            } else if response.response?.statusCode == 206, headers["Range"] == nil {
                result = .failure(.statusCodeUnacceptable(206))  // a part of a body nobody asked for
            } else if response.data.isEmpty {
                result = .failure(.dataIsEmpty)
            } else if let limit, response.data.count > limit {
                result = .failure(.responseTooLarge(limit: limit))
            } else {
                result = .success(response)
            }
        } catch DataLoadingError.statusCodeUnacceptable(304, let info?) where !headers.isEmpty && !Task.isCancelled {
            result = .success(DataLoadResponse(data: Data(), response: info))
        } catch {
            result = .failure(Task.isCancelled ? .cancelled : ImagePipelineError(loading: error))
            if case DataLoadingError.statusCodeUnacceptable(_, let response) = error { failedResponse = response }
        }
        // Any answer from the server (a body, or a status code) tells that the network to its host is back.
        switch result {
        case .success, .failure(.statusCodeUnacceptable), .failure(.dataIsEmpty): failureRecords?.hostAnswered(url)
        case .failure: break
        }
        switch result {
        case .success(let response):
            events?(.dataLoadFinished(url, byteCount: response.data.count))
        case .failure(let error):
            if !error.isCancellation { events?(.dataLoadFailed(url, error)) }
            // A revalidation that cannot reach the server serves the stale entry: not a failure to back off from.
            if !(servesStaleOnTransportFailure && error.isServerUnreachable) {
                failureRecords?.recordDownloadFailure(of: request, error: error, response: failedResponse)
            }
        }
        return result
    }

    /// Sends a download through the request modifier, if any; after a `401`, once more with what the modifier
    /// answers when told so (it may refresh a token).
    private func send(_ dataRequest: DataLoadRequest, for request: ImageRequest) async throws -> DataLoadResponse {
        guard let modifier = settings.requestModifier else {
            return try await settings.dataLoader.loadData(for: dataRequest)
        }
        func modified(isRetryAfterUnauthorized: Bool) async throws -> DataLoadRequest {
            let outgoing = try await modifier(
                DownloadRequest(
                    url: dataRequest.url,
                    headers: dataRequest.headers,
                    userInfo: request.userInfo,
                    isRetryAfterUnauthorized: isRetryAfterUnauthorized
                )
            )
            var attempt = dataRequest
            attempt.url = outgoing.url
            attempt.headers = outgoing.headers
            return attempt
        }
        do {
            return try await settings.dataLoader.loadData(for: try await modified(isRetryAfterUnauthorized: false))
        } catch DataLoadingError.statusCodeUnacceptable(401, _) where !Task.isCancelled {
            return try await settings.dataLoader.loadData(for: try await modified(isRetryAfterUnauthorized: true))
        }
    }

    // MARK: - Disk cache and HTTP freshness

    /// A disk cache entry that must be revalidated (or downloaded again) before use.
    struct StaleEntry: Sendable {
        var data: Data
        /// `nil` when the entry has no readable metadata: it is then downloaded again, unconditionally.
        var metadata: HTTPCacheMetadata?
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

    private func hit(
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

    /// The stale entry when the revalidation says to use it: on `304` (its metadata refreshed at once) or when
    /// the server could not be reached. `nil` when the download's result stands.
    private func serve(
        _ entry: StaleEntry,
        after result: Result<DataLoadResponse, ImagePipelineError>,
        url: URL,
        cache: any DataCaching,
        key: String
    ) -> LoadedData? {
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
                let refreshed = metadata.refreshed(by: headers, now: settings.diskCachePolicy.now())
                cache.storeData(refreshed.encoded(), for: HTTPCacheMetadata.key(for: key))
            }
            return hit(entry.data, url: url, cache: cache, key: key, response: info)
        case .failure(let error):
            guard error.isServerUnreachable else { return nil }
            return hit(entry.data, url: url, cache: cache, key: key)
        }
    }

    /// The ticket that stores downloaded data once it decodes: with its metadata under HTTP semantics, none for a
    /// `no-store` response (which also removes what was stored before).
    private func networkTicket(for response: DataLoadResponse, cache: any DataCaching, key: String) -> DiskCacheTicket?
    {
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
        let metadata = HTTPCacheMetadata(headers: headers, now: policy.now())
        return DiskCacheTicket(
            origin: .network,
            cache: cache,
            key: key,
            data: response.data,
            sidecar: (HTTPCacheMetadata.key(for: key), metadata.encoded())
        )
    }

    // MARK: - Resuming

    /// The handler that keeps an interrupted download's first bytes in `cache`, when resuming is on and the response
    /// allows it (`Accept-Ranges: bytes` and a strong validator).
    private func partialBodyKeeper(
        key: String,
        in cache: any DataCaching
    ) -> (@Sendable (Data, HTTPResponseInfo) -> Void)? {
        guard let limit = settings.partialDownloadLimit else { return nil }
        let maximumLength = min(limit, settings.maximumResponseSize ?? Int.max)
        let honoursNoStore = settings.diskCachePolicy.kind == .httpSemantics
        return { data, response in
            if honoursNoStore, HTTPCacheHeaders(headers: response.headers).noStore { return }
            guard let partial = PartialDownload(data: data, response: response, maximumLength: maximumLength)
            else { return }
            cache.storeData(partial.encoded(), for: PartialDownload.key(for: key))
        }
    }

    /// Reads and removes the kept first bytes of `key`'s download: used once, resumed or not.
    private func takePartialDownload(_ key: String, from cache: (any DataCaching)?) async -> PartialDownload? {
        guard let cache else { return nil }
        let partialKey = PartialDownload.key(for: key)
        return await ioQueue.run {
            guard let stored = cache.cachedData(for: partialKey) else { return nil }
            cache.removeData(for: partialKey)
            return PartialDownload.decode(stored)
        }
    }

    /// Joins the answer to a resumed request to its prefix; starts over (one plain download) when it cannot be
    /// joined or the server refused the range (416).
    private func finishResume(
        _ partial: PartialDownload,
        after result: Result<DataLoadResponse, ImagePipelineError>,
        request: ImageRequest,
        reporter: OperationReporter,
        _ keepPartial: (@Sendable (Data, HTTPResponseInfo) -> Void)?
    ) async -> Result<DataLoadResponse, ImagePipelineError> {
        switch result {
        case .success(var response):
            switch partial.resume(with: response) {
            case .joined(let data):
                if let limit = settings.maximumResponseSize, data.count > limit {
                    return .failure(.responseTooLarge(limit: limit))
                }
                response.data = data
                return .success(response)
            case .replaced:
                return result
            case .startOver:
                if Task.isCancelled { return .failure(.cancelled) }
                return await download(request, reporter: reporter, keepPartial: keepPartial)
            }
        case .failure(.statusCodeUnacceptable(416, _)):
            if Task.isCancelled { return .failure(.cancelled) }
            return await download(request, reporter: reporter, keepPartial: keepPartial)
        case .failure:
            return result
        }
    }

    // MARK: - Progressive previews

    /// One download's previews. The thumbnail is that of the request that started the download; coalesced tasks
    /// with another thumbnail get that size too (their final images are their own).
    final class PreviewSession: Sendable {
        let context: ImageDecodingContext
        let gate: Locked<ProgressivePreviewGate>
        /// The kept first bytes of a resumed download, which its body arrives without.
        let prefix: Data

        init(context: ImageDecodingContext, gate: ProgressivePreviewGate, prefix: Data) {
            self.context = context
            self.gate = Locked(gate)
            self.prefix = prefix
        }
    }

    private func makePreviewSession(for request: ImageRequest, prefix: Data) -> PreviewSession? {
        guard let gate = settings.previewGate, gate.maximumPreviews > 0 else { return nil }
        return PreviewSession(
            context: ImageDecodingContext(thumbnail: request.thumbnail, maximumPixelCount: settings.maximumPixelCount),
            gate: gate,
            prefix: prefix
        )
    }

    /// The loader reported the body so far (on its own thread): maybe decode a preview, on the decode executor.
    private func bodyArrived(_ body: Data, in session: PreviewSession, reporter: OperationReporter) {
        guard session.gate.withLock({ $0.bodyArrived(at: .now) }) else { return }
        let body = session.prefix.isEmpty ? body : session.prefix + body
        guard body.count < 3 || ProgressiveJPEGPreviews.isJPEG(body.prefix(3)) else {
            // Not a JPEG: no previews, and no decode.
            _ = session.gate.withLock { $0.decodeFinished(scan: nil, givesPreviews: false) }
            return
        }
        executor.runDecode {
            let outcome = ProgressiveJPEGPreviews.preview(of: body, context: session.context)
            let delivers = session.gate.withLock { gate in
                switch outcome {
                case .preview(_, let scan): gate.decodeFinished(scan: scan, givesPreviews: true)
                case .needsMoreData: gate.decodeFinished(scan: nil, givesPreviews: true)
                case .unsupported: gate.decodeFinished(scan: nil, givesPreviews: false)
                }
            }
            guard delivers, case .preview(let image, _) = outcome else { return }
            let preview = PreparedImage(image: image, response: nil).carryingScale(session.context.thumbnail?.scale)
            reporter.report(.previewed(preview))
        }
    }
}
