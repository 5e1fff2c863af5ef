// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

extension ImageDecoders {
    /// Checks, without decoding, that data is an image one of `decoders` recognises and that it is whole.
    ///
    /// What the pipeline asks of data it stores in the disk cache without decoding it (data-only requests): an HTML
    /// error page or a body cut short must not be kept. Only the first bytes and the last few are read: JPEG ends
    /// with `FF D9`, PNG with `IEND`, GIF with `00 3B` (each allowing padding), and WebP's RIFF size matches its
    /// length. Other formats pass once a decoder recognises them.
    ///
    /// ```swift
    /// if case .failure(let error) = ImageDecoders.validateStructure(data) { print(error) }
    /// ```
    /// - Returns: `.success` for complete data; ``ImagePipelineError/noDecoder(header:)`` when no decoder
    ///   recognises it; ``ImagePipelineError/decodingFailed(codec:message:)`` when it is incomplete.
    public static func validateStructure(
        _ data: Data,
        decoders: [any ImageDecoding] = ImageDecoders.default
    ) -> Result<Void, ImagePipeline.Error> {
        guard let decoder = decoder(for: data, in: decoders) else {
            return .failure(.noDecoder(header: hexHeader(data)))
        }
        guard let problem = StructureCheck.problem(in: data) else { return .success(()) }
        return .failure(.decodingFailed(codec: decoder.name, message: "incomplete data: \(problem)"))
    }
}

/// The end-of-data checks per format, on raw bytes.
private enum StructureCheck {
    /// What is wrong with the data, or `nil` when it is complete or of a format not checked here.
    static func problem(in data: Data) -> String? {
        let bytes = [UInt8](data.prefix(16))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return jpeg(data) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(data) }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return gif(data) }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
            return webp(data)
        }
        return nil
    }

    private static func jpeg(_ data: Data) -> String? {
        // Padding after the marker: zeros, fill bytes (FF) or text line ends. Stripping FF may eat the marker's
        // first byte only if the data ends in FF D9 FF…, in which case D9 stops the strip and FF precedes it.
        let end = lastIndex(in: data) { [0x00, 0xFF, 0x0A, 0x0D, 0x20].contains($0) }
        guard let end, end >= data.startIndex + 3, data[end] == 0xD9, data[end - 1] == 0xFF else {
            return "JPEG without its end-of-image marker (FF D9)"
        }
        return nil
    }

    private static let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    private static func png(_ data: Data) -> String? {
        guard let end = lastIndex(in: data, skipping: { $0 == 0 }), end - data.startIndex + 1 >= 8 + iend.count,
            data[(end - iend.count + 1)...end].elementsEqual(iend)
        else {
            return "PNG without its IEND chunk"
        }
        return nil
    }

    private static func gif(_ data: Data) -> String? {
        // The trailer follows a block terminator (00): the end of the last image's data or extension.
        guard let end = lastIndex(in: data, skipping: { $0 == 0 }), end - data.startIndex >= 14, data[end] == 0x3B,
            data[end - 1] == 0
        else {
            return "GIF without its trailer (00 3B)"
        }
        return nil
    }

    private static func webp(_ data: Data) -> String? {
        let start = data.startIndex
        let size = (0..<4).reduce(0) { $0 | Int(data[start + 4 + $1]) << (8 * $1) }
        guard size + 8 == data.count else {
            return "WebP whose RIFF size (\(size + 8) bytes) does not match its length (\(data.count) bytes)"
        }
        return nil
    }

    /// The index of the last byte that is not padding, or `nil` when every byte is.
    private static func lastIndex(in data: Data, skipping isPadding: (UInt8) -> Bool) -> Data.Index? {
        var index = data.endIndex
        while index > data.startIndex {
            index -= 1
            if !isPadding(data[index]) { return index }
        }
        return nil
    }
}
