// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CGIF)
import CGIF
import Foundation

extension ImageDecoders.GIF {
    /// Opens the data with giflib, hands the file to `body`, and closes it.
    static func withFile<T>(
        _ data: Data,
        _ body: (UnsafeMutablePointer<GifFileType>) throws(ImageDecodingError) -> T
    ) throws(ImageDecodingError) -> T {
        try ImageDecoders.withBytes(of: data, codec: "GIF") { base, count throws(ImageDecodingError) in
            var source = Source(base: base, count: count, offset: 0)
            return try withUnsafeMutablePointer(to: &source) { source throws(ImageDecodingError) in
                var status: Int32 = 0
                guard let file = DGifOpen(source, read, &status) else { throw error(status) }
                defer { DGifCloseFile(file, &status) }
                return try body(file)
            }
        }
    }

    /// How a walk over a file's records ended.
    enum WalkEnd {
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
}
#endif
