// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

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
