// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The download itself: the request sent through the app's modifier, its answer judged, the failure backoff told.
extension DataLoadWorker {
    // MARK: - Download

    /// Downloads the request's URL with its header fields. With conditional `headers`, `304 Not Modified` is a
    /// success with no body; without them it is an unacceptable status. `servesStaleOnTransportFailure`: a stale
    /// entry stands by, so failing to reach the server is not counted by the failure backoff. `progressOffset`: the
    /// bytes of a resumed prefix.
    func download(
        _ request: ImageRequest,
        reporter: OperationReporter,
        headers: [String: String] = [:],
        servesStaleOnTransportFailure: Bool = false,
        progressOffset: Int64 = 0,
        keepPartial: (@Sendable (Data, HTTPResponseInfo) -> Void)? = nil,
        previews: PreviewSession? = nil
    ) async -> Result<DataLoadResponse, ImagePipeline.Error> {
        guard let url = request.url else { return .failure(.invalidURL(nil)) }
        events?(.dataLoadStarted(url))
        var dataRequest = DataLoadRequest(
            url: url,
            maximumResponseSize: settings.maximumResponseSize,
            timeout: settings.timeout,
            idleTimeout: settings.idleTimeout
        ) { completed, total in
            reporter.report(
                .progressed(completed: completed + progressOffset, total: total.map { $0 + progressOffset })
            )
        }
        dataRequest.headers = requestHeaders(for: request).merging(headers) { _, conditional in conditional }
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
        let (result, failedResponse) = await answer(to: dataRequest, for: request, isConditional: !headers.isEmpty)
        note(result, of: request, failedResponse: failedResponse, servesStale: servesStaleOnTransportFailure)
        return result
    }

    /// The header fields a download of `request` sends before the request modifier sees it: the request's own, and
    /// the pipeline's `Accept` unless it has one. What stored responses that vary are matched against.
    func requestHeaders(for request: ImageRequest) -> [String: String] {
        guard let accept = settings.accept, request.acceptHeader == nil else { return request.headers }
        var headers = request.headers
        headers["Accept"] = accept
        return headers
    }

    /// Sends the download and judges its answer. With `isConditional`, `304 Not Modified` is a success with no body.
    /// Returns the failed response too, for its `Retry-After`.
    func answer(
        to dataRequest: DataLoadRequest,
        for request: ImageRequest,
        isConditional: Bool
    ) async -> (Result<DataLoadResponse, ImagePipeline.Error>, HTTPResponseInfo?) {
        do {
            let response = try await send(dataRequest, for: request)
            if Task.isCancelled { return (.failure(.cancelled), nil) }
            if response.response?.statusCode == 206, dataRequest.headers["Range"] == nil {
                return (.failure(.statusCodeUnacceptable(206)), nil)  // a part of a body nobody asked for
            }
            if response.data.isEmpty { return (.failure(.dataIsEmpty), nil) }
            if let limit = settings.maximumResponseSize, response.data.count > limit {
                return (.failure(.responseTooLarge(limit: limit)), nil)
            }
            return (.success(response), nil)
        } catch DataLoadingError.statusCodeUnacceptable(304, let info?) where isConditional && !Task.isCancelled {
            return (.success(DataLoadResponse(data: Data(), response: info)), nil)
        } catch {
            var failedResponse: HTTPResponseInfo?
            if case DataLoadingError.statusCodeUnacceptable(_, let response) = error { failedResponse = response }
            return (.failure(Task.isCancelled ? .cancelled : ImagePipeline.Error(loading: error)), failedResponse)
        }
    }

    /// Tells the events and the failure backoff how a download ended. Any answer from the server (a body, or a
    /// status code) tells that the network to its host is back. With `servesStale`, failing to reach the server
    /// serves the stale entry: not a failure to back off from.
    func note(
        _ result: Result<DataLoadResponse, ImagePipeline.Error>,
        of request: ImageRequest,
        failedResponse: HTTPResponseInfo?,
        servesStale: Bool
    ) {
        guard let url = request.url else { return }
        switch result {
        case .success, .failure(.statusCodeUnacceptable), .failure(.dataIsEmpty): failureRecords?.hostAnswered(url)
        case .failure: break
        }
        switch result {
        case .success(let response):
            events?(.dataLoadFinished(url, byteCount: response.data.count))
        case .failure(let error):
            if !error.isCancellation { events?(.dataLoadFailed(url, error)) }
            if !(servesStale && error.isServerUnreachable) {
                failureRecords?.recordDownloadFailure(of: request, error: error, response: failedResponse)
            }
        }
    }

    /// Sends a download through the request modifier, if any; after a `401`, once more with what the modifier
    /// answers when told so (it may refresh a token).
    func send(_ dataRequest: DataLoadRequest, for request: ImageRequest) async throws -> DataLoadResponse {
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
}
