// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fixtures — AnimationEncoder: animated GIFs (giflib) and WebPs (libwebpmux) of fixture pictures.

import CAnimationEncoders
import Foundation

/// Writes animations of the fixture pictures: picture `n` with a light band sweeping across it, one position per
/// frame, so every frame differs and a player's progress shows.
public enum AnimationEncoder {
    /// The frames of picture `number`: `frameCount` RGB buffers of `width` × `height`.
    public static func frames(number: Int, width: Int, height: Int, frameCount: Int) -> [[UInt8]] {
        let base = FixtureImages.rgb(number: number, width: width, height: height)
        let band = max(1, width / 8)
        return (0..<frameCount).map { index in
            var frame = base
            let left = frameCount > 1 ? index * (width - band) / (frameCount - 1) : 0
            for y in 0..<height {
                for x in left..<min(width, left + band) {
                    let offset = (y * width + x) * 3
                    for channel in 0..<3 {
                        frame[offset + channel] = UInt8((Int(frame[offset + channel]) + 255 * 2) / 3)
                    }
                }
            }
            return frame
        }
    }

    /// An animated GIF of RGB `frames`, each quantised to its own 256-colour table by giflib, shown for
    /// `delayMilliseconds` (rounded to centiseconds), looping forever.
    public static func gif(frames: [[UInt8]], width: Int, height: Int, delayMilliseconds: Int) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let write: OutputFunc = { file, bytes, count in
            guard let file, let bytes else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(file.pointee.UserData).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
            return count
        }
        var status: Int32 = 0
        guard let file = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), write, &status) else { return [] }
        EGifSetGifVersion(file, true)
        guard EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, nil) == GIF_OK else {
            EGifCloseFile(file, &status)
            return []
        }
        // Loop forever: the NETSCAPE2.0 application extension with a count of 0.
        EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE)
        EGifPutExtensionBlock(file, 11, Array("NETSCAPE2.0".utf8))
        EGifPutExtensionBlock(file, 3, [1, 0, 0] as [UInt8])
        EGifPutExtensionTrailer(file)
        let centiseconds = max(0, delayMilliseconds / 10)
        let pixelCount = width * height
        for frame in frames {
            var red = [UInt8](repeating: 0, count: pixelCount)
            var green = red
            var blue = red
            for index in 0..<pixelCount {
                red[index] = frame[index * 3]
                green[index] = frame[index * 3 + 1]
                blue[index] = frame[index * 3 + 2]
            }
            var indices = [GifByteType](repeating: 0, count: pixelCount)
            var colorCount: Int32 = 256
            var colors = [GifColorType](repeating: GifColorType(), count: 256)
            guard
                GifQuantizeBuffer(UInt32(width), UInt32(height), &colorCount, &red, &green, &blue, &indices, &colors)
                    == GIF_OK,
                let map = GifMakeMapObject(256, colors)
            else { break }
            defer { GifFreeMapObject(map) }
            // Graphics control: keep the frame (disposal 1), the delay, no transparency.
            let control: [UInt8] = [1 << 2, UInt8(centiseconds & 0xFF), UInt8(centiseconds >> 8), 0]
            EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, 4, control)
            guard EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, map) == GIF_OK else { break }
            for row in 0..<height {
                var line = Array(indices[(row * width)..<((row + 1) * width)])
                guard EGifPutLine(file, &line, Int32(width)) == GIF_OK else { break }
            }
        }
        EGifCloseFile(file, &status)
        return sink.bytes
    }

    /// An animated lossy WebP of RGB `frames`, each shown for `delayMilliseconds`, looping forever.
    public static func webp(frames: [[UInt8]], width: Int, height: Int, delayMilliseconds: Int) -> [UInt8] {
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0,
            let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options)
        else { return [] }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { return [] }
        config.quality = 80
        var timestamp: Int32 = 0
        for frame in frames {
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else { return [] }
            picture.use_argb = 1
            picture.width = Int32(width)
            picture.height = Int32(height)
            let imported = frame.withUnsafeBufferPointer {
                WebPPictureImportRGB(&picture, $0.baseAddress, Int32(width * 3))
            }
            defer { WebPPictureFree(&picture) }
            guard imported != 0, WebPAnimEncoderAdd(encoder, &picture, timestamp, &config) != 0 else { return [] }
            timestamp += Int32(delayMilliseconds)
        }
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0 else { return [] }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else { return [] }
        defer { WebPDataClear(&data) }
        return Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
    }
}
