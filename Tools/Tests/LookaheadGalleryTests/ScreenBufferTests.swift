// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery tests — the screen buffer, its diff output, and chafa drawing a real bitmap.

import Lookahead
import Testing

@testable import LookaheadGallery

@Suite struct ScreenBufferTests {
    @Test func textIsClippedAndWideCharactersTakeTwoCells() {
        var screen = ScreenBuffer(columns: 10, rows: 3)
        screen.put("Hello 150 and more", x: 2, y: 0, limit: 6)
        screen.put("a📊b⏎c", x: 0, y: 1)
        #expect(screen.text(row: 0) == "  Hello   ")
        // 📊 is two columns (its cell and a continuation), ⏎ one: b lands in column 3, c in column 5.
        #expect(screen[1, 1].character == "📊")
        #expect(screen[2, 1].character == ScreenCell.continuation)
        #expect(screen[3, 1].character == "b")
        #expect(screen[4, 1].character == "⏎")
        #expect(screen[5, 1].character == "c")
        #expect(screen.text(row: 1) == "a📊b⏎c    ")
        // A wide character that does not fit whole at the edge is left out; nothing is drawn as "?".
        screen.put("12345678🚀", x: 0, y: 2, limit: 9)
        #expect(screen.text(row: 2) == "12345678  ")
    }

    @Test func terminalWidthsComeFromTheCLibrary() {
        #expect(TerminalWidth.columns(of: Character("a")) == 1)
        #expect(TerminalWidth.columns(of: Character("🚀")) == 2)
        #expect(TerminalWidth.columns(of: Character("⬇️")) == 1, "as wcwidth and tmux count it, U+FE0F or not")
        #expect(TerminalWidth.columns(of: Character("✅")) == 2)
        #expect(TerminalWidth.columns(of: Character("漢")) == 2)
        #expect(TerminalWidth.columns(of: Character("⏎")) == 1)
        #expect(TerminalWidth.columns(of: Character("é")) == 1)
        #expect(TerminalWidth.columns(of: Character("\u{7}")) == -1)
        #expect(TerminalWidth.columns(ofText: "🚀 ok") == 5)
    }

    @Test func aWideCharacterIsWrittenOnceAndItsContinuationNever() {
        var first = ScreenBuffer(columns: 6, rows: 1)
        first.put("ab", x: 0, y: 0)
        var second = first
        second.put("🚀x", x: 0, y: 0)
        let diff = second.output(from: first)
        // ESC[1;1H then the rocket (the terminal moves two columns) then x: no byte for the covered column.
        #expect(diff.contains("🚀x"))
        #expect(!diff.contains("\u{0}"))
        // The rocket replaced by narrow text: the old continuation column is written as a blank.
        var third = second
        third.put("p", x: 0, y: 0)
        #expect(third.output(from: second).contains("p "))
    }

    @Test func theFirstFrameIsWholeAndLaterFramesOnlyWhatChanged() {
        var first = ScreenBuffer(columns: 20, rows: 3)
        first.put("status", x: 0, y: 2, reversed: true)
        let full = first.output(from: nil)
        #expect(full.contains("\u{1B}[2J"))
        #expect(full.contains("status"))
        var second = first
        second.put("X", x: 5, y: 1, foreground: RGB(255, 0, 0))
        let diff = second.output(from: first)
        #expect(diff.contains("\u{1B}[2;6H"), "moves to row 2, column 6")
        #expect(diff.contains("38;2;255;0;0"))
        #expect(!diff.contains("status"), "unchanged cells are not written again")
        #expect(second.output(from: second) == "\u{1B}[0m")
    }

    @Test func artIsDrawnOnlyInsideTheVisibleRows() {
        let art = TerminalArt(columns: 2, rows: 3, cells: Array(repeating: ScreenCell("█"), count: 6))
        var screen = ScreenBuffer(columns: 4, rows: 4)
        screen.draw(art, x: 1, y: -1, visibleRows: 0..<1)
        #expect(screen.text(row: 0) == " ██ ")
        #expect(screen.text(row: 1) == "    ", "rows outside the content area stay empty")
    }

    @Test func chafaDrawsABitmapAsColouredBlocks() {
        // Left half red, right half blue.
        var pixels: [UInt8] = []
        for _ in 0..<32 {
            for x in 0..<64 { pixels += x < 32 ? [230, 20, 20, 255] : [20, 20, 230, 255] }
        }
        let bitmap = Bitmap(width: 64, height: 32, pixels: pixels)
        let art = ChafaRenderer.art(bitmap, columns: 8, rows: 4, background: RGB(0, 0, 0))
        #expect(art.columns == 8 && art.rows == 4)
        func colour(_ x: Int, _ y: Int) -> RGB? {
            let cell = art[x, y]
            // A space shows its background; a full block its foreground.
            return cell.character == " " ? cell.background : cell.character == "█" ? cell.foreground : cell.background
        }
        let left = colour(1, 1)
        let right = colour(6, 2)
        #expect((left?.red ?? 0) > 150 && (left?.blue ?? 255) < 80, "left is red: \(String(describing: left))")
        #expect((right?.blue ?? 0) > 150 && (right?.red ?? 255) < 80, "right is blue: \(String(describing: right))")
    }

    @Test func transparentPixelsTakeTheBackground() {
        let bitmap = Bitmap(width: 16, height: 16, red: 255, green: 255, blue: 255, alpha: 0)
        let art = ChafaRenderer.art(bitmap, columns: 2, rows: 1, background: RGB(10, 20, 30))
        for cell in art.cells {
            let shown = cell.character == "█" ? cell.foreground : cell.background
            #expect(shown == RGB(10, 20, 30))
        }
    }
}

@Suite struct GraphicsModeTests {
    @Test func detectionIsConservative() {
        #expect(GraphicsMode.detect(environment: ["TERM": "xterm-kitty"]) == .kitty)
        #expect(GraphicsMode.detect(environment: ["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"]) == .kitty)
        #expect(GraphicsMode.detect(environment: ["TERM_PROGRAM": "iTerm.app"]) == .iterm2)
        #expect(GraphicsMode.detect(environment: ["TERM": "foot"]) == .sixels)
        #expect(GraphicsMode.detect(environment: ["TERM": "xterm-256color"]) == .symbols, "unknown: symbols")
        #expect(
            GraphicsMode.detect(environment: ["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-0/default,1,0"]) == .symbols,
            "tmux would need pass-through"
        )
    }

    @Test func pixelModesPrintTheirProtocols() {
        let bitmap = Bitmap(width: 32, height: 32, red: 200, green: 100, blue: 50)
        let kitty = ChafaRenderer.graphics(bitmap, columns: 4, rows: 2, mode: .kitty, cellSize: (10, 20))
        let sixels = ChafaRenderer.graphics(bitmap, columns: 4, rows: 2, mode: .sixels, cellSize: (10, 20))
        let iterm = ChafaRenderer.graphics(bitmap, columns: 4, rows: 2, mode: .iterm2, cellSize: (10, 20))
        #expect(kitty.hasPrefix("\u{1B}_G"), "kitty graphics APC: \(kitty.prefix(12).debugDescription)")
        #expect(sixels.hasPrefix("\u{1B}P"), "a sixel DCS: \(sixels.prefix(12).debugDescription)")
        #expect(iterm.hasPrefix("\u{1B}]1337;File="), "iTerm2 OSC 1337: \(iterm.prefix(16).debugDescription)")
    }
}
