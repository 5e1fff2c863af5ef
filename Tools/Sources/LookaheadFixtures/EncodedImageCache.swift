// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — EncodedImageCache: the fixture server's in-memory cache of encoded JPEGs.

import Hummingbird
import Synchronization

/// Encoded JPEGs by (source, width, height, quality), so repeated requests return the very
/// same bytes without re-encoding. A source is a generated picture or one of the server's
/// photos, resized.
///
/// Painting, encoding and decoding a photo run on a thread of their own, off Swift's concurrency pool. Not on a
/// Dispatch queue either: it runs about as many blocks at once as there are cores, and the rest wait in line, so a
/// few large pictures (seconds each in a debug build) would hold up every small one asked for after them, long past
/// a client's idle timeout. Two simultaneous misses for the same key both
/// encode; the results are byte-identical, so whichever is stored first wins. When the stored
/// bytes pass `byteLimit` the cache is emptied.
final class EncodedImageCache: Sendable {
    /// Identifies one encoded picture.
    struct Key: Hashable, Sendable {
        /// Where the pixels come from.
        enum Source: Hashable, Sendable {
            /// Generated picture `number` (``FixtureImages``).
            case generated(number: Int)
            /// Photo `index` of the server's ``PhotoLibrary``, resized.
            case photo(index: Int)
        }

        /// How the picture is encoded.
        enum Format: Hashable, Sendable {
            case jpeg
            /// Lossy WebP at the same quality number.
            case webp

            var contentType: String {
                switch self {
                case .jpeg: "image/jpeg"
                case .webp: "image/webp"
                }
            }
        }

        var source: Source
        var width: Int
        var height: Int
        var quality: Int
        var format: Format = .jpeg
    }

    private struct State {
        var entries: [Key: ByteBuffer] = [:]
        var storedBytes = 0
    }

    private let state = Mutex(State())
    private let byteLimit: Int
    private let photos: PhotoLibrary?

    init(photos: PhotoLibrary? = nil, byteLimit: Int = 64 * 1024 * 1024) {
        self.photos = photos
        self.byteLimit = byteLimit
    }

    /// The bytes for `key` (a JPEG, or a WebP), encoded on first use.
    func jpeg(for key: Key) async throws(FixtureServer.Error) -> ByteBuffer {
        if let cached = state.withLock({ $0.entries[key] }) {
            return cached
        }
        let result = await onOwnThread { [photos] in
            Result { () throws(FixtureServer.Error) -> [UInt8] in
                switch key.source {
                case .generated(let number) where key.format == .webp:
                    let width = FixtureImages.clampedDimension(key.width)
                    let height = FixtureImages.clampedDimension(key.height)
                    return try WebPEncoder.encode(
                        FixtureImages.rgb(number: number, width: width, height: height),
                        width: width,
                        height: height,
                        bytesPerRow: width * 3,
                        hasAlpha: false,
                        quality: key.quality
                    )
                case .generated(let number):
                    return try FixtureImages.jpeg(
                        number: number,
                        width: key.width,
                        height: key.height,
                        quality: key.quality
                    )
                case .photo(let index):
                    guard let photos, photos.photos.indices.contains(index) else {
                        throw .photoFailed(reason: "no photo \(index)")
                    }
                    return try photos.encoded(
                        index: index,
                        width: key.width,
                        height: key.height,
                        quality: key.quality,
                        format: key.format
                    )
                }
            }
        }
        let encoded = ByteBuffer(bytes: try result.get())
        return state.withLock { state in
            if let existing = state.entries[key] { return existing }
            if state.storedBytes + encoded.readableBytes > byteLimit {
                state.entries.removeAll()
                state.storedBytes = 0
            }
            state.entries[key] = encoded
            state.storedBytes += encoded.readableBytes
            return encoded
        }
    }
}

extension EncodedImageCache.Key {
    /// Generated picture `number` at `width` × `height` and JPEG `quality`.
    init(number: Int, width: Int, height: Int, quality: Int) {
        self.init(source: .generated(number: number), width: width, height: height, quality: quality)
    }
}
