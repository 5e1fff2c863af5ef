// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// An animation's encoded data at an address that never moves, for C decoders that keep a pointer to their input
/// (libwebp's animation decoder, giflib's reader) across the frames of a play.
final class EncodedBytes: @unchecked Sendable {
    // SAFETY: the bytes are written once, in `init`, and only read afterwards; they are freed in `deinit`, when no
    // reader (each holds a reference) is left.
    let buffer: UnsafeBufferPointer<UInt8>

    /// A copy of `data`; fails with "empty data" when there is none.
    init(_ data: Data, codec: String) throws(ImageDecodingError) {
        guard !data.isEmpty else { throw ImageDecodingError(codec: codec, message: "empty data") }
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: data.count)
        _ = copy.initialize(from: data)
        buffer = UnsafeBufferPointer(copy)
    }

    deinit {
        buffer.deallocate()
    }
}

extension AnimatedImage {
    /// The animation of a bundled decoder whose reader keeps `bytes`: its first frame decoded now, every frame
    /// fitted to the context's thumbnail.
    static func opening(
        _ bytes: EncodedBytes,
        codec: String,
        frameDurations: [Duration],
        loopCount: Int,
        context: ImageDecodingContext,
        makeReader: @escaping @Sendable () throws(ImageDecodingError) -> any AnimationFrameReading
    ) throws(ImageDecodingError) -> AnimatedImage {
        guard let poster = try makeReader().nextFrame() else {
            throw ImageDecodingError(codec: codec, message: "the first frame does not decode")
        }
        let animation = AnimatedImage(
            poster: poster,
            frameDurations: frameDurations,
            loopCount: loopCount,
            encodedByteCount: bytes.buffer.count,
            makeReader: makeReader
        )
        return try animation.mapImages { (image) throws(ImageDecodingError) in
            try ImageDecoders.fitThumbnail(image, context: context)
        }
    }
}
