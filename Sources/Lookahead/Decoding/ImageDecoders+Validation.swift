// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

extension ImageDecoders {
    /// Checks, without decoding, that data is an image one of `decoders` recognises and that it is whole, so that the
    /// disk cache keeps no HTML error page or body cut short. Only the ends are read: JPEG ends with `FF D9`, PNG with
    /// `IEND`, GIF with `00 3B` (each allowing padding), and WebP's RIFF size matches its length; other formats pass.
    ///
    /// ```swift
    /// if case .failure(let error) = ImageDecoders.validateStructure(data) { print(error) }
    /// ```
    /// - Returns: `.success` for complete data; ``ImagePipeline/Error/noDecoder(header:)`` when no decoder
    ///   recognises it; ``ImagePipeline/Error/decodingFailed(codec:message:)`` when it is incomplete.
    public static func validateStructure(
        _ data: Data,
        decoders: [any ImageDecoding] = ImageDecoders.default
    ) -> Result<Void, ImagePipeline.Error> {
        decoder(for: data, in: decoders).flatMap { decoder in
            guard let problem = structureProblem(in: data) else { return .success(()) }
            return .failure(.decodingFailed(codec: decoder.name, message: "incomplete data: \(problem)"))
        }
    }

    /// What is wrong with the end of the data, or `nil` when it is complete or of a format not checked here.
    private static func structureProblem(in data: Data) -> String? {
        let start = data.startIndex
        if data.isJPEG {
            // Padding after the marker: zeros, fill bytes (FF) or text line ends. Stripping FF may eat the marker's
            // first byte only if the data ends in FF D9 FF…, in which case D9 stops the strip and FF precedes it.
            let end = data.lastIndex { ![0x00, 0xFF, 0x0A, 0x0D, 0x20].contains($0) }
            guard let end, end >= start + 3, data[end] == 0xD9, data[end - 1] == 0xFF else {
                return "JPEG without its end-of-image marker (FF D9)"
            }
        } else if data.isPNG {
            let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
            guard let end = data.lastIndex(where: { $0 != 0 }), end - start + 1 >= 8 + iend.count,
                data[(end - iend.count + 1)...end].elementsEqual(iend)
            else { return "PNG without its IEND chunk" }
        } else if data.isGIF {
            // The trailer follows a block terminator (00): the end of the last image's data or extension.
            guard let end = data.lastIndex(where: { $0 != 0 }), end - start >= 14, data[end] == 0x3B, data[end - 1] == 0
            else { return "GIF without its trailer (00 3B)" }
        } else if data.isWebP {
            let size = (0..<4).reduce(0) { $0 | Int(data[start + 4 + $1]) << (8 * $1) }
            guard size + 8 == data.count else {
                return "WebP whose RIFF size (\(size + 8) bytes) does not match its length (\(data.count) bytes)"
            }
        }
        return nil
    }
}
