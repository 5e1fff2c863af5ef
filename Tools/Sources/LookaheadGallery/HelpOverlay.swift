// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the "?" overlay: every key, and what the status line's numbers mean.

/// The help box drawn over the gallery while `?` is on.
public enum HelpOverlay {
    /// The lines of the box: a key or a status-line field, then what it does.
    static let entries: [(String, String)] = [
        ("Keys", ""),
        ("↑ ↓ ← →  k j h l", "move the selection"),
        ("PgDn Space · PgUp", "scroll a page down · up"),
        ("Home End", "first / last item"),
        ("mouse wheel", "scroll"),
        ("⏎ Enter", "open the selected image; retry it if it failed"),
        ("g", "list ↔ grid"),
        ("r", "list the items again (pull to refresh)"),
        ("?", "this help: ?, Esc or Enter closes it"),
        ("Esc", "leave the detail view"),
        ("q Ctrl-C", "quit (q in the detail view: back to the list)"),
        ("", ""),
        ("Status line", ""),
        ("visible a–b", "the items on screen"),
        ("prefetch n", "items loading ahead of the scroll"),
        ("↓ n in flight", "downloads running now"),
        ("hits mem · disk", "images from the memory / disk cache"),
        ("failed n", "loads that failed (Enter retries the selected one)"),
        ("late n", "frames whose work took longer than a frame"),
    ]

    static let title = " Lookahead gallery — help "

    /// Draws the box in the middle of the screen, cut to what fits.
    public static func draw(on screen: inout ScreenBuffer) {
        let keyWidth = entries.map { TerminalWidth.columns(ofText: $0.0) }.max() ?? 0
        let textWidth = entries.map { TerminalWidth.columns(ofText: $0.1) }.max() ?? 0
        let width = min(screen.columns, keyWidth + textWidth + 7)
        let height = min(max(0, screen.rows - 1), entries.count + 4)  // the status line stays visible
        guard width >= 12, height >= 3 else { return }
        let x = (screen.columns - width) / 2
        let y = max(0, (screen.rows - 1 - height) / 2)
        let box = RGB(36, 40, 52)
        let text = RGB(225, 228, 235)
        let heading = RGB(170, 200, 255)
        let dim = RGB(140, 145, 160)
        screen.fill(x: x, y: y, width: width, height: height, with: ScreenCell(background: box))
        screen.put(title, x: x + 2, y: y, limit: width - 4, foreground: heading, background: box, bold: true)
        for (index, entry) in entries.prefix(height - 3).enumerated() {
            let row = y + 2 + index
            let isHeading = entry.1.isEmpty
            screen.put(
                entry.0,
                x: x + 2,
                y: row,
                limit: width - 4,
                foreground: isHeading ? heading : text,
                background: box,
                bold: isHeading
            )
            screen.put(
                entry.1,
                x: x + 4 + keyWidth,
                y: row,
                limit: width - keyWidth - 6,
                foreground: dim,
                background: box
            )
        }
    }
}
