// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the screen as a grid of cells, and the escape sequences that turn one frame into the next.

/// A 24-bit colour.
public struct RGB: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A colour from `0xRRGGBB`.
    public init(packed: UInt32) {
        self.init(UInt8((packed >> 16) & 0xFF), UInt8((packed >> 8) & 0xFF), UInt8(packed & 0xFF))
    }
}

/// One character cell: a character and how it is drawn. A two-column character is followed by a cell holding
/// ``continuation``.
public struct ScreenCell: Sendable, Hashable {
    public var character: Character
    /// `nil`: the terminal's default.
    public var foreground: RGB?
    public var background: RGB?
    public var isBold: Bool
    public var isReversed: Bool

    public init(
        _ character: Character = " ",
        foreground: RGB? = nil,
        background: RGB? = nil,
        isBold: Bool = false,
        isReversed: Bool = false
    ) {
        self.character = character
        self.foreground = foreground
        self.background = background
        self.isBold = isBold
        self.isReversed = isReversed
    }

    /// An empty cell in the default colours.
    public static let blank = ScreenCell()

    /// The character of the cell to the right of a two-column character: the terminal covers it, nothing is written.
    public static let continuation: Character = "\u{0}"

    fileprivate var style: Style {
        Style(foreground: foreground, background: background, bold: isBold, reverse: isReversed)
    }

    fileprivate struct Style: Hashable {
        var foreground: RGB?
        var background: RGB?
        var bold: Bool
        var reverse: Bool

        /// Appends `ESC [ 0 ; [1 ;] [7 ;] 38;2;r;g;b ; 48;2;r;g;b m`.
        func append(to bytes: inout [UInt8]) {
            bytes += [0x1B, 0x5B, 0x30]  // ESC [ 0
            if bold { bytes += [0x3B, 0x31] }
            if reverse { bytes += [0x3B, 0x37] }
            if let foreground { Self.append(foreground, selector: 0x33, to: &bytes) }
            if let background { Self.append(background, selector: 0x34, to: &bytes) }
            bytes.append(0x6D)  // m
        }

        /// `;38;2;r;g;b` (selector "3") or `;48;2;r;g;b` (selector "4").
        private static func append(_ color: RGB, selector: UInt8, to bytes: inout [UInt8]) {
            bytes += [0x3B, selector, 0x38, 0x3B, 0x32, 0x3B]
            ScreenBuffer.appendDecimal(Int(color.red), to: &bytes)
            bytes.append(0x3B)
            ScreenBuffer.appendDecimal(Int(color.green), to: &bytes)
            bytes.append(0x3B)
            ScreenBuffer.appendDecimal(Int(color.blue), to: &bytes)
        }
    }
}

/// A rectangle of cells: what the gallery draws each frame, compared with the previous frame to write only what
/// changed (no flicker, little output while a list scrolls under a still status line).
public struct ScreenBuffer: Sendable, Equatable {
    public let columns: Int
    public let rows: Int
    public private(set) var cells: [ScreenCell]

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        self.cells = Array(repeating: .blank, count: self.columns * self.rows)
    }

    public subscript(x: Int, y: Int) -> ScreenCell {
        get { cells[y * columns + x] }
        set {
            guard x >= 0, y >= 0, x < columns, y < rows else { return }
            cells[y * columns + x] = newValue
        }
    }

    /// Writes text from (x, y), cut at `limit` columns and at the edge. A character the terminal draws two columns
    /// wide (CJK, emoji) takes two cells: itself and a ``ScreenCell/continuation`` cell that is never written, since
    /// the terminal's cursor moves past it. One that does not fit whole is left out; a control character shows
    /// as `?`; a zero-width one is dropped.
    public mutating func put(
        _ text: String,
        x: Int,
        y: Int,
        limit: Int = .max,
        foreground: RGB? = nil,
        background: RGB? = nil,
        bold: Bool = false,
        reversed: Bool = false
    ) {
        guard y >= 0, y < rows else { return }
        let end = min(columns, limit == .max ? .max : x + max(0, limit))
        var column = x
        for character in text {
            let width = TerminalWidth.columns(of: character)
            if width == 0 { continue }
            let cells = width == 2 ? 2 : 1
            guard column + cells <= end else { break }
            if column >= 0 {
                let shown: Character = width < 0 ? "?" : character
                let cell = ScreenCell(
                    shown,
                    foreground: foreground,
                    background: background,
                    isBold: bold,
                    isReversed: reversed
                )
                // Half of an old two-column character would be left: the other half becomes a blank.
                if self[column, y].character == ScreenCell.continuation, column > 0 {
                    self[column - 1, y].character = " "
                }
                if column + cells < columns, self[column + cells, y].character == ScreenCell.continuation {
                    self[column + cells, y].character = " "
                }
                self[column, y] = cell
                if cells == 2 {
                    var rest = cell
                    rest.character = ScreenCell.continuation
                    self[column + 1, y] = rest
                }
            }
            column += cells
        }
    }

    /// Fills a rectangle with one cell (clipped to the screen).
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, with cell: ScreenCell) {
        for row in max(0, y)..<min(rows, y + height) {
            for column in max(0, x)..<min(columns, x + width) { self[column, row] = cell }
        }
    }

    /// Copies `art` with its top-left corner at (x, y); rows of the art outside `visibleRows` are not drawn.
    public mutating func draw(_ art: TerminalArt, x: Int, y: Int, visibleRows: Range<Int>) {
        for row in 0..<art.rows where visibleRows.contains(y + row) {
            for column in 0..<art.columns { self[x + column, y + row] = art[column, row] }
        }
    }

    /// The characters of one row, for tests and logs.
    public func text(row: Int) -> String {
        guard row >= 0, row < rows else { return "" }
        return String(
            cells[(row * columns)..<((row + 1) * columns)].map(\.character).filter { $0 != ScreenCell.continuation }
        )
    }

    /// The escape sequences that turn `previous` (what the terminal shows) into this buffer: every cell when
    /// there is no previous frame or its size differs, else only the runs of cells that changed.
    public func output(from previous: ScreenBuffer?) -> String {
        var bytes: [UInt8] = []
        _ = appendOutput(from: previous, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the bytes of ``output(from:)`` to `bytes`, built without intermediate strings (a full frame of
    /// image cells changes colour at nearly every cell); returns the number of cells written.
    @discardableResult
    public func appendOutput(from previous: ScreenBuffer?, to bytes: inout [UInt8]) -> Int {
        let full = previous == nil || previous?.columns != columns || previous?.rows != rows
        let old = full ? nil : previous?.cells
        bytes.reserveCapacity(bytes.count + (full ? cells.count * 24 : 256))
        if full { bytes += [0x1B, 0x5B, 0x30, 0x6D, 0x1B, 0x5B, 0x32, 0x4A] }  // ESC[0m ESC[2J
        var style: ScreenCell.Style?
        var written = 0
        for row in 0..<rows {
            var column = 0
            while column < columns {
                let index = row * columns + column
                if let old, old[index] == cells[index] {
                    column += 1
                    continue
                }
                // ESC [ row ; column H, then the run of changed cells from here.
                bytes += [0x1B, 0x5B]
                Self.appendDecimal(row + 1, to: &bytes)
                bytes.append(0x3B)
                Self.appendDecimal(column + 1, to: &bytes)
                bytes.append(0x48)
                while column < columns {
                    let index = row * columns + column
                    if let old, old[index] == cells[index] { break }
                    let cell = cells[index]
                    if cell.character == ScreenCell.continuation, column > 0,
                        TerminalWidth.columns(of: cells[index - 1].character) == 2
                    {
                        // Covered by the two-column character before it: the terminal's cursor is already past it.
                        column += 1
                        continue
                    }
                    let cellStyle = cell.style
                    if cellStyle != style {
                        cellStyle.append(to: &bytes)
                        style = cellStyle
                    }
                    // A continuation left without its two-column character is a blank.
                    if cell.character == ScreenCell.continuation {
                        bytes.append(0x20)
                    } else {
                        bytes += cell.character.utf8
                    }
                    written += 1
                    column += 1
                }
            }
        }
        bytes += [0x1B, 0x5B, 0x30, 0x6D]  // ESC[0m
        return written
    }

    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &bytes) }
        bytes.append(UInt8(0x30 + value % 10))
    }

}

/// An image drawn with terminal cells (by chafa): `columns` × `rows` cells.
public struct TerminalArt: Sendable, Equatable {
    public let columns: Int
    public let rows: Int
    public let cells: [ScreenCell]

    public init(columns: Int, rows: Int, cells: [ScreenCell]) {
        precondition(cells.count == columns * rows, "art needs columns × rows cells")
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }

    public subscript(x: Int, y: Int) -> ScreenCell { cells[y * columns + x] }
}
