// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

extension ImagePipeline {
    /// Why a request failed. Every case carries what a log line needs.
    public enum Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The data loader failed: connection refused or reset, timeout, unsupported scheme.
        case dataLoadingFailed(any Swift.Error)
        /// The server answered with a status outside 200–299; `response` is that answer (URL, headers) if kept. Also
        /// a `504` with no fields, which the HTTP cache generates when a stale entry it may not serve without the
        /// server's say-so (`must-revalidate`, `no-cache`) cannot be revalidated: the server cannot be reached.
        case statusCodeUnacceptable(Int, response: HTTPResponseInfo? = nil)
        /// The response had no body.
        case dataIsEmpty
        /// The body was, or was declared to be, larger than the configured limit in bytes.
        case responseTooLarge(limit: Int)
        /// No registered decoder recognises the data; `header` holds its first bytes in hex.
        case noDecoder(header: String)
        /// A decoder recognised the data but failed: truncated or corrupt data, unsupported variant.
        case decodingFailed(codec: String, message: String)
        /// The image's dimensions, read from its header, exceed the pixel-count limit; nothing was allocated.
        case imageTooLarge(width: Int, height: Int, limit: Int)
        /// An animation has more frames, or more pixels across its frames, than allowed; no frame was decoded.
        case animationTooLarge(frameCount: Int, width: Int, height: Int)
        /// A processor failed.
        case processingFailed(identifier: String, message: String)
        /// The request was cancelled.
        case cancelled
        /// The request has no URL, or one that cannot be loaded.
        case invalidURL(URL?)
        /// The URL's scheme is not allowed: anything but `http`, `https` and `data` by default (`file` needs
        /// ``DataLoaderOptions/allowsLocalFiles``). Also when a redirect leads to such a scheme.
        case unsupportedScheme(String)
        /// The pipeline was invalidated before or while the request ran.
        case pipelineInvalidated
        /// The request asked for cached data only and the caches had none.
        case dataMissingInCache
        /// The URL failed recently (`lastError`) and waits before it is loaded again: an automatic attempt is allowed
        /// after `retryIn`, or, when `nil`, only an explicit one (``ImageRequest/Options/skipFailureBackoff``).
        indirect case failureBackoff(lastError: ImagePipeline.Error, retryIn: Duration?)

        public var description: String {
            switch self {
            case .dataLoadingFailed(let error): "Data loading failed: \(error)"
            case .statusCodeUnacceptable(let code, _): "Response status code \(code) is not acceptable"
            case .dataIsEmpty: "Response contained no data"
            case .responseTooLarge(let limit): "Response is larger than the limit of \(limit) bytes"
            case .noDecoder(let header):
                header.isEmpty
                    ? "No decoder recognises empty data" : "No decoder recognises data starting with \(header)"
            case .decodingFailed(let codec, let message): "\(codec) decoding failed: \(message)"
            case .imageTooLarge(let width, let height, let limit):
                "Image of \(width)×\(height) pixels exceeds the limit of \(limit) pixels"
            case .animationTooLarge(let frameCount, let width, let height):
                "Animation of \(frameCount) frames of \(width)×\(height) pixels exceeds the limits for animations"
            case .processingFailed(let identifier, let message): "Processor \(identifier) failed: \(message)"
            case .cancelled: "Request was cancelled"
            case .invalidURL(let url): "Invalid URL: \(url?.absoluteString ?? "nil")"
            case .unsupportedScheme(let scheme): "The URL scheme \"\(scheme)\" is not allowed"
            case .pipelineInvalidated: "Pipeline was invalidated"
            case .dataMissingInCache: "Data is not in the cache and loading was not allowed"
            case .failureBackoff(let lastError, let retryIn?):
                "Not loaded again for \(String(format: "%.1f", retryIn.secondsValue)) s after: \(lastError)"
            case .failureBackoff(let lastError, nil):
                "Not loaded again until an explicit retry: \(lastError)"
            }
        }
    }
}

extension ImagePipeline.Error {
    /// Maps what a data loader threw to a pipeline error.
    package init(loading error: any Swift.Error) {
        switch error {
        case let error as ImagePipeline.Error:
            self = error
        case is CancellationError:
            self = .cancelled
        case let error as URLError where error.code == .cancelled:
            self = .cancelled
        case DataLoadingError.statusCodeUnacceptable(let code, let response):
            self = .statusCodeUnacceptable(code, response: response)
        case DataLoadingError.responseTooLarge(let limit):
            self = .responseTooLarge(limit: limit)
        case DataLoadingError.unsupportedURL(let url):
            self = .invalidURL(url)
        case DataLoadingError.unsupportedScheme(let scheme):
            self = .unsupportedScheme(scheme)
        default:
            self = .dataLoadingFailed(error)
        }
    }

    /// Maps a decoder's error to a pipeline error.
    package init(decoding error: ImageDecodingError) {
        switch error.reason {
        case .tooLarge(let width, let height, let limit):
            self = .imageTooLarge(width: width, height: height, limit: limit)
        case .animationTooLarge(let frameCount, let width, let height):
            self = .animationTooLarge(frameCount: frameCount, width: width, height: height)
        case .invalidData:
            self = .decodingFailed(codec: error.codec, message: error.message)
        }
    }

    /// `true` for `.cancelled`.
    public var isCancellation: Bool {
        if case .cancelled = self { true } else { false }
    }

    /// The transfer failed before the server answered in full: refused, reset, timed out, truncated (not a status).
    package var isServerUnreachable: Bool {
        guard case .dataLoadingFailed(let error as DataLoadingError) = self else { return false }
        return error.isInterruption
    }

    /// Decoding showed the data itself is bad: no decoder recognises it, or the decoder failed on it.
    package var isInvalidImageData: Bool {
        switch self {
        case .noDecoder, .decodingFailed: true
        default: false
        }
    }
}

extension ImagePipeline.Error {
    /// What went wrong, as an app decides what to show: "offline", "broken image", "the server failed"…
    public enum Reason: Sendable, Equatable {
        /// The request was cancelled.
        case cancelled
        /// The server could not be reached: offline, no such host, refused, reset, a TLS failure (the kind), or a
        /// time-out or a body cut short (no kind).
        case unreachable(TransportFailure.Kind?)
        /// The server answered with an error status.
        case serverError(statusCode: Int)
        /// The bytes are not an image this pipeline can show (broken, empty, over a limit), or a processor failed.
        case invalidImage
        /// The request cannot be loaded here: no URL, a scheme, redirect or header the loader refuses, nothing in
        /// the cache for a cache-only request, or an invalidated pipeline.
        case notLoadable
    }

    /// What went wrong, as an app decides what to show; a refusal during a backoff has the reason of the failure.
    public var reason: Reason {
        switch self {
        case .cancelled: .cancelled
        case .statusCodeUnacceptable(let code, _): .serverError(statusCode: code)
        case .dataIsEmpty, .responseTooLarge, .noDecoder, .decodingFailed, .imageTooLarge, .animationTooLarge,
            .processingFailed:
            .invalidImage
        case .invalidURL, .unsupportedScheme, .pipelineInvalidated, .dataMissingInCache: .notLoadable
        case .failureBackoff(let lastError, _): lastError.reason
        case .dataLoadingFailed(let error): Self.reason(loading: error)
        }
    }

    /// The server's answer (status, URL, headers) to a failed download, or to the one a backoff refusal follows.
    public var httpResponse: HTTPResponseInfo? {
        switch self {
        case .statusCodeUnacceptable(_, let response): response
        case .failureBackoff(let lastError, _): lastError.httpResponse
        default: nil
        }
    }

    /// How long the server asked to wait (`Retry-After`, seconds or a date), when it answered 429 or 503 and said.
    public var retryAfter: Duration? {
        guard let response = httpResponse, response.statusCode == 429 || response.statusCode == 503 else { return nil }
        return RetryAfter.delay(in: response.headers, now: Date())
    }

    private static func reason(loading error: any Error) -> Reason {
        guard let error = error as? DataLoadingError else { return .notLoadable }
        switch error {
        case .transportFailed(let failure):
            return failure.kind == .cancelledBySystem ? .cancelled : .unreachable(failure.kind)
        case .timedOut, .truncated: return .unreachable(nil)
        case .statusCodeUnacceptable(let code, _): return .serverError(statusCode: code)
        case .responseTooLarge: return .invalidImage
        case .unsupportedURL, .unsupportedScheme, .tooManyRedirects, .redirectLoop, .insecureRedirect, .headersTooLarge,
            .fileUnreadable, .invalidHeaderField:
            return .notLoadable
        }
    }
}
