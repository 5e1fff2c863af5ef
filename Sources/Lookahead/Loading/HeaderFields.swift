// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The header fields a loader may send, by RFC 9110 §5.1 and §5.5: a name is a token; a value holds visible
/// characters, spaces and tabs. A CR or LF would let the rest pass for fields of its own (request splitting), so the
/// default loaders refuse such a field; fields a server sends are sanitised the same way (``sanitized(name:value:)``).
enum HeaderFields {
    /// Throws ``DataLoadingError/invalidHeaderField(name:)`` for the first field (by name) that breaks the rules.
    static func check(_ fields: [String: String]) throws(DataLoadingError) {
        for name in fields.keys.sorted() where !isToken(name) || !isValue(fields[name] ?? "") {
            throw .invalidHeaderField(name: name)
        }
    }

    /// A name of `tchar`s (RFC 9110 §5.6.2): ASCII letters and digits, and the punctuation below.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(tokenCharacters.contains)
    }

    private static let tokenCharacters = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~".utf8
    )

    /// Visible characters (UTF-8 bytes pass as `obs-text`), spaces and horizontal tabs; no other control character.
    static func isValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == UInt8(ascii: "\t") || ($0 >= 0x20 && $0 != 0x7F) }
    }

    /// A field a server sent, as an app may see it: `nil` when the name is not a token; otherwise the name
    /// lowercased and the value with each CR, LF and NUL replaced by a space, as RFC 9110 §5.5 allows a recipient.
    static func sanitized(name: String, value: String) -> (name: String, value: String)? {
        guard isToken(name) else { return nil }
        let isDangerous: (UInt8) -> Bool = { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
        guard value.utf8.contains(where: isDangerous) else { return (name.lowercased(), value) }
        return (name.lowercased(), String(decoding: value.utf8.map { isDangerous($0) ? 0x20 : $0 }, as: UTF8.self))
    }

    /// One line of a response's head as libcurl hands it over, its CR LF included.
    enum ResponseLine: Equatable {
        /// `HTTP/…` and the status code (0 when it is not three digits).
        case status(Int)
        /// `name: value`, the value trimmed of spaces and tabs; the name as sent.
        case field(name: String, value: String)
        /// The empty line that ends a response's head.
        case end
        /// A line with no colon: not a field.
        case other
    }

    /// Reads one line of a response's head.
    static func responseLine(_ bytes: UnsafeBufferPointer<UInt8>) -> ResponseLine {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.isEmpty { return .end }
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ", maxSplits: 2)
            let code = parts.count > 1 ? parts[1] : ""
            let isCode = code.utf8.count == 3 && code.utf8.allSatisfy { (48...57).contains($0) }
            return .status(isCode ? Int(code) ?? 0 : 0)
        }
        guard let colon = line.firstIndex(of: ":") else { return .other }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        return .field(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
}
