// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the interactive gallery's list or grid drawn into a ScreenBuffer: each visible item's image
// or placeholder and its caption, the log pane and the status line.

@_spi(Simulation) import Lookahead

/// Turns the state of the gallery's list into a frame: what the cells show at the navigator's scroll offset, and
/// the counters of the loads and the frames. The detail view draws with its colours and labels too.
///
/// Owned by the gallery and used only by the thread that runs its frame loop.
struct GalleryRenderer {
    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    static let dim = RGB(90, 90, 100)
    private static let placeholder = RGB(44, 44, 52)
    private static let progressColor = RGB(120, 170, 255)
    static let failure = RGB(230, 90, 90)

    private let log: GalleryLog
    private let options: InteractiveGallery.Options

    init(log: GalleryLog, options: InteractiveGallery.Options) {
        self.log = log
        self.options = options
    }

    /// The list or grid at the navigator's scroll offset: each visible item's image (or its placeholder, with its
    /// download's progress or a spinner) and caption, then the log pane and the status line.
    func listFrame(
        navigator: GalleryNavigator,
        cells: GalleryCells,
        spinnerPhase: Int,
        notice: String?,
        lateFrames: Int
    ) -> FrameWriter.Frame {
        let layout = navigator.layout
        var screen = blankScreen(layout)
        let offset = navigator.drawOffset
        var graphics: [FrameWriter.Graphic] = []
        for item in navigator.visibleItems {
            let origin = layout.origin(of: item)
            let y = origin.y - offset
            let cell = cells.cell(showing: item)
            if let graphic = drawTile(
                &screen,
                item: item,
                cell: cell,
                origin: (origin.x, y),
                navigator: navigator,
                spinnerPhase: spinnerPhase
            ) {
                graphics.append(graphic)
            }
            drawCaption(
                &screen,
                item: item,
                cell: cell,
                origin: (origin.x, y),
                navigator: navigator,
                items: cells.items
            )
        }
        drawLogPane(&screen, layout: layout)
        drawStatusLine(&screen, navigator: navigator, cells: cells, notice: notice, lateFrames: lateFrames)
        return FrameWriter.Frame(screen: screen, graphics: graphics)
    }

    /// An item's image, or its placeholder (with its download's progress, a spinner or a failure's ✗), on screen
    /// from `origin`. Returns the terminal graphic to place, for an image drawn with terminal graphics.
    private func drawTile(
        _ screen: inout ScreenBuffer,
        item: Int,
        cell: GalleryCells.Cell?,
        origin: (x: Int, y: Int),
        navigator: GalleryNavigator,
        spinnerPhase: Int
    ) -> FrameWriter.Graphic? {
        let layout = navigator.layout
        let (x, y) = origin
        let content = 0..<layout.contentHeight
        let middle = y + layout.imageLines / 2
        switch cell?.display {
        case .image(let art?, _, _):
            screen.draw(art, x: x, y: y, visibleRows: content)
        case .image(nil, let text?, _):
            clipFill(&screen, x: x, y: y, layout: layout, color: options.background)
            if y >= 0, y + layout.imageLines <= layout.contentHeight, !navigator.isAnimating, let cell {
                return FrameWriter.Graphic(id: cell.index, x: x, y: y, text: text)
            }
        case .failed:
            clipFill(&screen, x: x, y: y, layout: layout, color: Self.placeholder)
            if content.contains(middle) {
                screen.put(
                    "✗",
                    x: x + layout.imageColumns / 2,
                    y: middle,
                    foreground: Self.failure,
                    background: Self.placeholder
                )
            }
        default:
            clipFill(&screen, x: x, y: y, layout: layout, color: Self.placeholder)
            guard content.contains(middle) else { break }
            if let progress = cell?.progress, let expected = progress.expected, expected > 0, layout.imageColumns >= 6 {
                // A download under way: how much of it has arrived, across the tile.
                let width = layout.imageColumns - 2
                let filled = Int(Double(width) * min(1, Double(progress.received) / Double(expected)))
                screen.put(
                    String(repeating: "━", count: filled) + String(repeating: "─", count: width - filled),
                    x: x + 1,
                    y: middle,
                    foreground: Self.progressColor,
                    background: Self.placeholder
                )
            } else {
                let glyph = Self.spinner[(spinnerPhase + item) % Self.spinner.count]
                screen.put(
                    String(glyph),
                    x: x + layout.imageColumns / 2,
                    y: middle,
                    foreground: Self.dim,
                    background: Self.placeholder
                )
            }
        }
        return nil
    }

    /// A screen of the gallery's size, cleared to its background.
    func blankScreen(_ layout: GalleryLayout) -> ScreenBuffer {
        var screen = ScreenBuffer(columns: layout.columns, rows: layout.rows)
        screen.fill(
            x: 0,
            y: 0,
            width: layout.columns,
            height: layout.rows,
            with: ScreenCell(background: options.background)
        )
        return screen
    }

    private func clipFill(_ screen: inout ScreenBuffer, x: Int, y: Int, layout: GalleryLayout, color: RGB) {
        let top = max(0, y)
        let bottom = min(layout.contentHeight, y + layout.imageLines)
        guard top < bottom else { return }
        screen.fill(x: x, y: top, width: layout.imageColumns, height: bottom - top, with: ScreenCell(background: color))
    }

    private func drawCaption(
        _ screen: inout ScreenBuffer,
        item: Int,
        cell: GalleryCells.Cell?,
        origin: (x: Int, y: Int),
        navigator: GalleryNavigator,
        items: [GalleryItem]
    ) {
        let layout = navigator.layout
        let selected = item == navigator.selection
        switch layout.mode {
        case .list:
            drawListCaption(
                &screen,
                title: "Hello \(item + 1)",
                subtitle: Self.subtitle(of: items[item].title, row: item + 1),
                detail: captionDetail(of: cell),
                origin: origin,
                layout: layout,
                selected: selected
            )
        case .grid:
            let y = origin.y + layout.imageLines
            guard (0..<layout.contentHeight).contains(y) else { return }
            // A failed tile keeps its name, in the failure colour; the ✗ on the tile says what happened.
            let failed: Bool
            if case .failed = cell?.display { failed = true } else { failed = false }
            screen.put(
                items[item].title,
                x: origin.x,
                y: y,
                limit: layout.imageColumns,
                foreground: failed ? Self.failure : nil,
                background: options.background,
                reversed: selected
            )
        }
    }

    /// A list row's caption, beside its image: the title (and the rest of the item's title, dimmed), then the
    /// detail line under it.
    private func drawListCaption(
        _ screen: inout ScreenBuffer,
        title: String,
        subtitle: String?,
        detail: (text: String, color: RGB),
        origin: (x: Int, y: Int),
        layout: GalleryLayout,
        selected: Bool
    ) {
        let content = 0..<layout.contentHeight
        let background = options.background
        let x = origin.x + layout.imageColumns + 2
        let titleLine = origin.y + max(0, layout.imageLines / 2 - 1)
        if content.contains(titleLine) {
            screen.put(
                title,
                x: x,
                y: titleLine,
                limit: layout.columns - x - 1,
                background: background,
                bold: true,
                reversed: selected
            )
            if let subtitle {
                screen.put(
                    "  " + subtitle,
                    x: x + title.count,
                    y: titleLine,
                    limit: layout.columns - x - title.count - 1,
                    foreground: Self.dim,
                    background: background
                )
            }
        }
        if content.contains(titleLine + 1) {
            screen.put(
                detail.text,
                x: x,
                y: titleLine + 1,
                limit: layout.columns - x - 1,
                foreground: detail.color,
                background: background
            )
        }
    }

    /// The caption's second line: where the image came from and its size, what it waits for, or why it failed.
    private func captionDetail(of cell: GalleryCells.Cell?) -> (String, RGB) {
        switch cell?.display {
        case .image where cell?.isPreview == true:
            return ("sharpening… (progressive JPEG)", Self.dim)
        case .image(_, _, let cache):
            let size = cell?.request?.url.flatMap(log.downloadedBytes(of:)).map { " · \(($0 + 1023) / 1024) KB" }
            return (Self.sourceLabel(cache) + (size ?? ""), Self.dim)
        case .failed(let message, let retryable):
            return (retryable ? "✗ \(message) — Enter retries" : "✗ \(message)", Self.failure)
        default:
            return ("loading…", Self.dim)
        }
    }

    private func drawLogPane(_ screen: inout ScreenBuffer, layout: GalleryLayout) {
        guard layout.logLines > 0 else { return }
        let top = layout.contentHeight
        screen.put(
            String(repeating: "─", count: layout.columns),
            x: 0,
            y: top,
            foreground: Self.dim,
            background: options.background
        )
        for (index, line) in log.recentLines(layout.logLines).enumerated() {
            screen.put(
                line,
                x: 1,
                y: top + 1 + index,
                limit: layout.columns - 2,
                foreground: Self.dim,
                background: options.background
            )
        }
    }

    private func drawStatusLine(
        _ screen: inout ScreenBuffer,
        navigator: GalleryNavigator,
        cells: GalleryCells,
        notice: String?,
        lateFrames: Int
    ) {
        let layout = navigator.layout
        let counters = log.snapshot
        let visible = navigator.visibleItems
        let range = visible.isEmpty ? "–" : "\(visible.lowerBound + 1)–\(visible.upperBound)"
        var parts = [
            "\(layout.mode.rawValue)",
            "items \(cells.items.count)",
            "visible \(range)",
            "prefetch \(cells.loader.controller.prefetched.count)",
            "↓ \(counters.downloadsInFlight) in flight",
            "hits mem \(cells.memoryHits) disk \(counters.diskHits)",
            "failed \(cells.failures)",
            "late \(lateFrames)",
        ]
        if let notice { parts.insert(notice, at: 0) }
        // The key hints that fit, longest first; "? help" always does (the overlay lists every key).
        let text = " " + parts.joined(separator: " · ")
        let hints = [
            "q quit · g \(layout.mode == .list ? "grid" : "list") · r refresh · ⏎ open · ? help",
            "q quit · ? help", "? help",
        ]
        let room = layout.columns - 1
        let keys = hints.first { TerminalWidth.columns(ofText: text) + 3 + TerminalWidth.columns(ofText: $0) <= room }
        let line: String
        if let keys {
            line = text + "   " + keys
        } else {
            // Too narrow for the counters and a hint: the counters give way, the hint stays at the right.
            let hint = " ? help "
            let counters = String(text.prefix(max(0, room - hint.count - 1)))
            line = counters + String(repeating: " ", count: max(1, room - counters.count - hint.count + 1)) + hint
        }
        let y = layout.rows - 1
        screen.fill(
            x: 0,
            y: y,
            width: layout.columns,
            height: 1,
            with: ScreenCell(foreground: RGB(20, 20, 24), background: RGB(170, 200, 255))
        )
        screen.put(line, x: 0, y: y, limit: layout.columns, foreground: RGB(20, 20, 24), background: RGB(170, 200, 255))
    }

    /// What an item's title adds to "Hello n": `nil` when it is just that, the rest when it starts with "Hello n · "
    /// (the embedded server's showcase items), else the whole title (a photo's name).
    static func subtitle(of title: String, row: Int) -> String? {
        let plain = "Hello \(row)"
        if title == plain { return nil }
        if title.hasPrefix(plain + " · ") { return String(title.dropFirst(plain.count + 3)) }
        return title
    }

    /// Where an image came from, in words.
    static func sourceLabel(_ cache: ImageResponse.CacheType?) -> String {
        cache == .memory ? "from memory" : cache == .disk ? "from disk" : "downloaded"
    }
}
