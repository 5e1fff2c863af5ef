// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — the GIF decoder: giflib, first frame only, into RGBA bitmaps.

#if canImport(CGIF)
import CGIF
public import Foundation

extension ImageDecoders {
    /// Decodes the first frame of a GIF with giflib, with its transparency, on a canvas of the logical screen.
    ///
    /// Only the records up to the first image are read: an animation of thousands of frames costs no more than
    /// its first. The screen size is checked against the pixel limit before the canvas is allocated.
    public struct GIF: ImageDecoding {
        public let name = "GIF"

        /// Creates the decoder.
        public init() {}

        public func canDecode(_ header: Data) -> Bool {
            header.starts(with: Array("GIF87a".utf8)) || header.starts(with: Array("GIF89a".utf8))
        }

        public func decode(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> PlatformImage {
            let result: Result<Bitmap, ImageDecodingError> = data.withUnsafeBytes { raw in
                guard let base = raw.baseAddress, raw.count > 0 else {
                    return .failure(ImageDecodingError(codec: "GIF", message: "empty data"))
                }
                var source = Source(base: base, count: raw.count, offset: 0)
                return withUnsafeMutablePointer(to: &source) { Self.decode($0, context) }
            }
            return PlatformImage.make(from: try result.get())
        }

        /// The bytes giflib reads, through `UserData`.
        private struct Source {
            let base: UnsafeRawPointer
            let count: Int
            var offset: Int
        }

        private static func decode(
            _ source: UnsafeMutablePointer<Source>,
            _ context: ImageDecodingContext
        ) -> Result<Bitmap, ImageDecodingError> {
            var status: Int32 = 0
            let read: InputFunc = { file, buffer, length in
                guard let file, let buffer, let source = file.pointee.UserData?.assumingMemoryBound(to: Source.self)
                else { return 0 }
                let count = min(Int(length), source.pointee.count - source.pointee.offset)
                guard count > 0 else { return 0 }
                buffer.update(
                    from: source.pointee.base.advanced(by: source.pointee.offset).assumingMemoryBound(to: UInt8.self),
                    count: count
                )
                source.pointee.offset += count
                return Int32(count)
            }
            guard let file = DGifOpen(source, read, &status) else { return .failure(error(status)) }
            defer { DGifCloseFile(file, &status) }
            let screenWidth = Int(file.pointee.SWidth)
            let screenHeight = Int(file.pointee.SHeight)
            if screenWidth * screenHeight > context.maximumPixelCount {
                return .failure(
                    ImageDecodingError(
                        codec: "GIF",
                        message: "\(screenWidth)×\(screenHeight) exceeds \(context.maximumPixelCount) pixels",
                        reason: .tooLarge(width: screenWidth, height: screenHeight, limit: context.maximumPixelCount)
                    )
                )
            }
            var transparentIndex: Int?
            while true {
                var record = UNDEFINED_RECORD_TYPE
                guard DGifGetRecordType(file, &record) == GIF_OK else { return .failure(error(file.pointee.Error)) }
                switch record {
                case EXTENSION_RECORD_TYPE:
                    var code: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    guard DGifGetExtension(file, &code, &block) == GIF_OK else {
                        return .failure(error(file.pointee.Error))
                    }
                    // Graphics control extension: [size, flags, delay, delay, transparent index].
                    if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4, block[1] & 1 == 1 {
                        transparentIndex = Int(block[4])
                    }
                    while block != nil {
                        guard DGifGetExtensionNext(file, &block) == GIF_OK else {
                            return .failure(error(file.pointee.Error))
                        }
                    }
                case IMAGE_DESC_RECORD_TYPE:
                    guard DGifGetImageDesc(file) == GIF_OK else { return .failure(error(file.pointee.Error)) }
                    return firstImage(
                        file,
                        screenWidth: screenWidth,
                        screenHeight: screenHeight,
                        transparentIndex,
                        maximumPixelCount: context.maximumPixelCount
                    )
                case TERMINATE_RECORD_TYPE:
                    return .failure(ImageDecodingError(codec: "GIF", message: "no image in the file"))
                default:
                    return .failure(ImageDecodingError(codec: "GIF", message: "unexpected record"))
                }
            }
        }

        private static func firstImage(
            _ file: UnsafeMutablePointer<GifFileType>,
            screenWidth: Int,
            screenHeight: Int,
            _ transparentIndex: Int?,
            maximumPixelCount: Int
        ) -> Result<Bitmap, ImageDecodingError> {
            let image = file.pointee.Image
            let width = Int(image.Width)
            let height = Int(image.Height)
            let left = Int(image.Left)
            let top = Int(image.Top)
            // A screen of 0×0 (seen in the wild) takes the frame's size.
            let canvasWidth = screenWidth > 0 ? screenWidth : left + width
            let canvasHeight = screenHeight > 0 ? screenHeight : top + height
            guard width > 0, height > 0, canvasWidth > 0, canvasHeight > 0 else {
                return .failure(ImageDecodingError(codec: "GIF", message: "invalid dimensions \(width)×\(height)"))
            }
            // The frame's own size counts too: a 0×0 screen takes it, and giflib reads it line by line.
            for (w, h) in [(canvasWidth, canvasHeight), (width, height)] where w * h > maximumPixelCount {
                return .failure(
                    ImageDecodingError(
                        codec: "GIF",
                        message: "\(w)×\(h) exceeds \(maximumPixelCount) pixels",
                        reason: .tooLarge(width: w, height: h, limit: maximumPixelCount)
                    )
                )
            }
            guard let colorMap = image.ColorMap ?? file.pointee.SColorMap, let colors = colorMap.pointee.Colors else {
                return .failure(ImageDecodingError(codec: "GIF", message: "no colour table"))
            }
            let colorCount = Int(colorMap.pointee.ColorCount)
            var canvas = [UInt8](repeating: 0, count: canvasWidth * canvasHeight * 4)
            var line = [GifPixelType](repeating: 0, count: width)
            let rows: [Int] =
                image.Interlace
                ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { stride(from: $0.0, to: height, by: $0.1) }
                : Array(0..<height)
            for row in rows {
                guard DGifGetLine(file, &line, Int32(width)) == GIF_OK else {
                    return .failure(error(file.pointee.Error))
                }
                let y = top + row
                guard y < canvasHeight else { continue }
                for x in 0..<width where left + x < canvasWidth {
                    let index = Int(line[x])
                    guard index != transparentIndex, index < colorCount else { continue }
                    let color = colors[index]
                    let offset = (y * canvasWidth + left + x) * 4
                    canvas[offset] = color.Red
                    canvas[offset + 1] = color.Green
                    canvas[offset + 2] = color.Blue
                    canvas[offset + 3] = 255
                }
            }
            return .success(Bitmap(width: canvasWidth, height: canvasHeight, pixels: canvas))
        }

        private static func error(_ code: Int32) -> ImageDecodingError {
            let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
            return ImageDecodingError(codec: "GIF", message: message)
        }
    }
}
#endif
