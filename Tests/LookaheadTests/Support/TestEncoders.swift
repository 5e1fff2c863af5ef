// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — WebP, GIF and PNG files made here with the libraries' own encoders, and EXIF segments.

import Foundation

#if canImport(CWebP) && canImport(CGIF) && canImport(CSPNG)
import CGIF
import CSPNG
import CWebP
@testable import Lookahead

enum TestEncoders {
    /// RGBA pixels: the gradient of `TestImages.gradient`, with alpha falling from 255 (left) to 0 (right) if
    /// `alpha`.
    static func rgba(width: Int, height: Int, alpha: Bool = false) -> [UInt8] {
        let rgb = TestImages.gradient(width: width, height: height)
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for index in 0..<(width * height) {
            pixels += rgb[(index * 3)..<(index * 3 + 3)]
            pixels.append(alpha ? UInt8(255 - (index % width) * 255 / max(1, width - 1)) : 255)
        }
        return pixels
    }

    /// A still WebP, lossless or lossy.
    static func webp(rgba: [UInt8], width: Int, height: Int, lossless: Bool, quality: Float = 90) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        let size = rgba.withUnsafeBufferPointer { pixels in
            lossless
                ? WebPEncodeLosslessRGBA(pixels.baseAddress, Int32(width), Int32(height), Int32(width * 4), &output)
                : WebPEncodeRGBA(pixels.baseAddress, Int32(width), Int32(height), Int32(width * 4), quality, &output)
        }
        precondition(size > 0, "WebP encoding failed")
        defer { WebPFree(output) }
        return Data(UnsafeBufferPointer(start: output, count: size))
    }

    /// An animated WebP: one lossless frame per element of `frames` (each full-canvas RGBA), each shown for the
    /// matching element of `durations` (milliseconds; 100 each by default), looping `loopCount` times (0: forever).
    static func animatedWebP(
        frames: [[UInt8]],
        width: Int,
        height: Int,
        durations: [Int]? = nil,
        loopCount: Int = 0
    ) -> Data {
        var options = WebPAnimEncoderOptions()
        precondition(WebPAnimEncoderOptionsInit(&options) != 0)
        options.anim_params.loop_count = Int32(loopCount)
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else { fatalError("encoder") }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        precondition(WebPConfigInit(&config) != 0)
        config.lossless = 1
        let durations = durations ?? Array(repeating: 100, count: frames.count)
        var timestamp = 0
        for (index, frame) in frames.enumerated() {
            var picture = WebPPicture()
            precondition(WebPPictureInit(&picture) != 0)
            picture.use_argb = 1
            picture.width = Int32(width)
            picture.height = Int32(height)
            frame.withUnsafeBufferPointer { _ = WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4)) }
            precondition(WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0)
            WebPPictureFree(&picture)
            timestamp += durations[index]
        }
        precondition(WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0)
        var data = WebPData()
        precondition(WebPAnimEncoderAssemble(encoder, &data) != 0)
        defer { WebPDataClear(&data) }
        return Data(UnsafeBufferPointer(start: data.bytes, count: data.size))
    }

    /// A GIF with a 4-colour palette; each frame is a list of palette indices (width × height), placed at
    /// (0, 0). `transparentIndex` goes into a graphics control extension before the first frame.
    static func gif(
        frames: [[UInt8]],
        width: Int,
        height: Int,
        palette: [(UInt8, UInt8, UInt8)],
        transparentIndex: UInt8? = nil,
        interlaced: Bool = false
    ) -> Data {
        final class Sink { var data = Data() }
        let sink = Sink()
        var status: Int32 = 0
        let write: OutputFunc = { file, bytes, count in
            guard let file, let bytes else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(file.pointee.UserData).takeUnretainedValue()
            sink.data.append(bytes, count: Int(count))
            return count
        }
        guard let file = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), write, &status) else {
            fatalError("EGifOpen")
        }
        EGifSetGifVersion(file, true)
        let map = GifMakeMapObject(Int32(palette.count), nil)!
        defer { GifFreeMapObject(map) }
        for (index, color) in palette.enumerated() {
            map.pointee.Colors[index] = GifColorType(Red: color.0, Green: color.1, Blue: color.2)
        }
        precondition(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, map) == GIF_OK)
        for (number, frame) in frames.enumerated() {
            if number == 0, let transparentIndex {
                let control: [UInt8] = [0x01, 10, 0, transparentIndex]
                precondition(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, 4, control) == GIF_OK)
            }
            precondition(EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), interlaced, nil) == GIF_OK)
            let order: [Int] =
                interlaced
                ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { stride(from: $0.0, to: height, by: $0.1) }
                : Array(0..<height)
            for row in order {
                var line = Array(frame[(row * width)..<((row + 1) * width)])
                precondition(EGifPutLine(file, &line, Int32(width)) == GIF_OK)
            }
        }
        precondition(EGifCloseFile(file, &status) == GIF_OK)
        return sink.data
    }

    /// One frame of ``animatedGIF(width:height:palette:frames:loopCount:)``: palette indices for a rectangle of the
    /// canvas, and its graphics control extension.
    struct GIFFrame {
        var indices: [UInt8]
        var left = 0
        var top = 0
        var width: Int
        var height: Int
        var delayCentiseconds = 10
        /// 1 keeps the frame, 2 clears it to the background, 3 restores what was there before.
        var disposal = 1
        var transparentIndex: UInt8?
    }

    /// An animated GIF: a `NETSCAPE2.0` loop extension (`loopCount`, 0 for forever; none when `nil`) and, before
    /// each frame, a graphics control extension with its delay, disposal and transparency.
    static func animatedGIF(
        width: Int,
        height: Int,
        palette: [(UInt8, UInt8, UInt8)],
        frames: [GIFFrame],
        loopCount: Int? = 0
    ) -> Data {
        final class Sink { var data = Data() }
        let sink = Sink()
        var status: Int32 = 0
        let write: OutputFunc = { file, bytes, count in
            guard let file, let bytes else { return 0 }
            Unmanaged<Sink>.fromOpaque(file.pointee.UserData).takeUnretainedValue().data.append(
                bytes,
                count: Int(count)
            )
            return count
        }
        guard let file = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), write, &status) else {
            fatalError("EGifOpen")
        }
        EGifSetGifVersion(file, true)
        let map = GifMakeMapObject(Int32(palette.count), nil)!
        defer { GifFreeMapObject(map) }
        for (index, color) in palette.enumerated() {
            map.pointee.Colors[index] = GifColorType(Red: color.0, Green: color.1, Blue: color.2)
        }
        precondition(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, map) == GIF_OK)
        if let loopCount {
            precondition(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE) == GIF_OK)
            precondition(EGifPutExtensionBlock(file, 11, Array("NETSCAPE2.0".utf8)) == GIF_OK)
            precondition(EGifPutExtensionBlock(file, 3, [1, UInt8(loopCount & 0xFF), UInt8(loopCount >> 8)]) == GIF_OK)
            precondition(EGifPutExtensionTrailer(file) == GIF_OK)
        }
        for frame in frames {
            let flags = UInt8(frame.disposal << 2) | (frame.transparentIndex == nil ? 0 : 1)
            let control: [UInt8] = [
                flags, UInt8(frame.delayCentiseconds & 0xFF), UInt8(frame.delayCentiseconds >> 8),
                frame.transparentIndex ?? 0,
            ]
            precondition(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, 4, control) == GIF_OK)
            precondition(
                EGifPutImageDesc(
                    file,
                    Int32(frame.left),
                    Int32(frame.top),
                    Int32(frame.width),
                    Int32(frame.height),
                    false,
                    nil
                ) == GIF_OK
            )
            for row in 0..<frame.height {
                var line = Array(frame.indices[(row * frame.width)..<((row + 1) * frame.width)])
                precondition(EGifPutLine(file, &line, Int32(frame.width)) == GIF_OK)
            }
        }
        precondition(EGifCloseFile(file, &status) == GIF_OK)
        return sink.data
    }

    /// An 8-bit RGBA PNG, written by the library's own encoder.
    static func png(rgba: [UInt8], width: Int, height: Int) -> Data {
        try! ImageEncoders.PNG.encode(Bitmap(width: width, height: height, pixels: rgba))
    }

    /// A JPEG with an Exif APP1 segment carrying `orientation`, inserted after SOI.
    static func insertingExifOrientation(_ orientation: Int, into jpeg: [UInt8], bigEndian: Bool = false) -> Data {
        func u16(_ value: Int) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        func u32(_ value: Int) -> [UInt8] {
            let bytes = [
                UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24),
            ]
            return bigEndian ? bytes.reversed() : bytes
        }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8)
        tiff += u16(1)  // one entry
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)  // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Data(Array(jpeg[0..<2]) + segment + Array(jpeg[2...]))
    }
}
#endif
