// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CGIF)
import CGIF
import Foundation

extension ImageDecoders.GIF {
    /// What the first pass learns: the canvas, the frames that are whole, and the loop count.
    struct Layout {
        var width: Int
        var height: Int
        var frameCount = 0
        var loopCount = 1
    }

    /// The first pass: counts whole frames (stopping past the frame limit), finds the canvas and the loop count,
    /// and checks each frame's size, reading compressed data without decompressing it.
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
        } image: { () throws(ImageDecodingError) -> WalkEnd? in
            try skipFrame(file, counting: &layout, growsCanvas: screenIsEmpty, context)
        }
        // Whatever fails after a whole frame is a file cut short: the frames so far are the animation.
        guard layout.frameCount == 0 else { return layout }
        switch end {
        case .stopped, .trailer: throw failure("no image in the file")
        case .readFailed(let code): throw error(code)
        case .unknownRecord: throw error(D_GIF_ERR_WRONG_RECORD)
        }
    }

    /// Checks the frame whose descriptor was just read and skips its data; `.stopped` past the frame limit, where
    /// the count is enough for the error.
    private static func skipFrame(
        _ file: UnsafeMutablePointer<GifFileType>,
        counting layout: inout Layout,
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
        layout.frameCount += 1
        return layout.frameCount > context.maximumFrameCount ? .stopped : nil
    }

    /// The second pass: decodes `layout.frameCount` frames onto one canvas, keeping a copy of the canvas after
    /// each (at the thumbnail size when asked).
    static func decodeFrames(
        _ file: UnsafeMutablePointer<GifFileType>,
        _ layout: Layout,
        _ context: ImageDecodingContext
    ) throws(ImageDecodingError) -> AnimatedImage {
        var canvas = Canvas(width: layout.width, height: layout.height)
        var frames: [AnimatedImage.Frame] = []
        frames.reserveCapacity(layout.frameCount)
        var control = FrameControl()
        let end = try walk(file) { code, block, isFirst in
            if isFirst, code == GRAPHICS_EXT_FUNC_CODE, let read = FrameControl(block: block) { control = read }
        } image: { () throws(ImageDecodingError) -> WalkEnd? in
            let saved = control.disposal == 3 ? canvas.pixels : nil
            let rect = file.pointee.Image
            try draw(file, on: &canvas, transparentIndex: control.transparentIndex)
            frames.append(
                AnimatedImage.Frame(
                    image: try ImageDecoders.fitThumbnail(PlatformImage.make(from: canvas.bitmap), context: context),
                    duration: AnimatedImage.frameDuration(milliseconds: control.delayMilliseconds)
                )
            )
            switch control.disposal {
            case 2: canvas.clear(rect)
            case 3: if let saved { canvas.pixels = saved }
            default: break
            }
            control = FrameControl()
            return frames.count < layout.frameCount ? nil : .stopped
        }
        switch end {
        case .stopped: return AnimatedImage(frames: frames, loopCount: layout.loopCount)
        case .readFailed(let code): throw error(code)
        case .trailer, .unknownRecord: throw failure("unexpected record")
        }
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
