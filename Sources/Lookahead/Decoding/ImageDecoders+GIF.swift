// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CGIF)
import CGIF
public import Foundation

extension ImageDecoders {
    /// Decodes GIF with giflib: the first frame, with its transparency, on a canvas of the logical screen, or every
    /// frame of an animation (``decodeAnimation(_:context:)``).
    ///
    /// For a still image only the records up to the first image are read: an animation of thousands of frames costs
    /// no more than its first. The screen size is checked against the pixel limit before the canvas is allocated.
    public struct GIF: AnimatedImageDecoding {
        public let name = "GIF"
        public var mediaTypes: [String] { ["image/gif"] }

        /// Creates the decoder.
        public init() {}

        public func canDecode(_ header: Data) -> Bool {
            header.starts(with: Array("GIF87a".utf8)) || header.starts(with: Array("GIF89a".utf8))
        }

        public func decode(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> PlatformImage {
            PlatformImage.make(
                from: try Self.withFile(data) { file throws(ImageDecodingError) in try Self.decode(file, context) }
            )
        }

        /// Decodes every frame of an animated GIF, composited as browsers do: each frame drawn over what the previous
        /// one left (its transparent pixels show it), then disposed of as its graphics control extension says (kept,
        /// cleared to transparent, or restored). Durations come from the same extension (10 ms or less shows for
        /// 100 ms), the loop count from the `NETSCAPE2.0` extension.
        ///
        /// A first pass walks the file without decompressing anything, to count the frames and check the limits;
        /// only then are frames decoded. A file cut short keeps the frames before the cut. `nil` for a single frame.
        public func decodeAnimation(
            _ data: Data,
            context: ImageDecodingContext
        ) throws(ImageDecodingError) -> AnimatedImage? {
            let layout = try Self.withFile(data) { file throws(ImageDecodingError) in try Self.scan(file, context) }
            guard layout.frameCount > 1 else { return nil }
            if let error = context.animationLimitError(
                codec: "GIF",
                frameCount: layout.frameCount,
                width: layout.width,
                height: layout.height
            ) {
                throw error
            }
            return try Self.withFile(data) { file throws(ImageDecodingError) in
                try Self.decodeFrames(file, layout, context)
            }
        }

        /// What the first pass learns: the canvas, the frames that are whole, and the loop count.
        private struct Layout {
            var width: Int
            var height: Int
            var frameCount: Int
            var loopCount: Int
        }

        /// How one frame is drawn and disposed of, from the graphics control extension before it.
        private struct FrameControl {
            var transparentIndex: Int?
            var delayMilliseconds = 0
            /// 0–1: keep the frame; 2: clear its rectangle to transparent; 3: restore what was there before it.
            var disposal = 0

            init() {}

            /// Reads a graphics control extension's block: [size, flags, delay, delay, transparent index].
            init?(block: UnsafeMutablePointer<GifByteType>) {
                guard block[0] >= 4 else { return nil }
                transparentIndex = block[1] & 1 == 1 ? Int(block[4]) : nil
                delayMilliseconds = (Int(block[2]) | Int(block[3]) << 8) * 10
                disposal = Int(block[1] >> 2) & 7
            }
        }

        /// Opens the data with giflib, hands the file to `body`, and closes it.
        private static func withFile<T>(
            _ data: Data,
            _ body: (UnsafeMutablePointer<GifFileType>) throws(ImageDecodingError) -> T
        ) throws(ImageDecodingError) -> T {
            let result: Result<T, ImageDecodingError> = ImageDecoders.withBytes(of: data, codec: "GIF") { base, count in
                var source = Source(base: base, count: count, offset: 0)
                return withUnsafeMutablePointer(to: &source) { source in
                    var status: Int32 = 0
                    guard let file = DGifOpen(source, read, &status) else { return .failure(error(status)) }
                    defer { DGifCloseFile(file, &status) }
                    return Result { () throws(ImageDecodingError) in try body(file) }
                }
            }
            return try result.get()
        }

        /// How a walk over a file's records ended.
        private enum WalkEnd {
            /// The image visitor ended it.
            case stopped
            /// The trailer was reached.
            case trailer
            /// giflib could not read on (the file is cut short or corrupt): its error code.
            case readFailed(Int32)
            /// A record of no known type.
            case unknownRecord
        }

        /// Reads an open file's records in order. `visitExtension` sees each extension's function code and each of
        /// its data blocks, with `true` for the first. `visitImage` is called once an image's descriptor is read
        /// (`file.pointee.Image`): to read on, it reads or skips the image's data and returns `nil`; else it returns
        /// how the walk ends.
        private static func walk(
            _ file: UnsafeMutablePointer<GifFileType>,
            extension visitExtension: (Int32, UnsafeMutablePointer<GifByteType>, Bool) -> Void,
            image visitImage: () throws(ImageDecodingError) -> WalkEnd?
        ) throws(ImageDecodingError) -> WalkEnd {
            while true {
                var record = UNDEFINED_RECORD_TYPE
                guard DGifGetRecordType(file, &record) == GIF_OK else { return .readFailed(file.pointee.Error) }
                switch record {
                case EXTENSION_RECORD_TYPE:
                    var code: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    guard DGifGetExtension(file, &code, &block) == GIF_OK else {
                        return .readFailed(file.pointee.Error)
                    }
                    var isFirst = true
                    while let current = block {
                        visitExtension(code, current, isFirst)
                        isFirst = false
                        guard DGifGetExtensionNext(file, &block) == GIF_OK else {
                            return .readFailed(file.pointee.Error)
                        }
                    }
                case IMAGE_DESC_RECORD_TYPE:
                    guard DGifGetImageDesc(file) == GIF_OK else { return .readFailed(file.pointee.Error) }
                    if let end = try visitImage() { return end }
                case TERMINATE_RECORD_TYPE:
                    return .trailer
                default:
                    return .unknownRecord
                }
            }
        }

        /// The first pass: counts whole frames (stopping past the frame limit), finds the canvas and the loop count,
        /// and checks each frame's size, reading compressed data without decompressing it.
        private static func scan(
            _ file: UnsafeMutablePointer<GifFileType>,
            _ context: ImageDecodingContext
        ) throws(ImageDecodingError) -> Layout {
            var layout = Layout(
                width: Int(file.pointee.SWidth),
                height: Int(file.pointee.SHeight),
                frameCount: 0,
                loopCount: 1
            )
            let screenIsEmpty = layout.width == 0 || layout.height == 0
            var isLoopExtension = false
            let end = try walk(file) { code, block, isFirst in
                if isFirst {
                    let name = UnsafeBufferPointer(start: block + 1, count: 11)
                    isLoopExtension =
                        code == APPLICATION_EXT_FUNC_CODE && block[0] == 11
                        && (name.elementsEqual("NETSCAPE2.0".utf8) || name.elementsEqual("ANIMEXTS1.0".utf8))
                } else if isLoopExtension, block[0] >= 3, block[1] == 1 {
                    // The loop sub-block: [3, 1, count, count]; 0 loops forever.
                    layout.loopCount = Int(block[2]) | Int(block[3]) << 8
                    isLoopExtension = false
                }
            } image: { () throws(ImageDecodingError) -> WalkEnd? in
                let image = file.pointee.Image
                let (width, height) = (Int(image.Width), Int(image.Height))
                guard width > 0, height > 0 else {
                    throw ImageDecodingError(codec: "GIF", message: "invalid dimensions \(width)×\(height)")
                }
                if let error = context.pixelLimitError(codec: "GIF", width: width, height: height) { throw error }
                if screenIsEmpty {
                    layout.width = max(layout.width, Int(image.Left) + width)
                    layout.height = max(layout.height, Int(image.Top) + height)
                }
                var size: Int32 = 0
                var code: UnsafeMutablePointer<GifByteType>?
                guard DGifGetCode(file, &size, &code) == GIF_OK else { return .readFailed(file.pointee.Error) }
                while code != nil {
                    guard DGifGetCodeNext(file, &code) == GIF_OK else { return .readFailed(file.pointee.Error) }
                }
                layout.frameCount += 1
                // Past the limit the count is enough for the error: the rest is not read.
                return layout.frameCount > context.maximumFrameCount ? .stopped : nil
            }
            switch end {
            case .stopped:
                return layout
            case .trailer:
                guard layout.frameCount > 0 else {
                    throw ImageDecodingError(codec: "GIF", message: "no image in the file")
                }
                return layout
            // Whatever fails after a whole frame is a file cut short: the frames so far are the animation.
            case .readFailed(let code):
                guard layout.frameCount > 0 else { throw error(code) }
                return layout
            case .unknownRecord:
                guard layout.frameCount > 0 else { throw error(D_GIF_ERR_WRONG_RECORD) }
                return layout
            }
        }

        /// The second pass: decodes `layout.frameCount` frames onto one canvas, keeping a copy of the canvas after
        /// each (at the thumbnail size when asked).
        private static func decodeFrames(
            _ file: UnsafeMutablePointer<GifFileType>,
            _ layout: Layout,
            _ context: ImageDecodingContext
        ) throws(ImageDecodingError) -> AnimatedImage {
            let (canvasWidth, canvasHeight) = (layout.width, layout.height)
            var canvas = [UInt8](repeating: 0, count: canvasWidth * canvasHeight * 4)
            var frames: [AnimatedImage.Frame] = []
            frames.reserveCapacity(layout.frameCount)
            var control = FrameControl()
            let end = try walk(file) { code, block, isFirst in
                if isFirst, code == GRAPHICS_EXT_FUNC_CODE, let read = FrameControl(block: block) { control = read }
            } image: { () throws(ImageDecodingError) -> WalkEnd? in
                let saved = control.disposal == 3 ? canvas : nil
                let rect = try draw(
                    file,
                    on: &canvas,
                    canvasWidth: canvasWidth,
                    canvasHeight: canvasHeight,
                    transparentIndex: control.transparentIndex
                )
                let picture = Bitmap(width: canvasWidth, height: canvasHeight, pixels: canvas)
                frames.append(
                    AnimatedImage.Frame(
                        image: try ImageDecoders.fitThumbnail(PlatformImage.make(from: picture), context: context),
                        duration: AnimatedImage.frameDuration(milliseconds: control.delayMilliseconds)
                    )
                )
                switch control.disposal {
                case 2: clear(rect, in: &canvas, canvasWidth: canvasWidth)
                case 3: if let saved { canvas = saved }
                default: break
                }
                control = FrameControl()
                return frames.count < layout.frameCount ? nil : .stopped
            }
            switch end {
            case .stopped: return AnimatedImage(frames: frames, loopCount: layout.loopCount)
            case .readFailed(let code): throw error(code)
            case .trailer, .unknownRecord: throw ImageDecodingError(codec: "GIF", message: "unexpected record")
            }
        }

        /// The part of the canvas a frame covers.
        private struct FrameRect {
            var left: Int
            var top: Int
            var width: Int
            var height: Int
        }

        /// Draws the image whose descriptor was just read onto the canvas (clipped to it), skipping transparent
        /// pixels; returns the rectangle it covers.
        private static func draw(
            _ file: UnsafeMutablePointer<GifFileType>,
            on canvas: inout [UInt8],
            canvasWidth: Int,
            canvasHeight: Int,
            transparentIndex: Int?
        ) throws(ImageDecodingError) -> FrameRect {
            let image = file.pointee.Image
            let rect = FrameRect(
                left: Int(image.Left),
                top: Int(image.Top),
                width: Int(image.Width),
                height: Int(image.Height)
            )
            guard let colorMap = image.ColorMap ?? file.pointee.SColorMap, let colors = colorMap.pointee.Colors else {
                throw ImageDecodingError(codec: "GIF", message: "no colour table")
            }
            let colorCount = Int(colorMap.pointee.ColorCount)
            var line = [GifPixelType](repeating: 0, count: rect.width)
            let rows: [Int] =
                image.Interlace
                ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { stride(from: $0.0, to: rect.height, by: $0.1) }
                : Array(0..<rect.height)
            for row in rows {
                guard DGifGetLine(file, &line, Int32(rect.width)) == GIF_OK else { throw error(file.pointee.Error) }
                let y = rect.top + row
                guard y < canvasHeight else { continue }
                // A frame may lie partly or wholly outside the canvas (found by fuzzing): only its visible part.
                for x in 0..<max(0, min(rect.width, canvasWidth - rect.left)) {
                    let index = Int(line[x])
                    guard index != transparentIndex, index < colorCount else { continue }
                    let color = colors[index]
                    let offset = (y * canvasWidth + rect.left + x) * 4
                    canvas[offset] = color.Red
                    canvas[offset + 1] = color.Green
                    canvas[offset + 2] = color.Blue
                    canvas[offset + 3] = 255
                }
            }
            return rect
        }

        /// Clears a frame's rectangle (clipped to the canvas) to transparent: disposal to the background, as browsers
        /// do it.
        private static func clear(_ rect: FrameRect, in canvas: inout [UInt8], canvasWidth: Int) {
            let canvasHeight = canvas.count / max(1, canvasWidth * 4)
            let left = min(rect.left, canvasWidth)
            let right = min(rect.left + rect.width, canvasWidth)
            guard right > left else { return }
            for y in min(rect.top, canvasHeight)..<min(rect.top + rect.height, canvasHeight) {
                let start = (y * canvasWidth + left) * 4
                canvas.replaceSubrange(
                    start..<(start + (right - left) * 4),
                    with: repeatElement(0, count: (right - left) * 4)
                )
            }
        }

        /// Hands giflib the next bytes of a ``Source``.
        private static let read: InputFunc = { file, buffer, length in
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

        /// The bytes giflib reads, through `UserData`.
        private struct Source {
            let base: UnsafeRawPointer
            let count: Int
            var offset: Int
        }

        /// Decodes the first image, on a canvas of the logical screen; later records are never read.
        private static func decode(
            _ file: UnsafeMutablePointer<GifFileType>,
            _ context: ImageDecodingContext
        ) throws(ImageDecodingError) -> Bitmap {
            let screenWidth = Int(file.pointee.SWidth)
            let screenHeight = Int(file.pointee.SHeight)
            if let error = context.pixelLimitError(codec: "GIF", width: screenWidth, height: screenHeight) {
                throw error
            }
            var transparentIndex: Int?
            let end = try walk(file) { code, block, isFirst in
                if isFirst, code == GRAPHICS_EXT_FUNC_CODE, let index = FrameControl(block: block)?.transparentIndex {
                    transparentIndex = index
                }
            } image: {
                .stopped
            }
            switch end {
            case .stopped:
                return try firstImage(
                    file,
                    screenWidth: screenWidth,
                    screenHeight: screenHeight,
                    transparentIndex,
                    context
                )
            case .trailer: throw ImageDecodingError(codec: "GIF", message: "no image in the file")
            case .readFailed(let code): throw error(code)
            case .unknownRecord: throw ImageDecodingError(codec: "GIF", message: "unexpected record")
            }
        }

        /// Draws the image whose descriptor was just read on a transparent canvas of the screen's size.
        private static func firstImage(
            _ file: UnsafeMutablePointer<GifFileType>,
            screenWidth: Int,
            screenHeight: Int,
            _ transparentIndex: Int?,
            _ context: ImageDecodingContext
        ) throws(ImageDecodingError) -> Bitmap {
            let image = file.pointee.Image
            let width = Int(image.Width)
            let height = Int(image.Height)
            // A screen of 0×0 (seen in the wild) takes the frame's size.
            let canvasWidth = screenWidth > 0 ? screenWidth : Int(image.Left) + width
            let canvasHeight = screenHeight > 0 ? screenHeight : Int(image.Top) + height
            guard width > 0, height > 0, canvasWidth > 0, canvasHeight > 0 else {
                throw ImageDecodingError(codec: "GIF", message: "invalid dimensions \(width)×\(height)")
            }
            // The frame's own size counts too: a 0×0 screen takes it, and giflib reads it line by line.
            for (w, h) in [(canvasWidth, canvasHeight), (width, height)] {
                if let error = context.pixelLimitError(codec: "GIF", width: w, height: h) { throw error }
            }
            var canvas = [UInt8](repeating: 0, count: canvasWidth * canvasHeight * 4)
            _ = try draw(
                file,
                on: &canvas,
                canvasWidth: canvasWidth,
                canvasHeight: canvasHeight,
                transparentIndex: transparentIndex
            )
            return Bitmap(width: canvasWidth, height: canvasHeight, pixels: canvas)
        }

        private static func error(_ code: Int32) -> ImageDecodingError {
            let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
            return ImageDecodingError(codec: "GIF", message: message)
        }
    }
}
#endif
