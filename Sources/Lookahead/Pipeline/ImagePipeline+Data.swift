// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

extension ImagePipeline {
    /// Original image data and where it came from.
    public struct DataResponse: Sendable {
        /// The bytes, never decoded.
        public var data: Data
        /// `.disk` when read from the disk cache, `nil` when loaded from the original source.
        public var cacheType: ImageResponse.CacheType?
        /// The HTTP response, when the data came over HTTP.
        public var httpResponse: HTTPResponseInfo?
    }

    /// Loads a request's original data — disk cache first, then the data loader, stored in the disk cache —
    /// without decoding it or touching the memory cache. What an ``ImagePrefetcher`` with the `.diskCache`
    /// destination uses. Cancelling the calling Swift task cancels it.
    ///
    /// Loaded data must pass ``ImageDecoders/validateStructure(_:decoders:)`` (a decoder recognises it and it is
    /// complete) before it is stored or returned; otherwise the request fails with that error and nothing is stored.
    public func data(for request: ImageRequest) async throws(Error) -> DataResponse {
        if Task.isCancelled { throw .cancelled }
        if request.url == nil { throw .invalidURL(nil) }
        let request = identified(request)
        if let error = failureRecords?.check(request) { throw error }
        let task = DataTask(id: Self.makeTaskID(), request: request, decode: runner.decodeWorker)
        guard runner.submit(task, dataOnly: true) else { throw .pipelineInvalidated }
        let result = await withTaskCancellationHandler {
            await task.wait()
        } onCancel: {
            task.resolve(.failure(.cancelled))
            self.runner.run { $0.cancel(task: TaskGraph.TaskID(task.id)) }
        }
        // Nothing more will be learnt about network data that passed: its URL is fine.
        if case .success(let response) = result, response.cacheType == nil {
            failureRecords?.forget(request)
        }
        return try result.get()
    }
}

/// The data-only task behind ``ImagePipeline/data(for:)``: one continuation, resumed exactly once.
final class DataTask: TaskReceiver {
    let id: Int
    let request: ImageRequest
    /// Judges the data: it must be a complete image before it is stored or returned.
    private let decode: DecodeWorker
    private let state = Locked<
        (
            continuation: CheckedContinuation<Result<ImagePipeline.DataResponse, ImagePipeline.Error>, Never>?,
            result: Result<ImagePipeline.DataResponse, ImagePipeline.Error>?
        )
    >((nil, nil))

    init(id: Int, request: ImageRequest, decode: DecodeWorker) {
        self.id = id
        self.request = request
        self.decode = decode
    }

    func didProgress(completed: Int64, total: Int64?) {}

    func didComplete(_ result: Result<TaskGraph.StageResult, ImagePipeline.Error>) {
        switch result {
        case .success(.data(let loaded)):
            if case .failure(let error) = decode.validate(loaded) { return resolve(.failure(error)) }
            resolve(
                .success(
                    ImagePipeline.DataResponse(
                        data: loaded.response.data,
                        cacheType: loaded.cacheType,
                        httpResponse: loaded.response.response
                    )
                )
            )
        case .success(.image):
            preconditionFailure("Internal inconsistency: a data task received an image")
        case .failure(let error):
            resolve(.failure(error))
        }
    }

    /// Sets the result once; later results are dropped.
    func resolve(_ result: Result<ImagePipeline.DataResponse, ImagePipeline.Error>) {
        let continuation = state.withLock {
            state -> CheckedContinuation<Result<ImagePipeline.DataResponse, ImagePipeline.Error>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: result)
    }

    /// Waits for the result.
    func wait() async -> Result<ImagePipeline.DataResponse, ImagePipeline.Error> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<ImagePipeline.DataResponse, ImagePipeline.Error>? in
                if let result = state.result { return result }
                state.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
