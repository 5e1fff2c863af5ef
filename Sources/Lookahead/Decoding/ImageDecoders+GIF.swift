// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CGIF)
import CGIF
public import Foundation

extension ImageDecoders {
    /// Decodes GIF with giflib: the first frame on a canvas of the logical screen, or an animation, decoded as it
    /// plays (``decodeAnimation(_:context:)``). A still image reads no record past the first image.
    public struct GIF: AnimatedImageDecoding, BundledImageDecoder {
        /// Creates the decoder.
        public init() {}

        /// The first image on a transparent canvas of the logical screen; later records are never read.
        func decodeBitmap(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> Bitmap {
            try Self.withFile(data) { file throws(ImageDecodingError) in
                let screen = (width: Int(file.pointee.SWidth), height: Int(file.pointee.SHeight))
                try context.checkPixelLimit(codec: name, width: screen.width, height: screen.height)
                var control = FrameControl()
                let end = try Self.walk(file) { read in
                    control = read
                    return .stopped
                }
                switch end {
                case .stopped: break
                case .trailer: throw Self.failure("no image in the file")
                case .readFailed(let code): throw Self.error(code)
                case .unknownRecord: throw Self.failure("unexpected record")
                }
                let image = file.pointee.Image
                let (width, height) = (Int(image.Width), Int(image.Height))
                guard width > 0, height > 0 else { throw Self.failure("invalid dimensions \(width)×\(height)") }
                // A screen of 0×0 (seen in the wild) takes the frame's size.
                let canvasWidth = screen.width > 0 ? screen.width : Int(image.Left) + width
                let canvasHeight = screen.height > 0 ? screen.height : Int(image.Top) + height
                // The frame's own size counts too: giflib reads it line by line.
                for (w, h) in [(canvasWidth, canvasHeight), (width, height)] {
                    try context.checkPixelLimit(codec: name, width: w, height: h)
                }
                var canvas = Canvas(width: canvasWidth, height: canvasHeight)
                try Self.draw(file, on: &canvas, transparentIndex: control.transparentIndex)
                return canvas.bitmap
            }
        }

        /// Reads the frames' durations and the `NETSCAPE2.0` loop count, and decodes the first frame; the others are
        /// decoded as they play, each drawn over what the previous one left and disposed of as its graphics control
        /// extension says. A file cut short keeps its whole frames. `nil` for one frame.
        public func decodeAnimation(
            _ data: Data,
            context: ImageDecodingContext
        ) throws(ImageDecodingError) -> AnimatedImage? {
            let layout = try Self.withFile(data) { file throws(ImageDecodingError) in try Self.scan(file, context) }
            guard layout.durations.count > 1 else { return nil }
            let (frames, width, height) = (layout.durations.count, layout.width, layout.height)
            if let error = context.animationLimitError(codec: name, frameCount: frames, width: width, height: height) {
                throw error
            }
            return try AnimatedImage.opening(
                data,
                codec: name,
                frameDurations: layout.durations,
                loopCount: layout.loopCount,
                context: context
            ) { (bytes) throws(ImageDecodingError) in try FrameReader(bytes, layout) }
        }

        /// How one frame is drawn and disposed of, from the graphics control extension before it.
        struct FrameControl {
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

        static let format = BundledFormat(name: "GIF", mediaType: "image/gif") { $0.isGIF }

        static func error(_ code: Int32) -> ImageDecodingError {
            failure(GifErrorString(code).map { String(cString: $0) } ?? "error \(code)")
        }
    }
}

extension ImageDecoders.GIF {
    /// Opens the data with giflib, hands the file to `body`, and closes it.
    static func withFile<T>(
        _ data: Data,
        _ body: (UnsafeMutablePointer<GifFileType>) throws(ImageDecodingError) -> T
    ) throws(ImageDecodingError) -> T {
        try ImageDecoders.withBytes(of: data, codec: "GIF") { base, count throws(ImageDecodingError) in
            var unread = UnsafeBufferPointer(start: base, count: count)
            return try withUnsafeMutablePointer(to: &unread) { source throws(ImageDecodingError) in
                let file = try open(source)
                defer { DGifCloseFile(file, nil) }
                return try body(file)
            }
        }
    }

    /// Opens a file that reads the bytes `source` points to, moving it past what it reads.
    static func open(
        _ source: UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>
    ) throws(ImageDecodingError) -> UnsafeMutablePointer<GifFileType> {
        var status: Int32 = 0
        guard let file = DGifOpen(source, read, &status) else { throw error(status) }
        return file
    }

    /// How a walk over a file's records ended; `readFailed` carries giflib's error (a file cut short or corrupt).
    enum WalkEnd {
        case stopped
        case trailer
        case readFailed(Int32)
        case unknownRecord
    }

    /// Reads an open file's records in order. `visitExtension` sees each extension's function code and data blocks
    /// (`true` for the first). `visitImage` runs once an image's descriptor is read, with the graphics control
    /// extension before it: it reads or skips the image's data and returns `nil` to read on, or how the walk ends.
    static func walk(
        _ file: UnsafeMutablePointer<GifFileType>,
        extension visitExtension: (Int32, UnsafeMutablePointer<GifByteType>, Bool) -> Void = { _, _, _ in },
        image visitImage: (FrameControl) throws(ImageDecodingError) -> WalkEnd?
    ) throws(ImageDecodingError) -> WalkEnd {
        var control = FrameControl()
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
                    if isFirst, code == GRAPHICS_EXT_FUNC_CODE { control = FrameControl(block: current) ?? control }
                    visitExtension(code, current, isFirst)
                    isFirst = false
                    guard DGifGetExtensionNext(file, &block) == GIF_OK else {
                        return .readFailed(file.pointee.Error)
                    }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(file) == GIF_OK else { return .readFailed(file.pointee.Error) }
                if let end = try visitImage(control) { return end }
                control = FrameControl()
            case TERMINATE_RECORD_TYPE:
                return .trailer
            default:
                return .unknownRecord
            }
        }
    }

    /// Hands giflib the next of the unread bytes its `UserData` points to.
    private static let read: InputFunc = { file, buffer, length in
        guard let file, let buffer,
            let unread = file.pointee.UserData?.assumingMemoryBound(to: UnsafeBufferPointer<UInt8>.self)
        else { return 0 }
        let count = min(Int(length), unread.pointee.count)
        guard count > 0 else { return 0 }
        buffer.update(from: unread.pointee.baseAddress!, count: count)
        unread.pointee = UnsafeBufferPointer(rebasing: unread.pointee.dropFirst(count))
        return Int32(count)
    }

    /// What the first pass learns: the canvas, the durations of the frames that are whole, and the loop count.
    struct Layout {
        var width: Int
        var height: Int
        var durations: [Duration] = []
        var loopCount = 1
    }

    /// The first pass, reading compressed data without decompressing it: finds the whole frames (up to just past the
    /// frame limit) and their durations, the canvas and the loop count, and checks each frame's size.
    static func scan(
        _ file: UnsafeMutablePointer<GifFileType>,
        _ context: ImageDecodingContext
    ) throws(ImageDecodingError) -> Layout {
        var layout = Layout(width: Int(file.pointee.SWidth), height: Int(file.pointee.SHeight))
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
        } image: { (control) throws(ImageDecodingError) -> WalkEnd? in
            try skipFrame(
                file,
                delay: control.delayMilliseconds,
                into: &layout,
                growsCanvas: screenIsEmpty,
                context
            )
        }
        // Whatever fails after a whole frame is a file cut short: the frames so far are the animation.
        guard layout.durations.isEmpty else { return layout }
        switch end {
        case .stopped, .trailer: throw failure("no image in the file")
        case .readFailed(let code): throw error(code)
        case .unknownRecord: throw error(D_GIF_ERR_WRONG_RECORD)
        }
    }

    /// Checks the frame whose descriptor was just read, skips its data and adds its duration; `.stopped` past the
    /// frame limit.
    private static func skipFrame(
        _ file: UnsafeMutablePointer<GifFileType>,
        delay: Int,
        into layout: inout Layout,
        growsCanvas: Bool,
        _ context: ImageDecodingContext
    ) throws(ImageDecodingError) -> WalkEnd? {
        let image = file.pointee.Image
        let (width, height) = (Int(image.Width), Int(image.Height))
        try context.checkSize(codec: "GIF", width: width, height: height)
        if growsCanvas {
            layout.width = max(layout.width, Int(image.Left) + width)
            layout.height = max(layout.height, Int(image.Top) + height)
        }
        var size: Int32 = 0
        var code: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(file, &size, &code) == GIF_OK else { return .readFailed(file.pointee.Error) }
        while code != nil {
            guard DGifGetCodeNext(file, &code) == GIF_OK else { return .readFailed(file.pointee.Error) }
        }
        layout.durations.append(AnimatedImage.frameDuration(milliseconds: delay))
        return layout.durations.count > context.maximumFrameCount ? .stopped : nil
    }

    /// The logical screen the frames are drawn on: RGBA, transparent at first.
    struct Canvas {
        let width: Int
        let height: Int
        var pixels: [UInt8]

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            pixels = [UInt8](repeating: 0, count: width * height * 4)
        }

        var bitmap: Bitmap { Bitmap(width: width, height: height, pixels: pixels) }

        /// Clears a frame's rectangle (clipped to the canvas) to transparent: disposal to the background.
        mutating func clear(_ rect: GifImageDesc) {
            let left = min(Int(rect.Left), width)
            let right = min(Int(rect.Left) + Int(rect.Width), width)
            guard right > left else { return }
            for y in min(Int(rect.Top), height)..<min(Int(rect.Top) + Int(rect.Height), height) {
                let start = (y * width + left) * 4
                pixels[start..<(start + (right - left) * 4)] = ArraySlice(repeating: 0, count: (right - left) * 4)
            }
        }
    }

    /// Draws the image whose descriptor was just read onto the canvas (clipped to it), skipping transparent pixels.
    static func draw(
        _ file: UnsafeMutablePointer<GifFileType>,
        on canvas: inout Canvas,
        transparentIndex: Int?
    ) throws(ImageDecodingError) {
        let image = file.pointee.Image
        let (left, top, width, height) = (Int(image.Left), Int(image.Top), Int(image.Width), Int(image.Height))
        guard let colorMap = image.ColorMap ?? file.pointee.SColorMap, let colors = colorMap.pointee.Colors else {
            throw failure("no colour table")
        }
        let colorCount = Int(colorMap.pointee.ColorCount)
        var line = [GifPixelType](repeating: 0, count: width)
        let rows: [Int] =
            image.Interlace
            ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { stride(from: $0.0, to: height, by: $0.1) }
            : Array(0..<height)
        for row in rows {
            guard DGifGetLine(file, &line, Int32(width)) == GIF_OK else { throw error(file.pointee.Error) }
            let y = top + row
            guard y < canvas.height else { continue }
            // A frame may lie partly or wholly outside the canvas: only its visible part is drawn.
            for x in 0..<max(0, min(width, canvas.width - left)) {
                let index = Int(line[x])
                guard index != transparentIndex, index < colorCount else { continue }
                let color = colors[index]
                let offset = (y * canvas.width + left + x) * 4
                canvas.pixels[offset] = color.Red
                canvas.pixels[offset + 1] = color.Green
                canvas.pixels[offset + 2] = color.Blue
                canvas.pixels[offset + 3] = 255
            }
        }
    }
}
#endif
