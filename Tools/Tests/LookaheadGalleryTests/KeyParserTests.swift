// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery tests — the bytes of keys and mouse reports, parsed.

import Testing

@testable import LookaheadGallery

@Suite struct KeyParserTests {
    private func keys(_ text: String) -> [Key] {
        var parser = KeyParser()
        return parser.feed(Array(text.utf8))
    }

    @Test func cursorAndEditingKeysInBothForms() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OH\u{1B}OF") == [.up, .home, .end])
        #expect(
            keys("\u{1B}[5~\u{1B}[6~\u{1B}[1~\u{1B}[4~\u{1B}[H\u{1B}[F") == [
                .pageUp, .pageDown, .home, .end, .home, .end,
            ]
        )
    }

    @Test func lettersEnterAndControlC() {
        #expect(
            keys("jkgq\r\u{03}") == [
                .character("j"), .character("k"), .character("g"), .character("q"), .enter, .interrupt,
            ]
        )
    }

    @Test func theMouseWheelInSGRReports() {
        #expect(keys("\u{1B}[<64;10;5M\u{1B}[<65;10;5M") == [.wheel(-1), .wheel(1)])
        // A click and its release are not keys; a wheel with Ctrl held still scrolls.
        #expect(keys("\u{1B}[<0;3;4M\u{1B}[<0;3;4m\u{1B}[<81;1;1M") == [.wheel(1)])
    }

    @Test func aSequenceSplitAcrossReadsIsCompletedByTheNext() {
        var parser = KeyParser()
        #expect(parser.feed(Array("\u{1B}[".utf8)).isEmpty)
        #expect(parser.feed(Array("6".utf8)).isEmpty)
        #expect(parser.feed(Array("~j".utf8)) == [.pageDown, .character("j")])
    }

    @Test func aLoneEscapeIsReportedOnFlush() {
        var parser = KeyParser()
        #expect(parser.feed([0x1B]).isEmpty)
        #expect(parser.flush() == [.escape])
        #expect(parser.feed(Array("q".utf8)) == [.character("q")])
    }

    @Test func unknownSequencesAreSkippedWhole() {
        #expect(keys("\u{1B}[99;1Zq") == [.character("q")])
        #expect(keys("\u{1B}[200~x") == [.character("x")])
    }
}
