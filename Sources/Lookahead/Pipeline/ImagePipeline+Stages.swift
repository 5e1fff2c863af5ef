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
        if let diskCache, policy.readsDiskCache {
            if let data = await readDiskCache(diskCache, key: key) {
                configuration.eventHandler?(.diskCacheHit(url, byteCount: data.count))
                let ticket = DiskCacheTicket(origin: .disk, cache: diskCache, key: key, data: data)
                return .success(
                    TaskGraph.LoadedData(
                        response: DataLoadResponse(data: data),
                        cacheType: .disk,
                        diskCacheTicket: ticket
                    )
                )
            }
        }
        guard policy.loadsFromNetwork else { return .failure(.dataMissingInCache) }
        if Task.isCancelled { return .failure(.cancelled) }
        if let error = admitDownload(of: request) { return .failure(error) }
        return await download(url, operation: operation, previews: makePreviewSession(for: request, operation: operation)).map { response in
            let ticket = (policy.writesDiskCache ? diskCache : nil).map {
                DiskCacheTicket(origin: .network, cache: $0, key: key, data: response.data)
            }
            return TaskGraph.LoadedData(response: response, diskCacheTicket: ticket)
        }
    }

    /// Reads the disk cache on the I/O queue: never on the caller's thread or the cooperative pool.
    private func readDiskCache(_ cache: any DataCaching, key: String) async -> Data? {
        await withCheckedContinuation { continuation in
            ioQueue.async { continuation.resume(returning: cache.cachedData(for: key)) }
        }
    }

    private func download(_ url: URL, operation: Int, previews: PreviewSession?) async -> Result<DataLoadResponse, Error> {
        let limit = configuration.maximumResponseSize
        configuration.eventHandler?(.dataLoadStarted(url))
        var dataRequest = DataLoadRequest(
            url: url,
            maximumResponseSize: limit,
            timeout: configuration.dataLoadTimeout,
            idleTimeout: configuration.dataLoadIdleTimeout
        ) { [weak self] completed, total in
            self?.operationProgressed(operation, completed: completed, total: total)
        }
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
            } else if response.data.isEmpty {
                result = .failure(.dataIsEmpty)
            } else if let limit, response.data.count > limit {
                result = .failure(.responseTooLarge(limit: limit))
            } else {
                result = .success(response)
            }
        } catch {
            result = .failure(Task.isCancelled ? .cancelled : Error(loading: error))
            if case DataLoadingError.statusCodeUnacceptable(_, let response) = error { failedResponse = response }
        }
        switch result {
        case .success(let response):
            configuration.eventHandler?(.dataLoadFinished(url, byteCount: response.data.count))
        case .failure(let error):
            if !error.isCancellation { configuration.eventHandler?(.dataLoadFailed(url, error)) }
            downloadFailed(url, error: error, response: failedResponse)
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
            maximumPixelCount: configuration.maximumPixelCount
        )
        let start = ContinuousClock.now
        let result = ImageDecoders.decode(loaded.response.data, with: configuration.decoders, context: context)
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
                cacheType: loaded.cacheType
            )
        }
    }

    /// Applies the request's processors in order. Runs on the decode queue.
    func process(_ input: TaskGraph.Output, for request: ImageRequest) -> Result<TaskGraph.Output, Error> {
        guard let first = request.processors.first else { return .success(input) }
        // Processors work on RGBA pixels: free on Linux, one conversion each way on Apple platforms.
        guard var bitmap = input.image.makeBitmap() else {
            return .failure(
                .processingFailed(identifier: first.identifier, message: "the image has no readable pixels")
            )
        }
        for processor in request.processors {
            do {
                bitmap = try processor.process(bitmap)
            } catch {
                return .failure(.processingFailed(identifier: processor.identifier, message: "\(error)"))
            }
        }
        var output = input
        output.image = PlatformImage.make(from: bitmap)
        return .success(output)
    }
}
