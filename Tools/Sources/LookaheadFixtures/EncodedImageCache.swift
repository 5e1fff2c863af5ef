// Lookahead — EncodedImageCache: the fixture server's in-memory cache of encoded JPEGs.

import Dispatch
import Hummingbird
import Synchronization

/// Encoded JPEGs by (number, width, height, quality), so repeated requests return the very
/// same bytes without re-encoding.
///
/// Encoding runs on a Dispatch queue, not on the Swift concurrency pool, because a 4096×4096
/// picture takes a while. Two simultaneous misses for the same key both encode; the results are
/// byte-identical, so whichever is stored first wins. When the stored bytes pass `byteLimit`
/// the cache is emptied.
final class EncodedImageCache: Sendable {
    /// Identifies one encoded picture.
    struct Key: Hashable, Sendable {
        var number: Int
        var width: Int
        var height: Int
        var quality: Int
    }

    private struct State {
        var entries: [Key: ByteBuffer] = [:]
        var storedBytes = 0
    }

    private let state = Mutex(State())
    private let byteLimit: Int
    private let queue = DispatchQueue(label: "lookahead.fixtures.jpeg-encoder", attributes: .concurrent)

    init(byteLimit: Int = 64 * 1024 * 1024) {
        self.byteLimit = byteLimit
    }

    /// The JPEG for `key`, encoded on first use.
    func jpeg(for key: Key) async throws(FixtureServer.Error) -> ByteBuffer {
        if let cached = state.withLock({ $0.entries[key] }) {
            return cached
        }
        let result = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(
                    returning: Result { () throws(FixtureServer.Error) -> [UInt8] in
                        try FixtureImages.jpeg(
                            number: key.number,
                            width: key.width,
                            height: key.height,
                            quality: key.quality
                        )
                    }
                )
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
