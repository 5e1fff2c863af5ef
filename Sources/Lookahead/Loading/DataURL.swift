// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Decodes `data:[<media type>][;base64],<data>` URLs: base64 or percent-encoded.
enum DataURL {
    /// The bytes of a `data:` URL.
    static func decode(_ url: URL, limit: Int?) throws(DataLoadingError) -> Data {
        let string = url.absoluteString
        // The scheme is `data` (the caller routed it here), so the header starts after its five characters.
        guard string.utf8.count > 5, let comma = string.utf8.firstIndex(of: UInt8(ascii: ",")) else {
            throw .unsupportedURL(url)
        }
        let header = string[string.utf8.index(string.startIndex, offsetBy: 5)..<comma].lowercased()
        let payload = string.utf8[string.utf8.index(after: comma)...]
        // A bound before decoding: base64 shrinks by a quarter, percent-encoding by up to two thirds.
        if let limit, payload.count / 4 > limit { throw .responseTooLarge(limit: limit) }
        guard let bytes = percentDecoded(payload) else { throw .unsupportedURL(url) }
        let data: Data
        if header.hasSuffix(";base64") {
            // Line breaks and spaces are allowed between base64 characters; nothing else is.
            let characters = bytes.filter { !($0 == 0x20 || (0x09...0x0D).contains($0)) }
            guard let decoded = Data(base64Encoded: Data(characters)) else {
                throw .unsupportedURL(url)
            }
            data = decoded
        } else {
            data = Data(bytes)
        }
        if let limit, data.count > limit { throw .responseTooLarge(limit: limit) }
        return data
    }

    /// `%XX` escapes turned into bytes; `nil` for a malformed escape.
    private static func percentDecoded(_ bytes: Substring.UTF8View) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            output.append(high << 4 | low)
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
