// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CGIF)
import CGIF

extension ImageDecoders.GIF {
    /// Decodes an animated GIF's frames one after another on one canvas: each is drawn over what the previous one
    /// left, once that one is disposed of as its graphics control extension says.
    final class FrameReader: AnimationFrameReading {
        private let bytes: EncodedBytes
        private let source: UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>
        private let file: UnsafeMutablePointer<GifFileType>
        private let frameCount: Int
        private var canvas: Canvas
        private var decodedCount = 0
        /// How to dispose of the frame last returned, before the next is drawn.
        private var disposal: (rect: GifImageDesc, method: Int, saved: [UInt8]?)?

        /// Opens the bytes at the first frame; `layout` comes from ``scan(_:_:)``.
        init(_ bytes: EncodedBytes, _ layout: Layout) throws(ImageDecodingError) {
            self.bytes = bytes
            source = .allocate(capacity: 1)
            source.initialize(to: bytes.buffer)
            do {
                file = try open(source)
            } catch {
                source.deallocate()
                throw error
            }
            frameCount = layout.durations.count
            canvas = Canvas(width: layout.width, height: layout.height)
        }

        deinit {
            DGifCloseFile(file, nil)
            source.deallocate()
        }

        func nextFrame() throws(ImageDecodingError) -> PlatformImage? {
            guard decodedCount < frameCount else { return nil }
            if let disposal {
                switch disposal.method {
                case 2: canvas.clear(disposal.rect)
                case 3: if let saved = disposal.saved { canvas.pixels = saved }
                default: break
                }
                self.disposal = nil
            }
            let end = try walk(file) { (control) throws(ImageDecodingError) -> WalkEnd? in
                disposal = (file.pointee.Image, control.disposal, control.disposal == 3 ? canvas.pixels : nil)
                try draw(file, on: &canvas, transparentIndex: control.transparentIndex)
                return .stopped
            }
            switch end {
            case .stopped: break
            case .readFailed(let code): throw error(code)
            case .trailer, .unknownRecord: return nil
            }
            decodedCount += 1
            return PlatformImage.make(from: canvas.bitmap)
        }
    }
}
#endif
