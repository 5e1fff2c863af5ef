// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Turns one decoded bitmap into another: resizing, cropping, rounding corners. Implementations must be thread
/// safe: they run on the pipeline's decode threads.
public protocol ImageProcessing: Sendable {
    /// Identifies the processor and its parameters. Part of the cache and coalescing keys, so two processors
    /// with the same identifier must produce the same output.
    var identifier: String { get }

    /// Processes a bitmap; throws to fail the request with ``ImagePipeline/Error/processingFailed(identifier:message:)``.
    func process(_ image: Bitmap) throws -> Bitmap
}
