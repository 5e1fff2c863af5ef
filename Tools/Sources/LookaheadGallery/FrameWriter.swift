// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — frames to the terminal: only the cells that changed since the last frame, and the pixel
// images not on screen yet, in one synchronized update.

/// Writes the gallery's frames to the terminal. It keeps the frame the terminal shows, so that the next one writes
/// only the runs of cells that differ, and which pixel images (kitty, sixels, iTerm2) are printed, since those do
/// not belong to any cell and are printed once while the screen keeps them.
///
/// Owned by the gallery and used only by the thread that runs its frame loop.
struct FrameWriter {
    /// A pixel image to print with its top-left corner at cell (x, y). `id` names what it shows (a cell's index,
    /// or a negative number for the detail view), so that it is printed once.
    struct Graphic {
        let id: Int
        let x: Int
        let y: Int
        let text: String
    }

    /// A frame: the screen, and the pixel images over it.
    struct Frame {
        var screen: ScreenBuffer
        var graphics: [Graphic] = []
    }

    private let terminal: Terminal
    private let graphics: GraphicsMode
    /// What the terminal shows; `nil` writes the next frame whole, and clears the pixel images.
    var previous: ScreenBuffer?
    private var shownGraphics: Set<Int> = []
    /// Milliseconds spent writing to the terminal, for frames that wrote anything.
    private(set) var writeTime: [Double] = []

    init(terminal: Terminal, graphics: GraphicsMode) {
        self.terminal = terminal
        self.graphics = graphics
    }

    /// Writes what changed since the last frame, and the pixel images not on screen yet, in one synchronized
    /// update.
    mutating func write(_ frame: Frame) {
        var output: [UInt8] = Array("\u{1B}[?2026h".utf8)
        var changed = frame.screen.appendOutput(from: previous, to: &output) > 0
        if graphics != .symbols {
            if previous == nil {
                if graphics == .kitty { output += Array("\u{1B}_Ga=d\u{1B}\\".utf8) }
                shownGraphics.removeAll()
            }
            for graphic in frame.graphics where !shownGraphics.contains(graphic.id) {
                output += Array("\u{1B}[\(graphic.y + 1);\(graphic.x + 1)H\(graphic.text)".utf8)
                shownGraphics.insert(graphic.id)
                changed = true
            }
        }
        output += Array("\u{1B}[?2026l".utf8)
        if changed {
            let start = ContinuousClock.now
            terminal.write(bytes: output)
            if writeTime.count < 1_000_000 { writeTime.append(start.duration(to: .now).seconds * 1000) }
        }
        previous = frame.screen
    }

    /// The cells no longer show what they did: their pixel images are printed again once they have new ones.
    mutating func forgetGraphics(ofCells cells: [Int]) {
        for cell in cells { shownGraphics.remove(cell) }
    }
}
