// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fuzzing — what every decoder's target does with one input.

import Foundation
public import Lookahead

/// Decodes one fuzz input with `decoder`, directly and through the full decode path (sniffing, thumbnail
/// resampling), and, for a decoder of animations, to every frame, decoded in order. Any input must give an image (or
/// frames) or a typed error — never a crash, a hang or a huge allocation.
public func fuzzDecoding(with decoder: some ImageDecoding, _ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    // A small pixel limit keeps each run fast; odd-sized inputs exercise the thumbnail paths.
    let thumbnail: ThumbnailOptions? = count % 2 == 0 ? nil : ThumbnailOptions(maximumPixelSize: 32)
    let context = ImageDecodingContext(
        thumbnail: thumbnail,
        maximumPixelCount: 4_000_000,
        maximumFrameCount: 64,
        maximumAnimationPixelCount: 8_000_000
    )
    if let image = try? decoder.decode(data, context: context) {
        precondition(image.pixels.count == image.height * image.bytesPerRow, "bitmap geometry is inconsistent")
    }
    _ = ImageDecoders.decode(data, context: context)
    if let animated = decoder as? any AnimatedImageDecoding,
        let animation = try? animated.decodeAnimation(data, context: context)
    {
        precondition(animation.frameCount > 1 && animation.frameCount <= 64, "frame count out of bounds")
        let size = (animation.poster.width, animation.poster.height)
        var frames = animation.makeFrameIterator()
        while let frame = try? frames.next() {
            precondition((frame.image.width, frame.image.height) == size, "frames differ in size")
            precondition(frame.image.pixels.count == frame.image.height * frame.image.bytesPerRow, "bitmap geometry")
            precondition(frame.duration > .zero, "a frame without duration")
        }
    }
    return 0
}
