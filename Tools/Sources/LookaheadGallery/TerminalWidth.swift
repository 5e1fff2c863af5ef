// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — how many columns a terminal gives a character, from the C library's wcwidth.

import CTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The columns a terminal draws a character in: 0, 1 or 2, as the C library's `wcwidth` says (glibc's tables
/// follow Unicode's East Asian Width and emoji presentation), so CJK and emoji take two cells and combining marks none.
public enum TerminalWidth {
    /// `wcwidth` answers only under a UTF-8 `LC_CTYPE` (in the "C" locale every non-ASCII character is -1): the
    /// environment's locale when it is UTF-8, else glibc's built-in `C.UTF-8`. Done once, before the first answer.
    private static let localeIsUTF8: Bool = {
        if let current = setlocale(LC_CTYPE, ""), String(cString: current).uppercased().contains("UTF-8") {
            return true
        }
        return setlocale(LC_CTYPE, "C.UTF-8") != nil
    }()

    /// The columns of one character (a grapheme cluster): the width of its first scalar. A variation selector
    /// asking for emoji presentation (U+FE0F, as in "⬇️") does not widen it: wcwidth, tmux, xterm and VTE keep such
    /// a character one column wide, and a screen model that disagreed with the terminal would shift every cell after
    /// it. A character `wcwidth` does not know (a control, or no UTF-8 locale at all) counts as 1 if it is printable
    /// ASCII and -1 otherwise: callers draw a replacement.
    public static func columns(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.isASCII { return (0x20...0x7E).contains(first.value) ? 1 : -1 }
        guard localeIsUTF8 else { return -1 }
        return Int(lookahead_wcwidth(first.value))
    }

    /// The columns of a string drawn on one line by ``ScreenBuffer/put(_:x:y:limit:foreground:background:bold:reversed:)``
    /// (an unknown character is one replacement column).
    public static func columns(ofText text: String) -> Int {
        text.reduce(0) { total, character in
            let width = columns(of: character)
            return total + (width < 0 ? 1 : width)
        }
    }
}
