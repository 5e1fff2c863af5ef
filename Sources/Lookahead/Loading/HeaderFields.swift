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

    /// `tchar`: a letter, a digit, a backtick, or one of `!#$%&'*+-.^_|~`.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }

    /// Visible characters (UTF-8 bytes pass as `obs-text`), spaces and horizontal tabs; no other control character.
    static func isValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == UInt8(ascii: "\t") || ($0 >= 0x20 && $0 != 0x7F) }
    }
}
