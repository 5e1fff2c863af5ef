// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — TaskReceiver: what the pipeline delivers a task's progress and result to.

import Foundation

/// The receiving end of a task in the graph: an ``ImageTask``, or the data-only task behind
/// ``ImagePipeline/data(for:)``.
protocol TaskReceiver: AnyObject, Sendable {
    var id: Int { get }
    var request: ImageRequest { get }
    func didProgress(completed: Int64, total: Int64?)
    /// Delivers a preview (progressive decoding); only image tasks use it.
    func didPreview(_ image: TaskGraph.Output)
    /// Delivers the final result; `pipeline` judges data a data-only task receives.
    func didComplete(_ result: Result<TaskGraph.StageResult, ImagePipelineError>, in pipeline: ImagePipeline)
}

extension TaskReceiver {
    /// Receivers other than image tasks ignore previews.
    func didPreview(_ image: TaskGraph.Output) {}
}

extension ImageTask: TaskReceiver {
    func didPreview(_ image: TaskGraph.Output) {
        var response = ImageResponse(image: image.image, request: request, cacheType: nil, httpResponse: nil)
        response.isPreview = true
        didPreview(response)
    }

    func didComplete(_ result: Result<TaskGraph.StageResult, ImagePipelineError>, in pipeline: ImagePipeline) {
        switch result {
        case .success(.image(let output)):
            // The runner has stored the image in the memory cache, once for all tasks that share it.
            finish(
                .success(
                    ImageResponse(
                        image: output.image,
                        request: request,
                        cacheType: output.cacheType,
                        httpResponse: output.response,
                        animation: output.animation
                    )
                )
            )
        case .success(.data):
            preconditionFailure("Internal inconsistency: an image task received data")
        case .failure(let error):
            finish(.failure(error))
        }
    }
}

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
}

/// The data-only task behind ``ImagePipeline/data(for:)``: one continuation, resumed exactly once.
final class DataTask: TaskReceiver {
    let id: Int
    let request: ImageRequest
    private let state = Locked<
        (
            continuation: CheckedContinuation<Result<ImagePipeline.DataResponse, ImagePipelineError>, Never>?,
            result: Result<ImagePipeline.DataResponse, ImagePipelineError>?
        )
    >((nil, nil))

    init(id: Int, request: ImageRequest) {
        self.id = id
        self.request = request
    }

    func didProgress(completed: Int64, total: Int64?) {}

    func didComplete(_ result: Result<TaskGraph.StageResult, ImagePipelineError>, in pipeline: ImagePipeline) {
        switch result {
        case .success(.data(let loaded)):
            if case .failure(let error) = pipeline.acceptWithoutDecoding(loaded) {
                resolve(.failure(error))
                return
            }
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
    func resolve(_ result: Result<ImagePipeline.DataResponse, ImagePipelineError>) {
        let continuation = state.withLock {
            state -> CheckedContinuation<Result<ImagePipeline.DataResponse, ImagePipelineError>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: result)
    }

    /// Waits for the result.
    func wait() async -> Result<ImagePipeline.DataResponse, ImagePipelineError> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<ImagePipeline.DataResponse, ImagePipelineError>? in
                if let result = state.result { return result }
                state.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
