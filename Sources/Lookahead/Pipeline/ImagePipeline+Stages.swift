// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — the work of each stage: load data (disk cache, then network), decode, process.

import Foundation

extension ImagePipeline {
    /// Loads a request's data: from the disk cache when allowed, else from the data loader. Enforces the size limit
    /// even if the loader does not. Local files skip the disk cache: they are on disk already.
    ///
    /// Downloaded data is not stored here: its ``DiskCacheTicket`` stores it once it decodes (see ``decode(_:for:)``)
    /// or, for data-only requests, once it passes the structural check.
    func load(_ request: ImageRequest, operation: Int) async -> Result<TaskGraph.LoadedData, Error> {
        guard let url = request.url else { return .failure(.invalidURL(nil)) }
        let policy = request.dataPolicy
        let key = request.urlString
        // Local files and `data:` URLs are not downloads: the disk cache would only copy them.
        let diskCache = url.isFileURL || url.scheme?.lowercased() == "data" ? nil : configuration.diskCache
        var stale: StaleDiskCacheEntry?
        if let diskCache, policy.readsDiskCache {
            switch await lookUpDiskCache(diskCache, key: key) {
            case .miss:
                break
            case .fresh(let data):
                return .success(diskCacheHit(data, url: url, cache: diskCache, key: key))
            case .stale(let entry):
                // Not allowed to ask the server: stale data is better than none.
                guard policy.loadsFromNetwork else {
                    return .success(diskCacheHit(entry.data, url: url, cache: diskCache, key: key))
                }
                stale = entry
            }
        }
        guard policy.loadsFromNetwork else { return .failure(.dataMissingInCache) }
        if Task.isCancelled { return .failure(.cancelled) }
        if let error = admitDownload(of: request) {
            // The URL is backing off after failures: a stale entry is better than the error.
            if let stale, let diskCache {
                return .success(diskCacheHit(stale.data, url: url, cache: diskCache, key: key))
            }
            return .failure(error)
        }
        operationStartedDownload(operation)
        // A cancelled download's first bytes, when kept: resumed with `Range` (never beside a revalidation).
        let partialLimit = policy.writesDiskCache ? configuration.partialDownloadLimit : nil
        let keepPartial = diskCache.flatMap { cache in
            partialLimit.map { keepPartialBody(in: cache, key: key, limit: $0) }
        }
        let resume = stale == nil && keepPartial != nil ? await takePartialDownload(diskCache, key: key) : nil
        var result = await download(
            url,
            operation: operation,
            headers: stale?.metadata?.conditionalHeaders ?? resume?.resumeHeaders ?? [:],
            servesStaleOnTransportFailure: stale != nil,
            progressOffset: Int64(resume?.data.count ?? 0),
            keepPartial: keepPartial,
            // A resumed body arrives without its first bytes: no previews of it.
            previews: resume == nil ? makePreviewSession(for: request, operation: operation) : nil
        )
        if let resume {
            result = await finishResume(resume, after: result, url: url, operation: operation, keepPartial)
        }
        if let stale, let diskCache, let served = serveStale(stale, after: result, url: url, cache: diskCache, key: key)
        {
            return .success(served)
        }
        return result.map { response in
            let ticket = (policy.writesDiskCache ? diskCache : nil).flatMap {
                networkTicket(for: response, cache: $0, key: key)
            }
            return TaskGraph.LoadedData(response: response, diskCacheTicket: ticket)
        }
    }

    /// Downloads `url`. With conditional `headers`, a `304 Not Modified` is a success with no body (and is not a
    /// failure for the failure backoff); without them it is an unacceptable status code.
    ///
    /// `servesStaleOnTransportFailure`: a stale entry stands by, so a failure to reach the server is not counted
    /// by the failure backoff. `progressOffset` bytes (a resumed prefix) are added to the progress reported;
    /// `keepPartial` receives the body received so far if the download is cancelled. A `206` to a request without
    /// `Range` fails.
    func download(
        _ url: URL,
        operation: Int,
        headers: [String: String] = [:],
        servesStaleOnTransportFailure: Bool = false,
        progressOffset: Int64 = 0,
        keepPartial: (@Sendable (Data, HTTPResponseInfo) -> Void)? = nil,
        previews: PreviewSession? = nil
    ) async -> Result<DataLoadResponse, Error> {
        let limit = configuration.maximumResponseSize
        configuration.eventHandler?(.dataLoadStarted(url))
        var dataRequest = DataLoadRequest(
            url: url,
            maximumResponseSize: limit,
            timeout: configuration.dataLoadTimeout,
            idleTimeout: configuration.dataLoadIdleTimeout
        ) { [weak self] completed, total in
            self?.operationProgressed(
                operation,
                completed: completed + progressOffset,
                total: total.map { $0 + progressOffset }
            )
        }
        dataRequest.headers = headers
        dataRequest.partialBodyOnCancellation = keepPartial
        if let previews {
            dataRequest.onData = { [weak self] body in self?.bodyArrived(body, in: previews) }
        }
        // No preview once the download is over: the final image follows (or the failure).
        defer { previews?.gate.withLock { $0.close() } }
        let watchdog = configuration.stalledDownloadInterval.map { watchStall(of: operation, every: $0) }
        defer { watchdog?.cancel() }
        let result: Result<DataLoadResponse, Error>
        var failedResponse: HTTPResponseInfo?
        do {
            let response = try await configuration.dataLoader.loadData(for: dataRequest)
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
            result = .failure(Task.isCancelled ? .cancelled : Error(loading: error))
            if case DataLoadingError.statusCodeUnacceptable(_, let response) = error { failedResponse = response }
        }
        switch result {
        case .success(let response):
            configuration.eventHandler?(.dataLoadFinished(url, byteCount: response.data.count))
        case .failure(let error):
            if !error.isCancellation { configuration.eventHandler?(.dataLoadFailed(url, error)) }
            // A revalidation that cannot reach the server serves the stale entry: not a failure to back off from.
            if !(servesStaleOnTransportFailure && error.meansTheServerWasNotReached) {
                downloadFailed(url, error: error, response: failedResponse)
            }
        }
        return result
    }

    /// Parks the download's slot once a whole interval passes without progress.
    private func watchStall(of operation: Int, every interval: Duration) -> Task<Void, Never> {
        Task { [weak self] in
            var seen: Int64 = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self, !Task.isCancelled else { return }
                let progress = self.operationProgress(operation)
                if progress == seen {
                    self.operationStalled(operation)
                    return
                }
                seen = progress
            }
        }
    }

    /// Decodes data with the first decoder that recognises it, and settles the data's place in the disk cache:
    /// stored if it came from the network, removed if it came from the disk and is not an image. Runs on the decode
    /// queue.
    func decode(_ loaded: TaskGraph.LoadedData, for request: ImageRequest) -> Result<TaskGraph.Output, Error> {
        let context = ImageDecodingContext(
            thumbnail: request.thumbnail,
            maximumPixelCount: configuration.maximumPixelCount,
            maximumFrameCount: configuration.maximumAnimationFrameCount,
            maximumAnimationPixelCount: configuration.maximumAnimationPixelCount
        )
        let start = ContinuousClock.now
        let result = decodeImageOrAnimation(loaded.response.data, for: request, context: context)
        settleDiskCacheEntry(loaded, for: request, after: result.map { _ in () })
        if loaded.cacheType == nil {
            // Network data: an image clears the URL's failures; garbage counts as one (see `FailureBackoff`).
            switch result {
            case .success: decodedNetworkData(of: request, error: nil)
            case .failure(let error): decodedNetworkData(of: request, error: error)
            }
        }
        return result.map { decoded in
            configuration.eventHandler?(
                .imageDecoded(
                    request.decodeKey,
                    width: decoded.image.pixelWidth,
                    height: decoded.image.pixelHeight,
                    duration: .now - start
                )
            )
            return TaskGraph.Output(
                image: decoded.image,
                response: loaded.response.response,
                cacheType: loaded.cacheType,
                animation: decoded.animation
            )
        }
    }

    /// Every frame when the request asks for them and the data is an animation; else the image.
    private func decodeImageOrAnimation(
        _ data: Data,
        for request: ImageRequest,
        context: ImageDecodingContext
    ) -> Result<(image: PlatformImage, animation: AnimatedImage?), Error> {
        if request.isAnimated {
            switch ImageDecoders.decodeAnimation(data, with: configuration.decoders, context: context) {
            case .success(let decoded?): return .success((decoded.animation.poster, decoded.animation))
            case .success(nil): break
            case .failure(let error): return .failure(error)
            }
        }
        return ImageDecoders.decode(data, with: configuration.decoders, context: context).map { ($0.image, nil) }
    }

    /// Applies the request's last processor: the input is the result of the processors before it (see
    /// ``TaskGraph``). Runs on the decode queue.
    func process(_ input: TaskGraph.Output, for request: ImageRequest) -> Result<TaskGraph.Output, Error> {
        guard let processor = request.processors.last else { return .success(input) }
        // Processors work on RGBA pixels: free on Linux, one conversion each way on Apple platforms.
        func apply(_ image: PlatformImage) throws(Error) -> PlatformImage {
            guard let bitmap = image.makeBitmap() else {
                throw .processingFailed(identifier: processor.identifier, message: "the image has no readable pixels")
            }
            do {
                return PlatformImage.make(from: try processor.process(bitmap))
            } catch {
                throw .processingFailed(identifier: processor.identifier, message: "\(error)")
            }
        }
        var output = input
        do throws(Error) {
            // An animation is processed frame by frame; its first frame is the image.
            if let animation = input.animation {
                let processed = try animation.mapImages(apply)
                output.animation = processed
                output.image = processed.poster
            } else {
                output.image = try apply(input.image)
            }
        } catch {
            return .failure(error)
        }
        return .success(output)
    }
}
