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
    /// without decoding it or touching the memory cache (an ``ImagePrefetcher``'s `.diskCache` destination).
    /// Cancelling the calling Swift task cancels it. Data that fails ``ImageDecoders/validateStructure(_:decoders:)``
    /// fails the request with that error and is not stored.
    public func data(for request: ImageRequest) async throws(Error) -> DataResponse {
        if Task.isCancelled { throw .cancelled }
        if request.url == nil { throw .invalidURL(nil) }
        let request = identified(request)
        if let error = failureRecords?.check(request) { throw error }
        let id = Self.lastTaskID.add(1)
        let response: DataResponse
        do {
            response = try await ResumeOnce<DataResponse>.run { once in
                let task = DataTask(id: id, request: request, decode: runner.decodeWorker, once: once)
                if !runner.submit(task, dataOnly: true) { once.resume(with: .failure(Error.pipelineInvalidated)) }
            } onCancel: {
                self.runner.run { $0.cancel(task: TaskGraph.TaskID(id)) }
            }
        } catch {
            throw error as? Error ?? .cancelled
        }
        // Nothing more will be learnt about network data that passed: its URL is fine.
        if response.cacheType == nil { failureRecords?.forget(request) }
        return response
    }
}

/// The data-only task behind ``ImagePipeline/data(for:)``: it resumes its caller once.
final class DataTask: TaskReceiver {
    let id: Int
    let request: ImageRequest
    let hasEnded = false
    /// Judges the data: it must be a complete image before it is stored or returned.
    private let decode: DecodeWorker
    private let once: ResumeOnce<ImagePipeline.DataResponse>

    init(id: Int, request: ImageRequest, decode: DecodeWorker, once: ResumeOnce<ImagePipeline.DataResponse>) {
        self.id = id
        self.request = request
        self.decode = decode
        self.once = once
    }

    func receive(_ delivery: TaskGraph.Actions.Delivery) {
        switch delivery {
        case .progress, .preview:
            break
        case .success(.data(let loaded)):
            if case .failure(let error) = decode.validate(loaded) {
                once.resume(with: .failure(error))
                return
            }
            let response = ImagePipeline.DataResponse(
                data: loaded.response.data,
                cacheType: loaded.cacheType,
                httpResponse: loaded.response.response
            )
            once.resume(with: .success(response))
        case .success(.image):
            preconditionFailure("Internal inconsistency: a data task received an image")
        case .failure(let error):
            once.resume(with: .failure(error))
        }
    }
}
