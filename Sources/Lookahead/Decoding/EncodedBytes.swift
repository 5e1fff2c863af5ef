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
    /// The animation of a bundled decoder whose readers keep a copy of `data`: its first frame decoded now, every
    /// frame fitted to the context's thumbnail.
    static func opening(
        _ data: Data,
        codec: String,
        frameDurations: [Duration],
        loopCount: Int,
        context: ImageDecodingContext,
        makeReader: @escaping @Sendable (EncodedBytes) throws(ImageDecodingError) -> any AnimationFrameReading
    ) throws(ImageDecodingError) -> AnimatedImage {
        let bytes = try EncodedBytes(data, codec: codec)
        let openReader = { @Sendable () throws(ImageDecodingError) in try makeReader(bytes) }
        guard let poster = try openReader().nextFrame() else {
            throw ImageDecodingError(codec: codec, message: "the first frame does not decode")
        }
        let animation = AnimatedImage(
            poster: poster,
            frameDurations: frameDurations,
            loopCount: loopCount,
            encodedByteCount: bytes.buffer.count,
            makeReader: openReader
        )
        return try animation.mapImages { (image) throws(ImageDecodingError) in
            try ImageDecoders.fitThumbnail(image, context: context)
        }
    }
}
