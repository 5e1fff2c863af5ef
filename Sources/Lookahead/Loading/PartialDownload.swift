// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The first bytes of an interrupted download, kept so the next request can ask for the rest with `Range` and
/// `If-Range` (only for a response with `Accept-Ranges: bytes` and a strong validator). The answer is joined only
/// when it is provably the continuation; anything else starts over.
package struct PartialDownload: Hashable, Sendable {
    /// The bytes received so far.
    package var data: Data
    /// The validator sent back as `If-Range`.
    package var validator: String
    /// The full length of the body, when the first response declared it.
    package var totalLength: Int64?

    /// What to do with the answer to a resumed request.
    package enum Outcome: Hashable, Sendable {
        /// The prefix and the answer's body make the whole body.
        case joined(Data)
        /// A `200`: the answer's body is the whole body; the prefix is dropped.
        case replaced(Data)
        /// The answer cannot be joined to the prefix (the reason says why): download the whole body again.
        case startOver(reason: String)
    }

    /// A partial download as stored.
    package init(data: Data, validator: String, totalLength: Int64?) {
        self.data = data
        self.validator = validator
        self.totalLength = totalLength
    }

    /// The partial data of a first response, when resuming it is allowed; `nil` otherwise.
    package init?(data: Data, response: HTTPResponseInfo, maximumLength: Int) {
        guard response.statusCode == 200, !data.isEmpty, data.count <= maximumLength,
            response.headers["accept-ranges"]?.lowercased().split(separator: ",")
                .contains(where: { $0.trimmingCharacters(in: .whitespaces) == "bytes" }) == true,
            response.headers["content-encoding"].map({ $0.lowercased() == "identity" }) ?? true
        else { return nil }
        let etag = response.headers["etag"]?.trimmingCharacters(in: .whitespaces)
        if let etag, etag.hasPrefix("\"") {
            validator = etag  // strong; a weak W/"…" tag may not be used with If-Range
        } else if let modified = response.headers["last-modified"], HTTPDate.parse(modified) != nil {
            validator = modified
        } else {
            return nil
        }
        self.data = data
        self.totalLength = response.expectedContentLength
        if let totalLength, Int64(data.count) >= totalLength { return nil }  // complete, or longer than declared
    }

    /// The header fields of the resumed request.
    package var resumeHeaders: [String: String] {
        ["Range": "bytes=\(data.count)-", "If-Range": validator]
    }

    /// Judges the answer to a request sent with ``resumeHeaders``.
    package func resume(with response: DataLoadResponse) -> Outcome {
        guard let info = response.response else { return .startOver(reason: "not an HTTP response") }
        switch info.statusCode {
        case 200:
            return .replaced(response.data)
        case 206:
            guard let value = info.headers["content-range"], let range = ContentRange(value) else {
                return .startOver(reason: "206 without a valid Content-Range")
            }
            let start = Int64(data.count)
            guard range.first == start else {
                return .startOver(reason: "206 starts at byte \(range.first), not at \(start)")
            }
            guard range.last - range.first + 1 == Int64(response.data.count) else {
                return .startOver(reason: "206 body of \(response.data.count) bytes for \(value)")
            }
            if let complete = range.completeLength {
                guard complete == range.last + 1 else { return .startOver(reason: "206 does not reach the end") }
                if let totalLength, complete != totalLength {
                    return .startOver(reason: "206 says the body has \(complete) bytes, not \(totalLength)")
                }
            } else if totalLength.map({ $0 != range.last + 1 }) ?? true {
                return .startOver(reason: "206 of unknown length does not provably reach the end")
            }
            return .joined(data + response.data)
        default:
            return .startOver(reason: "status \(info.statusCode)")
        }
    }
}

/// A `Content-Range: bytes first-last/complete` value (RFC 9110 §14.4), parsed strictly.
package struct ContentRange: Hashable, Sendable {
    package var first: Int64
    package var last: Int64
    /// `nil` for `*`.
    package var completeLength: Int64?

    /// `nil` unless the value is a well-formed, satisfied byte range whose numbers fit in 18 digits.
    package init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let bounds = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.number(bounds[0]), let last = Self.number(bounds[1]), first <= last
        else { return nil }
        self.first = first
        self.last = last
        if halves[1] == "*" {
            completeLength = nil
        } else {
            guard let complete = Self.number(halves[1]), last < complete else { return nil }
            completeLength = complete
        }
    }

    /// A non-negative decimal of at most 18 digits (so it fits in `Int64` with room to add one).
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}

// MARK: - Storage

extension PartialDownload {
    private struct Header: Codable {
        var validator: String
        var totalLength: Int64?
    }

    /// The key the first bytes of `dataKey`'s download are kept under, in the same cache.
    static func key(for dataKey: String) -> String { dataKey + "\u{0}lookahead-partial-v1" }

    /// The stored form: a one-line JSON header, a newline, the bytes.
    func encoded() -> Data {
        let header = (try? JSONEncoder().encode(Header(validator: validator, totalLength: totalLength))) ?? Data()
        return header + Data([0x0A]) + data
    }

    /// Decodes the stored form; `nil` when unreadable.
    static func decode(_ stored: Data) -> PartialDownload? {
        guard let newline = stored.firstIndex(of: 0x0A),
            let header = try? JSONDecoder().decode(Header.self, from: stored[stored.startIndex..<newline])
        else { return nil }
        let data = stored[(newline + 1)...]
        guard !data.isEmpty else { return nil }
        return PartialDownload(data: Data(data), validator: header.validator, totalLength: header.totalLength)
    }
}
