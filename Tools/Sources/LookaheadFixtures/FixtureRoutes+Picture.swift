// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureRoutes.Picture: what an image response sends.

import Hummingbird

extension FixtureRoutes {
    /// The body of an image response, before latency, bandwidth and fault injection apply.
    enum Picture: Sendable {
        /// A JPEG encoded on first use and then served from the ``EncodedImageCache``.
        case encoded(EncodedImageCache.Key)
        /// Bytes sent as they are (the original file of a photo).
        case bytes(ByteBuffer)
    }

    /// The bytes of `picture`, encoded off the concurrency pool on a cache miss.
    func jpeg(_ picture: Picture) async throws(FixtureServer.Error) -> ByteBuffer {
        switch picture {
        case .encoded(let key): return try await cache.jpeg(for: key)
        case .bytes(let bytes): return bytes
        }
    }
}
