// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the full-screen terminal gallery's frame loop, on a thread of its own: keys and messages in,
// the cells bound (GalleryCells) and the screen drawn (GalleryRenderer, FrameWriter) at most once per frame.

import Foundation
@_spi(Simulation) import Lookahead
import Synchronization

/// The interactive gallery. ``run()`` blocks its thread — the gallery's "main thread" — until the user quits.
///
/// Each frame: take the keys and the messages that arrived, move the scroll, let the ``GalleryCells`` follow the
/// visible items (the ``ListImageSlots`` moves its prefetch window, cells are unbound and bound; a memory hit
/// shows in the same frame), then draw the screen with the ``GalleryRenderer`` and write only the cells that
/// changed with the ``FrameWriter``. Nothing in the loop waits: decoding runs in the pipeline, drawing images with
/// chafa on a queue of its own.
// SAFETY: every mutable property is used only by the thread that calls `run()` (after `init` hands the object
// over); other threads reach the gallery through `inbox` (a Mutex) and the pipeline's thread-safe types.
public final class InteractiveGallery: @unchecked Sendable {
    enum Message: Sendable {
        case keys([Key])
        case cell(GalleryCells.Event)
        case items([GalleryItem])
        case itemsFailed(String)
        case signal(Int32)
        case detail(task: Int, DetailEvent)
    }

    let pipeline: ImagePipeline
    private let terminal: Terminal
    private let log: GalleryLog
    let options: Options
    private let reload: @Sendable () async throws(GallerySource.Failure) -> [GalleryItem]
    let inbox: Inbox<Message>
    /// Where images are drawn, off the frame loop.
    let chafa: ChafaRenderer.Queue

    var navigator: GalleryNavigator
    var cells: GalleryCells
    let renderer: GalleryRenderer
    var writer: FrameWriter
    private var summary = Summary()
    var spinnerPhase = 0
    private var notice: String?
    private var isRefreshing = false
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
        self.terminal = terminal
        self.log = log
        self.options = options
        self.reload = reload
        let size = Terminal.size() ?? (80, 24)
        let layout = GalleryLayout(
            mode: options.mode,
            columns: size.columns,
            rows: size.rows,
            logLines: options.logLines
        )
        self.navigator = GalleryNavigator(layout: layout, itemCount: items.count)
        let inbox = Inbox<Message>()
        self.inbox = inbox
        self.chafa = ChafaRenderer.Queue(mode: options.graphics, background: options.background)
        self.cells = GalleryCells(
            pipeline: pipeline,
            items: items,
            layout: layout,
            options: options,
            log: log,
            chafa: chafa
        ) { inbox.post(.cell($0)) }
        self.renderer = GalleryRenderer(log: log, options: options)
        self.writer = FrameWriter(terminal: terminal, graphics: options.graphics)
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
            let update = update(now: now, elapsed: elapsed)
            running = update.running
            needsDraw = needsDraw || update.changed
            // Nothing changed: no frame. An idle gallery draws nothing and waits for a message (a key, a load).
            if needsDraw, running {
                if !drewLast { deadline = now }
                drawFrame(startedAt: now, frame: frame, deadline: &deadline)
                needsDraw = false
                drewLast = true
            } else if running {
                drewLast = false
                waitForWork(frame: frame, animationDue: update.animationDue)
            }
        }
        stop.set()
        cells.loader.stop()
        summary.memoryHits = cells.memoryHits
        summary.failures = cells.failures
        summary.writeTime = writer.writeTime
        return summary
    }

    /// What happened since the last turn of the loop: the messages, a resize, the scroll's easing, the cells bound
    /// to the visible items, the outage's end, the spinner, the log and the detail view's animation. `running` is
    /// `false` to quit; `changed` whether the screen needs a frame; `animationDue` when the animation's next frame
    /// is.
    private func update(now: ContinuousClock.Instant, elapsed: Duration) -> (
        running: Bool, changed: Bool, animationDue: Duration?
    ) {
        let running: Bool
        var changed: Bool
        (running, changed) = handleMessages()
        if terminal.takeResize(), let size = Terminal.size() {
            var layout = navigator.layout
            layout.columns = max(1, size.columns)
            layout.rows = max(1, size.rows)
            relayout(layout)
            changed = true
        }
        if navigator.advance(by: elapsed.seconds) {
            changed = true
            if options.graphics != .symbols { writer.previous = nil }  // pixels do not scroll with the text
        }
        let binding = cells.bindVisibleItems(of: navigator)
        writer.forgetGraphics(ofCells: binding.unbound)
        if binding.changed { changed = true }
        if summary.outageRecovery == nil, let end = options.outageEnd, now >= end,
            cells.isShowingImages(of: navigator.visibleItems)
        {
            let seconds = end.duration(to: now).seconds
            summary.outageRecovery = seconds
            log.line("🌐 Every visible image shown \(String(format: "%.1f", seconds)) s after the outage ended")
        }
        // The spinner turns at 10 Hz, and only while a visible cell waits for its image.
        let phase = Int(start.duration(to: now).seconds * 10)
        if phase != spinnerPhase, isWaitingForVisibleImages { changed = true }
        spinnerPhase = phase
        if log.changeCount != drawnLogChanges { changed = true }
        // An animation in the detail view: its next frame, when due.
        let animation = advanceDetailAnimation(now: now)
        if animation.changed { changed = true }
        return (running, changed, animation.nextIn)
    }

    /// Draws a frame started at `now`, counts it (and whether it was late), then sleeps until `deadline`: at most
    /// one frame per frame interval, however many messages arrive.
    private func drawFrame(
        startedAt now: ContinuousClock.Instant,
        frame: Duration,
        deadline: inout ContinuousClock.Instant
    ) {
        drawnLogChanges = log.changeCount
        draw()
        summary.frames += 1
        deadline = deadline.advanced(by: frame)
        let after = ContinuousClock.now
        if summary.frameWork.count < 1_000_000 {
            summary.frameWork.append(now.duration(to: after).seconds * 1000)
        }
        // Late: the frame's work ran past the next frame's start, so the screen skipped a frame.
        if after > deadline.advanced(by: frame) {
            summary.lateFrames += 1
            deadline = after
        }
        if after < deadline { Thread.sleep(forTimeInterval: after.duration(to: deadline).seconds) }
    }

    /// No frame to draw: waits a frame while the scroll eases, else for a message.
    private func waitForWork(frame: Duration, animationDue: Duration?) {
        if navigator.isAnimating {
            Thread.sleep(forTimeInterval: frame.seconds)
        } else {
            // Resizes are a flag (SIGWINCH), log lines are not messages: look again within 250 ms.
            // A playing animation wakes the loop when its next frame is due.
            let timeout: Duration = isWaitingForVisibleImages ? .milliseconds(100) : .milliseconds(250)
            inbox.wait(timeout: min(timeout, max(.milliseconds(1), animationDue ?? timeout)))
        }
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
                        guard handleDetailKey(key) else { return (false, true) }
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
            case .cell(let event):
                cells.apply(event)
            case .items(let newItems):
                isRefreshing = false
                notice = nil
                cells.reload(newItems)
                navigator.itemCountChanged(newItems.count)
                writer.previous = nil
            case .itemsFailed(let message):
                isRefreshing = false
                notice = message
            case .detail(let task, let event):
                apply(event, toDetailTask: task)
            }
        }
        return (true, !messages.isEmpty)
    }

    /// Whether a visible item, or the detail view, still shows its placeholder (a spinner to turn).
    private var isWaitingForVisibleImages: Bool {
        guard let detail else { return cells.isWaiting(for: navigator.visibleItems) }
        if case .loading = detail.display { return true }
        return false
    }

    /// The list, or the detail view, with the help box over it while it is open.
    private func draw() {
        var frame =
            if let detail {
                detailFrame(detail)
            } else {
                renderer.listFrame(
                    navigator: navigator,
                    cells: cells,
                    spinnerPhase: spinnerPhase,
                    notice: notice,
                    lateFrames: summary.lateFrames
                )
            }
        if isShowingHelp { HelpOverlay.draw(on: &frame.screen) }
        writer.write(frame)
    }

    // MARK: - Commands

    private func toggleMode() {
        var layout = navigator.layout
        layout.mode = layout.mode == .list ? .grid : .list
        relayout(layout)
    }

    /// Every cell is unbound and its request built again at the new size; the selected item stays on screen.
    private func relayout(_ layout: GalleryLayout) {
        cells.relayout(layout)
        navigator.relayout(layout)
        writer.previous = nil
    }

    /// Enter: a loaded image opens in the detail view; a failed row is retried explicitly, so the slot loads at once,
    /// past the pipeline's failure backoff.
    private func activate(_ item: Int) {
        switch cells.cell(showing: item)?.display {
        case .image: openDetail(item)
        case .failed(_, retryable: true): cells.retry(item)
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

    // MARK: - Threads

    private final class StopFlag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }
}
