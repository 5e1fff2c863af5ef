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

/// One character cell: a character (one column wide) and how it is drawn.
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

    fileprivate var style: Style {
        Style(foreground: foreground, background: background, bold: isBold, reverse: isReversed)
    }

    fileprivate struct Style: Hashable {
        var foreground: RGB?
        var background: RGB?
        var bold: Bool
        var reverse: Bool

        var sequence: String {
            var parameters = ["0"]
            if bold { parameters.append("1") }
            if reverse { parameters.append("7") }
            if let foreground { parameters.append("38;2;\(foreground.red);\(foreground.green);\(foreground.blue)") }
            if let background { parameters.append("48;2;\(background.red);\(background.green);\(background.blue)") }
            return "\u{1B}[" + parameters.joined(separator: ";") + "m"
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

    /// Writes text from (x, y), one column per character, cut at `limit` columns and at the edge. Characters that
    /// a terminal draws two columns wide are replaced with `?`, so the grid stays aligned.
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
        var column = x
        for character in text {
            guard column - x < limit, column < columns else { break }
            if column >= 0 {
                let safe = Self.isSingleWidth(character) ? character : "?"
                self[column, y] = ScreenCell(
                    safe,
                    foreground: foreground,
                    background: background,
                    isBold: bold,
                    isReversed: reversed
                )
            }
            column += 1
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
        return String(cells[(row * columns)..<((row + 1) * columns)].map(\.character))
    }

    /// The escape sequences that turn `previous` (what the terminal shows) into this buffer: every cell when
    /// there is no previous frame or its size differs, else only the runs of cells that changed.
    public func output(from previous: ScreenBuffer?) -> String {
        let full = previous == nil || previous?.columns != columns || previous?.rows != rows
        var out = full ? "\u{1B}[0m\u{1B}[2J" : ""
        var style: ScreenCell.Style?
        for row in 0..<rows {
            var column = 0
            while column < columns {
                let index = row * columns + column
                if !full, let previous, previous.cells[index] == cells[index] {
                    column += 1
                    continue
                }
                out += "\u{1B}[\(row + 1);\(column + 1)H"
                // Write the run of changed cells from here.
                while column < columns {
                    let index = row * columns + column
                    if !full, let previous, previous.cells[index] == cells[index] { break }
                    let cell = cells[index]
                    if cell.style != style {
                        out += cell.style.sequence
                        style = cell.style
                    }
                    out.append(cell.character)
                    column += 1
                }
            }
        }
        return out + "\u{1B}[0m"
    }

    /// Whether a terminal draws the character in one column (ASCII, Latin, box drawing, blocks, braille, arrows
    /// and geometric shapes; not emoji, CJK or combining sequences).
    static func isSingleWidth(_ character: Character) -> Bool {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0x2FF, 0x370...0x52F, 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x21FF,
            0x2200...0x22FF, 0x2500...0x25FF, 0x2800...0x28FF, 0x2713, 0x2717, 0x2022:
            return true
        default:
            return false
        }
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
