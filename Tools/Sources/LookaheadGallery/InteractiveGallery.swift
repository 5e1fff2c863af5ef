// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the full-screen terminal gallery: a frame loop on a thread of its own, cells bound with
// ImageSlot through a ListImageLoader, which also prefetches, images drawn by chafa off the loop.

import Foundation
import Lookahead
import Synchronization

/// The interactive gallery. ``run()`` blocks its thread — the gallery's "main thread" — until the user quits.
///
/// Each frame: take the keys and the slot changes that arrived, move the scroll, tell the ``ListImageLoader`` the
/// visible items (it moves its prefetch window and prefetches), unbind the cells of the items that left (their
/// loads go on as prefetches while near the screen), bind cells to the items that came (an ``ImageSlot`` each; a
/// memory hit shows in the same frame), then draw the screen into a ``ScreenBuffer`` and write only the cells that
/// changed. Nothing in the loop waits: decoding runs in the pipeline, drawing images with chafa on a queue of its
/// own.
// SAFETY: every mutable property is used only by the thread that calls `run()` (after `init` hands the object
// over); other threads reach the gallery through `inbox` (a Mutex) and the pipeline's thread-safe types.
public final class InteractiveGallery: @unchecked Sendable {
    public struct Options: Sendable {
        public var mode = GalleryMode.list
        public var graphics = GraphicsMode.symbols
        /// Lines of the log pane; 0 hides it.
        public var logLines = 0
        public var framesPerSecond = 60
        /// The colour behind everything (images with transparency are composited over it).
        public var background = RGB(24, 24, 28)

        public init() {}
    }

    /// What the gallery did, for the line printed after it quits.
    public struct Summary: Sendable {
        public var frames = 0
        public var lateFrames = 0
        public var memoryHits = 0
        public var failures = 0
        /// Milliseconds of work per frame (input, layout, binding cells, drawing, writing), in frame order.
        public var frameWork: [Double] = []
        /// Of that, milliseconds spent writing to the terminal, for frames that wrote anything.
        public var writeTime: [Double] = []

        /// A percentile of the frame work (0…1), milliseconds.
        public func frameWork(percentile: Double) -> Double {
            Self.percentile(percentile, of: frameWork)
        }

        /// A percentile (0…1) of `values`; 0 for none.
        public static func percentile(_ percentile: Double, of values: [Double]) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * percentile).rounded()))]
        }
    }

    enum Message: Sendable {
        case keys([Key])
        case slot(cell: Int, ImageSlot.State)
        case progress(cell: Int, key: ImageCacheKey, received: Int64, expected: Int64?)
        /// The art of a cell's image, or of a preview of it (a progressive JPEG's scans so far).
        case art(cell: Int, key: ImageCacheKey, art: TerminalArt?, graphics: String?, isPreview: Bool)
        case items([GalleryItem])
        case itemsFailed(String)
        case signal(Int32)
        case detail(task: Int, DetailEvent)
    }

    enum Display {
        case loading
        case image(TerminalArt?, graphics: String?, cache: ImageResponse.CacheType?)
        /// The short reason, and whether loading again can help (not for bytes that are not an image).
        case failed(String, retryable: Bool)
    }

    private struct Cell {
        let slot: ImageSlot
        var item: Int?
        var request: ImageRequest?
        var display = Display.loading
        /// The download's bytes received and expected, while loading.
        var progress: (received: Int64, expected: Int64?)?
        /// Whether the cell shows a preview: the image is still sharpening.
        var isPreview = false
    }

    let pipeline: ImagePipeline
    private let loader: ListImageLoader
    private let terminal: Terminal
    private let log: GalleryLog
    let options: Options
    private let reload: @Sendable () async throws(GallerySource.Failure) -> [GalleryItem]
    let inbox = Inbox<Message>()
    let renderQueue = DispatchQueue(label: "Lookahead.Gallery.render", attributes: .concurrent)

    var items: [GalleryItem]
    var navigator: GalleryNavigator
    private var cells: [Cell] = []
    private var boundCells: [Int: Int] = [:]  // item → cell
    private var requests: [Int: ImageRequest] = [:]
    private var artCache: [ImageCacheKey: (art: TerminalArt?, graphics: String?)] = [:]
    private var artOrder: [ImageCacheKey] = []
    var previous: ScreenBuffer?
    private var summary = Summary()
    var spinnerPhase = 0
    private var notice: String?
    private var isRefreshing = false
    private var shownGraphics: Set<Int> = []
    var isShowingHelp = false
    var detail: Detail?
    private var drawnLogChanges = -1
    private let start = ContinuousClock.now

    public init(
        pipeline: ImagePipeline,
        items: [GalleryItem],
        terminal: Terminal,
        log: GalleryLog,
        options: Options,
        reload: @escaping @Sendable () async throws(GallerySource.Failure) -> [GalleryItem]
    ) {
        self.pipeline = pipeline
        self.loader = ListImageLoader(pipeline: pipeline, itemCount: items.count)
        self.terminal = terminal
        self.log = log
        self.options = options
        self.reload = reload
        self.items = items
        let size = Terminal.size() ?? (80, 24)
        let layout = GalleryLayout(
            mode: options.mode,
            columns: size.columns,
            rows: size.rows,
            logLines: options.logLines
        )
        self.navigator = GalleryNavigator(layout: layout, itemCount: items.count)
    }

    /// Runs until `q`, Ctrl-C, SIGINT/SIGTERM/SIGHUP or the end of input; the terminal is restored on return.
    public func run() throws -> Summary {
        let inbox = inbox
        try terminal.start { signal in inbox.post(.signal(signal)) }
        defer { terminal.restore() }
        let stop = StopFlag()
        terminal.readKeys(onKeys: { inbox.post(.keys($0)) }, shouldStop: { stop.isSet })
        let frame = Duration.nanoseconds(1_000_000_000 / Int64(max(1, options.framesPerSecond)))
        let clock = ContinuousClock()
        var last = clock.now
        var deadline = clock.now
        var running = true
        var needsDraw = true
        var drewLast = false
        while running {
            let now = clock.now
            let elapsed = last.duration(to: now)
            last = now
            let (keepRunning, changed) = handleMessages()
            running = keepRunning
            needsDraw = needsDraw || changed
            if terminal.takeResize(), let size = Terminal.size() {
                relayout(columns: size.columns, rows: size.rows)
                needsDraw = true
            }
            if navigator.advance(by: elapsed.seconds) {
                needsDraw = true
                if options.graphics != .symbols { previous = nil }  // pixels do not scroll with the text
            }
            if bindVisibleCells() { needsDraw = true }
            // The spinner turns at 10 Hz, and only while a visible cell waits for its image.
            let phase = Int(start.duration(to: now).seconds * 10)
            if phase != spinnerPhase, isWaitingForVisibleImages { needsDraw = true }
            spinnerPhase = phase
            if log.changeCount != drawnLogChanges { needsDraw = true }
            // An animation in the detail view: its next frame, when due.
            let animation = advanceDetailAnimation(now: now)
            if animation.changed { needsDraw = true }
            // Nothing changed: no frame. An idle gallery draws nothing and waits for a message (a key, a load).
            if needsDraw, running {
                if !drewLast { deadline = now }
                drawnLogChanges = log.changeCount
                draw()
                needsDraw = false
                summary.frames += 1
                deadline = deadline.advanced(by: frame)
                let after = clock.now
                if summary.frameWork.count < 1_000_000 {
                    summary.frameWork.append(now.duration(to: after).seconds * 1000)
                }
                // Late: the frame's work ran past the next frame's start, so the screen skipped a frame.
                if after > deadline.advanced(by: frame) {
                    summary.lateFrames += 1
                    deadline = after
                }
                drewLast = true
                // At most one frame per frame interval, however many messages arrive.
                if after < deadline { Thread.sleep(forTimeInterval: after.duration(to: deadline).seconds) }
            } else if running {
                drewLast = false
                if navigator.isAnimating {
                    Thread.sleep(forTimeInterval: frame.seconds)
                } else {
                    // Resizes are a flag (SIGWINCH), log lines are not messages: look again within 250 ms.
                    // A playing animation wakes the loop when its next frame is due.
                    let timeout: Duration = isWaitingForVisibleImages ? .milliseconds(100) : .milliseconds(250)
                    inbox.wait(timeout: min(timeout, max(.milliseconds(1), animation.nextIn ?? timeout)))
                }
            }
        }
        stop.set()
        loader.stop()
        return summary
    }

    // MARK: - Messages

    /// Applies what arrived since the last frame: `running` is `false` to quit, `changed` whether anything did.
    private func handleMessages() -> (running: Bool, changed: Bool) {
        let messages = inbox.take()
        for message in messages {
            switch message {
            case .keys(let keys):
                for key in keys {
                    if isShowingHelp {
                        // The overlay takes the keys: ?, Esc and Enter close it, q and Ctrl-C still quit.
                        switch key {
                        case .character("q"), .interrupt: return (false, true)
                        case .character("?"), .escape, .enter: isShowingHelp = false
                        default: break
                        }
                        continue
                    }
                    if detail != nil {
                        // The detail view takes the keys: Esc and q go back to the list, Enter retries a failure.
                        switch key {
                        case .interrupt: return (false, true)
                        case .escape, .character("q"): closeDetail()
                        case .enter: retryDetail()
                        case .character("?"): isShowingHelp = true
                        default: break
                        }
                        continue
                    }
                    switch navigator.handle(key) {
                    case .quit: return (false, true)
                    case .toggleMode: toggleMode()
                    case .refresh: refresh()
                    case .activate(let item): activate(item)
                    case .help: isShowingHelp = true
                    case .escape, nil: break
                    }
                }
            case .signal:
                return (false, true)
            case .progress(let cell, let key, let received, let expected):
                guard cells[cell].request?.imageKey == key, case .loading = cells[cell].display else { continue }
                cells[cell].progress = (received, expected)
            case .slot(let cell, let state):
                apply(state, to: cell)
            case .art(let cell, let key, let art, let graphics, let isPreview):
                // A preview's art is never kept: the final image replaces it.
                if !isPreview { remember(art: art, graphics: graphics, for: key) }
                guard cells[cell].request?.imageKey == key, cells[cell].isPreview == isPreview,
                    case .image(_, _, let cache) = cells[cell].display
                else {
                    continue
                }
                cells[cell].display = .image(art, graphics: graphics, cache: cache)
            case .items(let newItems):
                isRefreshing = false
                notice = nil
                // The memory cache is emptied before the cells bind again (`replaceItems` unbinds and rebinds), and
                // failures are forgotten: a refresh is an explicit retry of every row, not held back by the backoff.
                pipeline.configuration.memoryCache?.removeAll()
                pipeline.forgetAllFailures()
                artCache.removeAll()
                artOrder.removeAll()
                replaceItems(newItems)
            case .itemsFailed(let message):
                isRefreshing = false
                notice = message
            case .detail(let task, let event):
                apply(event, toDetailTask: task)
            }
        }
        return (true, !messages.isEmpty)
    }

    /// Whether a visible item still shows its placeholder (a spinner to turn).
    private var isWaitingForVisibleImages: Bool {
        if let detail {
            if case .loading = detail.display { return true }
            return false
        }
        return navigator.visibleItems.contains { item in
            guard let cell = boundCells[item] else { return true }
            if case .loading = cells[cell].display { return true }
            return false
        }
    }

    private func apply(_ state: ImageSlot.State, to cell: Int) {
        // A change for an earlier request of a reused cell is dropped.
        guard let request = cells[cell].request, state.request?.imageKey == request.imageKey else { return }
        switch state {
        case .loading:
            cells[cell].display = .loading
            cells[cell].progress = nil
            cells[cell].isPreview = false
        case .preview(let image, _):
            // A progressive JPEG's scans so far: drawn like the image, the earlier preview kept until this one is.
            var showsPreview = false
            if case .image = cells[cell].display { showsPreview = cells[cell].isPreview }
            if !showsPreview { cells[cell].display = .image(nil, graphics: nil, cache: nil) }
            cells[cell].isPreview = true
            render(image, key: request.imageKey, cell: cell, isPreview: true)
        case .loaded(let image, _, let cache):
            cells[cell].isPreview = false
            if cache == .memory { summary.memoryHits += 1 }
            if let cached = artCache[request.imageKey] {
                cells[cell].display = .image(cached.art, graphics: cached.graphics, cache: cache)
            } else {
                cells[cell].display = .image(nil, graphics: nil, cache: cache)
                render(image, key: request.imageKey, cell: cell)
            }
        case .failed(let error, _):
            summary.failures += 1
            cells[cell].display = .failed(Self.shortDescription(error), retryable: Self.isRetryable(error))
            log.line("❌ Row \((cells[cell].item ?? 0) + 1) failed: \(error)")
        case .empty:
            break
        }
    }

    /// Draws an image with chafa on the render queue; the result comes back as a message.
    private func render(_ image: Bitmap, key: ImageCacheKey, cell: Int, isPreview: Bool = false) {
        let layout = navigator.layout
        let columns = layout.imageColumns
        let rows = layout.imageLines
        let graphics = options.graphics
        let background = options.background
        let inbox = inbox
        renderQueue.async {
            let drawn = Self.drawing(image, columns: columns, rows: rows, graphics: graphics, background: background)
            inbox.post(.art(cell: cell, key: key, art: drawn.art, graphics: drawn.graphics, isPreview: isPreview))
        }
    }

    /// An image drawn for the terminal, on the render queue: cells of Unicode blocks, or one pixel-graphics
    /// escape sequence (kitty, sixels, iTerm2).
    static func drawing(_ image: Bitmap, columns: Int, rows: Int, graphics: GraphicsMode, background: RGB)
        -> (art: TerminalArt?, graphics: String?)
    {
        if graphics == .symbols {
            return (ChafaRenderer.art(image, columns: columns, rows: rows, background: background), nil)
        }
        return (nil, ChafaRenderer.graphics(image, columns: columns, rows: rows, mode: graphics, cellSize: (10, 20)))
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

    /// A screen of the gallery's size, cleared to its background.
    func blankScreen() -> ScreenBuffer {
        let layout = navigator.layout
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

    private func remember(art: TerminalArt?, graphics: String?, for key: ImageCacheKey) {
        if artCache.updateValue((art, graphics), forKey: key) == nil { artOrder.append(key) }
        if artOrder.count > 400 {
            for old in artOrder.prefix(100) { artCache[old] = nil }
            artOrder.removeFirst(100)
        }
    }

    // MARK: - Cells

    /// The request of an item at the current layout, built once: the prefetch wish list asks for every row in
    /// the window on every frame. Emptied when the layout or the items change.
    private func request(for item: Int) -> ImageRequest {
        if let request = requests[item] { return request }
        let request = makeRequest(for: item)
        requests[item] = request
        return request
    }

    private func makeRequest(for item: Int) -> ImageRequest {
        let layout = navigator.layout
        // Chafa resolves a symbol cell from about 8×8 pixels; terminal cells are twice as tall as wide.
        let width = layout.imageColumns * 8
        let height = layout.imageLines * 16
        var processors: [any ImageProcessing] = []
        if options.graphics != .symbols { processors.append(ImageProcessors.RoundedCorners(radius: 12)) }
        return ImageRequest(
            url: items[item].imageURL(width),
            thumbnail: ThumbnailOptions(width: width, height: height, contentMode: .aspectFill),
            processors: processors
        )
    }

    /// As UIKit calls them: the scroll (the loader moves its window, prefetches, and starts the loads a fling held
    /// back), then the cells that ended displaying, then the ones that will display.
    /// Returns whether a cell was bound or unbound.
    private func bindVisibleCells() -> Bool {
        let visible = navigator.visibleItems
        // The scroll position in items, fractional: the loader's speed estimate then follows the scroll smoothly.
        let layout = navigator.layout
        let position = navigator.offset / Double(max(1, layout.itemHeight)) * Double(layout.itemsPerRow)
        let update = loader.visibleRowsChanged(visible, position: position) { request(for: $0) }
        for line in update.logMessages { log.line(line) }
        var changed = false
        for (item, cell) in boundCells where !visible.contains(item) {
            unbind(item, cell: cell)
            changed = true
        }
        for item in visible where boundCells[item] == nil {
            bind(item)
            changed = true
        }
        return changed
    }

    private func bind(_ item: Int) {
        let cell = cells.indices.first { cells[$0].item == nil } ?? makeCell()
        let request = request(for: item)
        cells[cell].item = item
        cells[cell].request = request
        cells[cell].display = .loading
        cells[cell].isPreview = false
        cells[cell].progress = nil
        boundCells[item] = cell
        log.line("🔄 Cell configured for row \(item + 1)")
        // A memory hit changes the state inside bind; its message is applied on the next frame, but the art cache
        // lets the image show at once. A miss loads at once, or once a fling slows down.
        loader.bind(row: item, request: request, to: cells[cell].slot)
        if case .loaded(_, _, let cache) = cells[cell].slot.state, let cached = artCache[request.imageKey] {
            cells[cell].display = .image(cached.art, graphics: cached.graphics, cache: cache)
        }
    }

    private func unbind(_ item: Int, cell: Int) {
        boundCells[item] = nil
        cells[cell].item = nil
        cells[cell].request = nil
        cells[cell].display = .loading
        cells[cell].isPreview = false
        cells[cell].progress = nil
        shownGraphics.remove(cell)
        // A running load goes on as a prefetch; the loader's window decides when to give it up.
        loader.unbind(row: item)
    }

    private func makeCell() -> Int {
        let index = cells.count
        let inbox = inbox
        let slot = ImageSlot(
            pipeline: pipeline,
            onProgress: { request, received, expected in
                inbox.post(.progress(cell: index, key: request.imageKey, received: received, expected: expected))
            }
        ) { state in inbox.post(.slot(cell: index, state)) }
        cells.append(Cell(slot: slot))
        return index
    }

    private func unbindAll() {
        for (item, cell) in boundCells { unbind(item, cell: cell) }
    }

    // MARK: - Commands

    private func toggleMode() {
        var layout = navigator.layout
        layout.mode = layout.mode == .list ? .grid : .list
        unbindAll()
        requests.removeAll()
        navigator.relayout(layout)
        previous = nil
    }

    private func relayout(columns: Int, rows: Int) {
        var layout = navigator.layout
        layout.columns = max(1, columns)
        layout.rows = max(1, rows)
        unbindAll()
        requests.removeAll()
        navigator.relayout(layout)
        previous = nil
    }

    /// Enter: a loaded image opens in the detail view; a failed row is retried explicitly, so the slot loads at once,
    /// past the pipeline's failure backoff.
    private func activate(_ item: Int) {
        guard let cell = boundCells[item] else { return }
        switch cells[cell].display {
        case .image: openDetail(item)
        case .failed(_, retryable: true):
            cells[cell].display = .loading
            cells[cell].isPreview = false
            cells[cell].progress = nil
            cells[cell].slot.retry()
        default: break
        }
    }

    /// The pull-to-refresh counterpart: the items are listed again (every page); when they arrive, the memory cache is
    /// emptied and every cell loads anew (from the disk cache or the network). The old rows stay until then.
    private func refresh() {
        guard !isRefreshing else { return }
        isRefreshing = true
        notice = "refreshing…"
        let inbox = inbox
        let reload = reload
        Task.detached {
            do throws(GallerySource.Failure) {
                inbox.post(.items(try await reload()))
            } catch {
                inbox.post(.itemsFailed("refresh failed: \(error.description)"))
            }
        }
    }

    private func replaceItems(_ newItems: [GalleryItem]) {
        unbindAll()
        items = newItems
        requests.removeAll()
        navigator.itemCountChanged(newItems.count)
        let update = loader.itemCountChanged(newItems.count) { request(for: $0) }
        for line in update.logMessages { log.line(line) }
        previous = nil
    }

    // MARK: - Drawing

    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    static let dim = RGB(90, 90, 100)
    private static let placeholder = RGB(44, 44, 52)
    static let progressColor = RGB(120, 170, 255)
    static let failure = RGB(230, 90, 90)

    private func draw() {
        if detail != nil {
            drawDetail()
            return
        }
        let layout = navigator.layout
        var screen = blankScreen()
        let offset = navigator.drawOffset
        let content = 0..<layout.contentHeight
        var graphicsToShow: [(cell: Int, x: Int, y: Int, text: String)] = []
        for item in navigator.visibleItems {
            let origin = layout.origin(of: item)
            let y = origin.y - offset
            let cell = boundCells[item].map { cells[$0] }
            // The image, or its placeholder.
            switch cell?.display {
            case .image(let art?, _, _):
                screen.draw(art, x: origin.x, y: y, visibleRows: content)
            case .image(nil, let graphics?, _):
                clipFill(&screen, x: origin.x, y: y, layout: layout, color: options.background)
                if y >= 0, y + layout.imageLines <= layout.contentHeight, !navigator.isAnimating,
                    let index = boundCells[item]
                {
                    graphicsToShow.append((index, origin.x, y, graphics))
                }
            case .failed:
                clipFill(&screen, x: origin.x, y: y, layout: layout, color: Self.placeholder)
                let middle = y + layout.imageLines / 2
                if content.contains(middle) {
                    screen.put(
                        "✗",
                        x: origin.x + layout.imageColumns / 2,
                        y: middle,
                        foreground: Self.failure,
                        background: Self.placeholder
                    )
                }
            default:
                clipFill(&screen, x: origin.x, y: y, layout: layout, color: Self.placeholder)
                let middle = y + layout.imageLines / 2
                if content.contains(middle), let progress = cell?.progress, let expected = progress.expected,
                    expected > 0, layout.imageColumns >= 6
                {
                    // A download under way: how much of it has arrived, across the tile.
                    let width = layout.imageColumns - 2
                    let filled = Int(Double(width) * min(1, Double(progress.received) / Double(expected)))
                    screen.put(
                        String(repeating: "━", count: filled) + String(repeating: "─", count: width - filled),
                        x: origin.x + 1,
                        y: middle,
                        foreground: Self.progressColor,
                        background: Self.placeholder
                    )
                } else if content.contains(middle) {
                    let glyph = Self.spinner[(spinnerPhase + item) % Self.spinner.count]
                    screen.put(
                        String(glyph),
                        x: origin.x + layout.imageColumns / 2,
                        y: middle,
                        foreground: Self.dim,
                        background: Self.placeholder
                    )
                }
            }
            drawCaption(&screen, item: item, cell: cell, origin: (origin.x, y), layout: layout, content: content)
        }
        drawLogPane(&screen, layout: layout)
        drawStatusLine(&screen, layout: layout)
        if isShowingHelp { HelpOverlay.draw(on: &screen) }
        write(screen, graphics: graphicsToShow)
    }

    /// Writes what changed since the last frame, and the pixel images (kitty, sixels) not on screen yet, in one
    /// synchronized update.
    func write(_ screen: ScreenBuffer, graphics graphicsToShow: [(cell: Int, x: Int, y: Int, text: String)]) {
        var output: [UInt8] = Array("\u{1B}[?2026h".utf8)
        var changed = screen.appendOutput(from: previous, to: &output) > 0
        if options.graphics != .symbols {
            if previous == nil {
                if options.graphics == .kitty { output += Array("\u{1B}_Ga=d\u{1B}\\".utf8) }
                shownGraphics.removeAll()
            }
            for entry in graphicsToShow where !shownGraphics.contains(entry.cell) {
                output += Array("\u{1B}[\(entry.y + 1);\(entry.x + 1)H\(entry.text)".utf8)
                shownGraphics.insert(entry.cell)
                changed = true
            }
        }
        output += Array("\u{1B}[?2026l".utf8)
        if changed {
            let start = ContinuousClock.now
            terminal.write(bytes: output)
            if summary.writeTime.count < 1_000_000 { summary.writeTime.append(start.duration(to: .now).seconds * 1000) }
        }
        previous = screen
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
        cell: Cell?,
        origin: (x: Int, y: Int),
        layout: GalleryLayout,
        content: Range<Int>
    ) {
        let selected = item == navigator.selection
        let title = layout.mode == .list ? "Hello \(item + 1)" : items[item].title
        let detail: String
        var detailColor = Self.dim
        switch cell?.display {
        case .image where cell?.isPreview == true:
            detail = "sharpening… (progressive JPEG)"
        case .image(_, _, let cache):
            detail =
                Self.sourceLabel(cache)
                + (cell?.request?.url.flatMap(log.downloadedBytes(of:)).map { " · \(($0 + 1023) / 1024) KB" } ?? "")
        case .failed(let message, let retryable):
            detail = retryable ? "✗ \(message) — Enter retries" : "✗ \(message)"
            detailColor = Self.failure
        default:
            detail = "loading…"
        }
        let background = options.background
        switch layout.mode {
        case .list:
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
                if let subtitle = Self.subtitle(of: items[item].title, row: item + 1) {
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
                    detail,
                    x: x,
                    y: titleLine + 1,
                    limit: layout.columns - x - 1,
                    foreground: detailColor,
                    background: background
                )
            }
        case .grid:
            let y = origin.y + layout.imageLines
            guard content.contains(y) else { return }
            // A failed tile keeps its name, in the failure colour; the ✗ on the tile says what happened.
            let failed: Bool
            if case .failed = cell?.display { failed = true } else { failed = false }
            screen.put(
                title,
                x: origin.x,
                y: y,
                limit: layout.imageColumns,
                foreground: failed ? Self.failure : nil,
                background: background,
                reversed: selected
            )
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

    private func drawStatusLine(_ screen: inout ScreenBuffer, layout: GalleryLayout) {
        let counters = log.snapshot
        let visible = navigator.visibleItems
        let range = visible.isEmpty ? "–" : "\(visible.lowerBound + 1)–\(visible.upperBound)"
        var parts = [
            "\(layout.mode.rawValue)",
            "items \(items.count)",
            "visible \(range)",
            "prefetch \(loader.controller.prefetched.count)",
            "↓ \(counters.downloadsInFlight) in flight",
            "hits mem \(summary.memoryHits) disk \(counters.diskHits)",
            "failed \(summary.failures)",
            "late \(summary.lateFrames)",
        ]
        if let notice { parts.insert(notice, at: 0) }
        // The key hints that fit, longest first; "? help" always does (the overlay lists every key).
        let text = " " + parts.joined(separator: " · ")
        let hints = [
            "q quit · g \(layout.mode == .list ? "grid" : "list") · r refresh · ⏎ retry · ? help",
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

    /// Whether loading again can give another answer: not when the bytes are not an image, or too large an image,
    /// and not for a local file that did not decode (it will not change by itself).
    static func isRetryable(_ error: ImagePipeline.Error) -> Bool {
        switch error {
        case .failureBackoff(let lastError, _): isRetryable(lastError)
        case .noDecoder, .imageTooLarge, .unsupportedScheme, .invalidURL: false
        default: true
        }
    }

    static func shortDescription(_ error: ImagePipeline.Error) -> String {
        switch error {
        case .failureBackoff(let lastError, _): shortDescription(lastError)
        case .statusCodeUnacceptable(let code): "HTTP \(code)"
        case .decodingFailed: "corrupt image"
        case .dataIsEmpty: "empty response"
        case .responseTooLarge: "too large"
        case .imageTooLarge: "too many pixels"
        case .noDecoder: "not an image"
        case .dataLoadingFailed: "connection failed"
        default: "\(error)"
        }
    }

    // MARK: - Threads

    private final class StopFlag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }
}
