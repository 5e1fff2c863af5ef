// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — keys: the bytes a terminal sends for keys and the mouse wheel, parsed into events.

/// What the user pressed.
public enum Key: Sendable, Hashable {
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape
    /// The mouse wheel, one notch: negative up, positive down.
    case wheel(Int)
    /// Ctrl-C (raw mode turns it into a byte, not a signal).
    case interrupt
    /// Any other printable character.
    case character(Character)
}

/// Turns the bytes read from a terminal in raw mode into keys. Feed bytes as they arrive: a sequence split across
/// two reads is completed by the second.
///
/// Understands the cursor and editing keys in their `CSI` and `SS3` forms (`ESC [ A`, `ESC O H`, `ESC [ 5 ~`, …)
/// and SGR mouse reports (`ESC [ < b ; x ; y M`) of the wheel. A lone `ESC` is reported by ``flush()``.
public struct KeyParser: Sendable {
    private var pending: [UInt8] = []

    /// Creates a parser.
    public init() {}

    /// Parses as many complete keys as the bytes so far contain.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        while !pending.isEmpty {
            guard let (key, length) = Self.parse(pending[...]) else { break }
            pending.removeFirst(length)
            if let key { keys.append(key) }
        }
        return keys
    }

    /// Reports a pending lone `ESC` (call when no more bytes came for a moment) and forgets partial sequences.
    public mutating func flush() -> [Key] {
        defer { pending.removeAll() }
        return pending == [0x1B] ? [.escape] : []
    }

    /// The key at the start of `bytes` and how many bytes it used; `nil` when more bytes are needed. A `nil` key
    /// with a length skips bytes that mean nothing here.
    private static func parse(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        switch first {
        case 0x1B:
            return parseEscape(bytes)
        case 0x03:
            return (.interrupt, 1)
        case 0x0D, 0x0A:
            return (.enter, 1)
        case 0x20...0x7E:
            return (.character(Character(Unicode.Scalar(first))), 1)
        case 0xC0...0xF7:
            // A UTF-8 character: take it whole.
            let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 2
            guard bytes.count >= length else { return nil }
            let text = String(decoding: bytes.prefix(length), as: UTF8.self)
            return (text.first.map { .character($0) }, length)
        default:
            return (nil, 1)
        }
    }

    private static func parseEscape(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let introducer = bytes[start + 1]
        if introducer == UInt8(ascii: "O") {
            guard bytes.count >= 3 else { return nil }
            return (finalKey(bytes[start + 2], parameters: []), 3)
        }
        guard introducer == UInt8(ascii: "[") else {
            return (.escape, 1)  // ESC then something else: the ESC alone, the rest parsed next
        }
        // CSI: parameter bytes 0x30–0x3F, then intermediates 0x20–0x2F, then a final byte 0x40–0x7E.
        var index = start + 2
        while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) { index += 1 }
        guard index < bytes.endIndex else { return bytes.count > 32 ? (nil, bytes.count) : nil }
        let final = bytes[index]
        let length = index - start + 1
        let body = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
        if body.hasPrefix("<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
            let fields = body.dropFirst().split(separator: ";").compactMap { Int($0) }
            guard let button = fields.first, final == UInt8(ascii: "M") else { return (nil, length) }
            switch button & ~0b11100 {  // without the shift, meta and control bits
            case 64: return (.wheel(-1), length)
            case 65: return (.wheel(1), length)
            default: return (nil, length)
            }
        }
        let parameters = body.split(separator: ";").compactMap { Int($0) }
        return (finalKey(final, parameters: parameters), length)
    }

    private static func finalKey(_ final: UInt8, parameters: [Int]) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "M"): .enter  // keypad Enter in SS3 form
        case UInt8(ascii: "~"):
            switch parameters.first {
            case 1, 7: .home
            case 4, 8: .end
            case 5: .pageUp
            case 6: .pageDown
            default: nil
            }
        default: nil
        }
    }
}
