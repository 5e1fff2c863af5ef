// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The download itself: the request sent through the app's modifier, its answer judged, the failure backoff told.
extension DataLoadWorker {
    /// Downloads the request's URL. With conditional `headers`, `304 Not Modified` is a success with no body.
    /// `servesStaleOnTransportFailure`: a stale entry stands by, so failing to reach the server is not a failure to
    /// back off from. `progressOffset`: the bytes of a resumed prefix.
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
            maximumResponseSize: configuration.maximumResponseSize,
            timeout: configuration.dataLoadTimeout,
            idleTimeout: configuration.dataLoadIdleTimeout
        ) { completed, total in
            reporter.report(
                .progressed(completed: completed + progressOffset, total: total.map { $0 + progressOffset })
            )
        }
        dataRequest.headers = requestHeaders(for: request).merging(headers) { _, conditional in conditional }
        dataRequest.partialBodyOnInterruption = keepPartial
        dataRequest.priority = request.priority
        if let previews {
            dataRequest.onData = { body in bodyArrived(body, in: previews, reporter: reporter) }
        }
        // No preview once the download is over: the final image follows (or the failure).
        defer { previews?.gate.withLock { $0.close() } }
        let watch = configuration.stalledDownloadInterval.map { interval in
            StallWatch(every: interval, progress: { reporter.completedBytes }, stalled: { reporter.report(.stalled) })
        }
        defer { watch?.cancel() }
        let result = await answer(to: dataRequest, for: request, isConditional: !headers.isEmpty)
        note(result, of: request, servesStale: servesStaleOnTransportFailure)
        return result
    }

    /// The header fields of a download before the request modifier sees it: the request's own, and the pipeline's
    /// `Accept` unless it has one. Stored responses that vary are matched against them.
    func requestHeaders(for request: ImageRequest) -> [String: String] {
        guard let accept = accept, request.acceptHeader == nil else { return request.headers }
        var headers = request.headers
        headers["Accept"] = accept
        return headers
    }

    /// Sends the download and judges its answer. With `isConditional`, `304 Not Modified` is a success with no body.
    func answer(
        to dataRequest: DataLoadRequest,
        for request: ImageRequest,
        isConditional: Bool
    ) async -> Result<DataLoadResponse, ImagePipeline.Error> {
        do {
            let response = try await send(dataRequest, for: request)
            if Task.isCancelled { return .failure(.cancelled) }
            if response.response?.statusCode == 206, dataRequest.headers["Range"] == nil {
                return .failure(.statusCodeUnacceptable(206))  // a part of a body nobody asked for
            }
            if response.data.isEmpty { return .failure(.dataIsEmpty) }
            if let limit = configuration.maximumResponseSize, response.data.count > limit {
                return .failure(.responseTooLarge(limit: limit))
            }
            return .success(response)
        } catch DataLoadingError.statusCodeUnacceptable(304, let info?) where isConditional && !Task.isCancelled {
            return .success(DataLoadResponse(data: Data(), response: info))
        } catch {
            return .failure(Task.isCancelled ? .cancelled : ImagePipeline.Error(loading: error))
        }
    }

    /// Tells the events and the failure backoff how a download ended; any answer from the server (a body, or a
    /// status code) tells that the network to its host is back.
    func note(_ result: Result<DataLoadResponse, ImagePipeline.Error>, of request: ImageRequest, servesStale: Bool) {
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
                failureRecords?.recordDownloadFailure(of: request, error: error)
            }
        }
    }

    /// Sends a download through the request modifier, if any; after a `401`, once more (the modifier told so) once
    /// the app's credentials are newer than the first attempt's (see ``CredentialRefresh``).
    func send(_ dataRequest: DataLoadRequest, for request: ImageRequest) async throws -> DataLoadResponse {
        guard let modifier = configuration.requestModifier else {
            return try await configuration.dataLoader.loadData(for: dataRequest)
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
        // Noted before the modifier reads the credentials: they are at least this new.
        let generation = credentials.generation
        do {
            return try await configuration.dataLoader.loadData(for: try await modified(isRetryAfterUnauthorized: false))
        } catch DataLoadingError.statusCodeUnacceptable(401, _) where !Task.isCancelled {
            try await credentials.refreshAfterUnauthorized(sentAt: generation)
            try Task.checkCancellation()
            return try await configuration.dataLoader.loadData(for: try await modified(isRetryAfterUnauthorized: true))
        }
    }
}

/// Watches one download's progress and reports a stall once a whole interval passes without a new byte. Checks run
/// on a dispatch queue of their own: a sleeping task on a busy cooperative pool may wake seconds late, and a stall
/// noticed late keeps a trickling server in a slot an image on screen waits for.
final class StallWatch: Sendable {
    /// Runs a check after a delay.
    typealias Scheduler = @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

    private static let queue = DispatchQueue(label: "Lookahead.StallWatch", qos: .userInitiated)

    static let dispatch: Scheduler = { delay, check in
        let nanoseconds = max(1, Int(delay.secondsValue * 1_000_000_000))
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: check)
    }

    private let interval: Duration
    private let schedule: Scheduler
    private let progress: @Sendable () -> Int64
    private let stalled: @Sendable () -> Void
    /// The progress at the last check, or `nil` once the watch has stopped.
    private let seen = Locked<Int64?>(0)

    /// Starts watching: `progress` reads the bytes so far; `stalled` is called at most once.
    init(
        every interval: Duration,
        schedule: @escaping Scheduler = StallWatch.dispatch,
        progress: @escaping @Sendable () -> Int64,
        stalled: @escaping @Sendable () -> Void
    ) {
        self.interval = interval
        self.schedule = schedule
        self.progress = progress
        self.stalled = stalled
        scheduleCheck()
    }

    /// Stops watching; a check already due does nothing.
    func cancel() {
        seen.withLock { $0 = nil }
    }

    private func scheduleCheck() {
        schedule(interval) { [self] in check() }
    }

    private func check() {
        let now = progress()
        let isStalled = seen.withLock { seen -> Bool? in
            guard let last = seen else { return nil }  // stopped
            seen = now == last ? nil : now
            return now == last
        }
        if isStalled == true { stalled() } else if isStalled == false { scheduleCheck() }
    }
}
