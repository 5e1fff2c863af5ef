// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Processors for decoded images: resizing, cropping to a circle, rounding corners, a Gaussian blur, a closure, and
/// chains of them.
///
/// ```swift
/// let request = ImageRequest(url: url, processors: [
///     ImageProcessors.Resize(width: 160, height: 160, contentMode: .aspectFill, crop: true),
///     ImageProcessors.RoundedCorners(radius: 16),
/// ])
/// ```
/// Every processor's ``ImageProcessing/identifier`` names its parameters, so identical processing of identical
/// input runs once and is cached once.
public enum ImageProcessors {
    /// Several processors applied in order, as one. Nested compositions are flattened, so a composition of
    /// compositions has the identifier (and the cache key) of the flat one.
    public struct Composition: ImageProcessing {
        /// The processors, in order, with nested compositions flattened.
        public let processors: [any ImageProcessing]

        /// Creates a composition.
        public init(_ processors: [any ImageProcessing]) {
            self.processors = processors.flatMap { ($0 as? Composition)?.processors ?? [$0] }
        }

        public var identifier: String {
            "composition(" + processors.map(\.identifier).joined(separator: "|") + ")"
        }

        public func process(_ image: Bitmap) throws -> Bitmap {
            try processors.reduce(image) { try $1.process($0) }
        }
    }
}
