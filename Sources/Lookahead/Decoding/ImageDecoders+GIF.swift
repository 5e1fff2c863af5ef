// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CGIF)
import CGIF
public import Foundation

extension ImageDecoders {
    /// Decodes GIF with giflib: the first frame on a canvas of the logical screen, or every frame of an animation
    /// (``decodeAnimation(_:context:)``). A still image reads no record past the first image.
    public struct GIF: AnimatedImageDecoding, BundledImageDecoder {
        /// Creates the decoder.
        public init() {}

        func decodeBitmap(_ data: Data, context: ImageDecodingContext) throws(ImageDecodingError) -> Bitmap {
            try Self.withFile(data) { file throws(ImageDecodingError) in try Self.decode(file, context) }
        }

        /// Decodes every frame, each drawn over what the previous one left and disposed of as its graphics control
        /// extension says, with the `NETSCAPE2.0` loop count; a file cut short keeps its whole frames. `nil` for one.
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

        /// Decodes the first image on a transparent canvas of the logical screen; later records are never read.
        private static func decode(
            _ file: UnsafeMutablePointer<GifFileType>,
            _ context: ImageDecodingContext
        ) throws(ImageDecodingError) -> Bitmap {
            let screen = (width: Int(file.pointee.SWidth), height: Int(file.pointee.SHeight))
            try context.checkPixelLimit(codec: "GIF", width: screen.width, height: screen.height)
            var transparentIndex: Int?
            let end = try walk(file) { code, block, isFirst in
                if isFirst, code == GRAPHICS_EXT_FUNC_CODE, let index = FrameControl(block: block)?.transparentIndex {
                    transparentIndex = index
                }
            } image: {
                .stopped
            }
            switch end {
            case .stopped: break
            case .trailer: throw failure("no image in the file")
            case .readFailed(let code): throw error(code)
            case .unknownRecord: throw failure("unexpected record")
            }
            let image = file.pointee.Image
            let (width, height) = (Int(image.Width), Int(image.Height))
            guard width > 0, height > 0 else { throw failure("invalid dimensions \(width)×\(height)") }
            // A screen of 0×0 (seen in the wild) takes the frame's size.
            let canvasWidth = screen.width > 0 ? screen.width : Int(image.Left) + width
            let canvasHeight = screen.height > 0 ? screen.height : Int(image.Top) + height
            // The frame's own size counts too: giflib reads it line by line.
            for (w, h) in [(canvasWidth, canvasHeight), (width, height)] {
                try context.checkPixelLimit(codec: "GIF", width: w, height: h)
            }
            var canvas = Canvas(width: canvasWidth, height: canvasHeight)
            try draw(file, on: &canvas, transparentIndex: transparentIndex)
            return canvas.bitmap
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
                var status: Int32 = 0
                guard let file = DGifOpen(source, read, &status) else { throw error(status) }
                defer { DGifCloseFile(file, &status) }
                return try body(file)
            }
        }
    }

    /// How a walk over a file's records ended; `readFailed` carries giflib's error (a file cut short or corrupt).
    enum WalkEnd {
        case stopped
        case trailer
        case readFailed(Int32)
        case unknownRecord
    }

    /// Reads an open file's records in order. `visitExtension` sees each extension's function code and data blocks
    /// (`true` for the first). `visitImage` runs once an image's descriptor is read: it reads or skips the image's
    /// data and returns `nil` to read on, or how the walk ends.
    static func walk(
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
}
#endif
