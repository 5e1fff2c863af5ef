// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Reads embedded ICC profiles from file bytes: the part of colour management that is parsing, platform-neutral.
package enum EmbeddedColorProfile {
    /// The ICC profile of a JPEG: the `ICC_PROFILE` APP2 segments, joined in their sequence order; `nil` when there is
    /// none or the chunks are inconsistent (missing, repeated, or a count that differs between them).
    package static func jpeg(_ data: Data) -> [UInt8]? {
        let signature = Array("ICC_PROFILE".utf8) + [0]
        var chunks: [Int: [UInt8]] = [:]
        var expected: Int?
        var isConsistent = true
        JPEGSegments.walk(data) { marker, payload in
            guard marker == 0xE2, payload.count > signature.count + 2,
                payload.prefix(signature.count).elementsEqual(signature)
            else { return true }
            let sequence = Int(payload[payload.startIndex + signature.count])
            let count = Int(payload[payload.startIndex + signature.count + 1])
            if expected == nil { expected = count }
            guard count == expected, sequence >= 1, sequence <= count, chunks[sequence] == nil else {
                isConsistent = false
                return false
            }
            chunks[sequence] = [UInt8](payload.dropFirst(signature.count + 2))
            return true
        }
        guard isConsistent, let expected, chunks.count == expected else { return nil }
        return (1...expected).flatMap { chunks[$0]! }
    }
}

/// The marker segments of a JPEG, before its first scan.
package enum JPEGSegments {
    /// Calls `body` with each segment's marker and payload, in order, until `body` returns `false`, the first scan
    /// begins, a length is malformed, or 1 MiB has been walked.
    package static func walk(_ data: Data, _ body: (_ marker: UInt8, _ payload: Data) -> Bool) {
        let start = data.startIndex
        let end = min(data.endIndex, start + (1 << 20))
        func byte(_ offset: Int) -> UInt8 { data[start + offset] }
        var index = 2
        while start + index + 4 <= end, byte(index) == 0xFF {
            let marker = byte(index + 1)
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 || marker == 0xFF {
                index += marker == 0xFF ? 1 : 2  // fill bytes and markers without a length
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return }  // image data: no more metadata
            let length = Int(byte(index + 2)) << 8 | Int(byte(index + 3))
            guard length >= 2, start + index + 2 + length <= end else { return }
            guard body(marker, data[(start + index + 4)..<(start + index + 2 + length)]) else { return }
            index += 2 + length
        }
    }
}

extension Bitmap {
    /// The bitmap converted to sRGB from an embedded ICC profile where Lookahead manages colour (Linux); else as is.
    package func convertedToSRGB(from profile: [UInt8]?) -> Bitmap {
        #if canImport(CLCMS)
        if let profile, let converted = ColorManagement.convertToSRGB(self, from: profile) { return converted }
        #endif
        return self
    }
}
