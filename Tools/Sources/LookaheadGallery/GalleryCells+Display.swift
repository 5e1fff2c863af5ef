// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — what a cell or the detail view shows: the placeholder, the image, or a failure in a few words.

import Lookahead

extension GalleryCells {
    /// What a cell, or the detail view, shows.
    enum Display {
        case loading
        case image(TerminalArt?, graphics: String?, cache: ImageResponse.CacheType?)
        /// The short reason, and whether loading again can help (not for bytes that are not an image).
        case failed(String, retryable: Bool)

        /// A failed load, in a few words.
        static func failure(_ error: ImagePipeline.Error) -> Display {
            .failed(shortDescription(error), retryable: isRetryable(error))
        }

        /// Whether loading again can give another answer: not when the bytes are not an image, or too large an
        /// image, and not for a local file that did not decode (it will not change by itself).
        private static func isRetryable(_ error: ImagePipeline.Error) -> Bool {
            switch error {
            case .failureBackoff(let lastError, _): isRetryable(lastError)
            case .noDecoder, .imageTooLarge, .unsupportedScheme, .invalidURL: false
            default: true
            }
        }

        private static func shortDescription(_ error: ImagePipeline.Error) -> String {
            switch error {
            case .failureBackoff(let lastError, _): shortDescription(lastError)
            case .statusCodeUnacceptable(let code, _): "HTTP \(code)"
            case .decodingFailed: "corrupt image"
            case .dataIsEmpty: "empty response"
            case .responseTooLarge: "too large"
            case .imageTooLarge: "too many pixels"
            case .noDecoder: "not an image"
            case .dataLoadingFailed: "connection failed"
            default: "\(error)"
            }
        }
    }
}
