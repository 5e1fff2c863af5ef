// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// The header fields a loader may send, by RFC 9110 §5.1 and §5.5: a name is a token; a value holds visible
/// characters, spaces and tabs. A CR or LF in either would end the field early on the wire and let the rest pass
/// for fields of its own (request splitting), so the default loaders refuse such a field before they connect.
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
}
