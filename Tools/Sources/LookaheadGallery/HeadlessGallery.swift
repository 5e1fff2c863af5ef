// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the headless gallery: a list scrolled frame by frame over the real pipeline, its rows
// loaded by a ListImageSlots, its cells bound with ImageSlot.

public import Foundation
@_spi(Simulation) public import Lookahead
import Synchronization

/// Replays a scroll script over a list of rows the way a table view drives its cells: a pool of reusable
/// cells, each with an ``ImageSlot``, bound to rows through a ``ListImageSlots``, which is told the visible rows
/// every frame and prefetches around them. Slot changes arrive on other threads and are applied on the next
/// frame, only when the cell still shows the row they belong to.
///
/// The frame loop runs on a thread of its own, the way a UI runs on its main thread: it never awaits, and
/// configuring a row costs a memory-cache lookup at most.
public struct HeadlessGallery: Sendable {
    /// The list's shape and the frame rate.
    public struct Settings: Sendable {
        /// Rows in the list.
        public var rowCount = 200
        /// Rows visible at once.
        public var viewportRows = 8
        /// The time of one frame.
        public var frameDuration = Duration.milliseconds(16)
        /// How the loader prefetches.
        public var loaderConfiguration = ListPrefetcher<Int>.Configuration()

        /// Creates settings.
        public init(rowCount: Int = 200, viewportRows: Int = 8, frameDuration: Duration = .milliseconds(16)) {
            self.rowCount = rowCount
            self.viewportRows = viewportRows
            self.frameDuration = frameDuration
        }
    }

    /// What a run did.
    public struct Summary: Sendable {
        /// Rows that were on screen at least once.
        public var rowsShown = 0
        /// Rows first shown without their image.
        public var rowsShownWithPlaceholder = 0
        /// How long each shown row showed its placeholder, per appearance.
        public var placeholderMilliseconds: [Double] = []
        /// Frames rendered.
        public var frames = 0
        /// Frames that missed their deadline by more than a frame.
        public var lateFrames = 0
        /// Slot changes dropped because their cell showed another row by then.
        public var staleChangesDropped = 0
        /// Rows configured from the memory cache.
        public var memoryHits = 0
        /// The URLs of the rows that had their image on screen at least once.
        public var shownURLs: Set<URL> = []
    }

    /// A reusable cell: the slot, and the row it shows.
    private struct Cell: Sendable {
        let slot: ImageSlot
        var row: Int?
    }

    private struct Change: Sendable {
        let cell: Int
        let state: ImageSlot.State
    }

    private struct RowState: Sendable {
        var wasShown = false
        var hasImage = false
        /// Whether the row ever had its image while on screen.
        var imageWasShown = false
        var placeholderFrames = 0
        var cell: Int?
    }

    /// The pipeline the rows load through.
    public let pipeline: ImagePipeline
    /// The loader that binds the cells and prefetches.
    @_spi(Simulation) public let loader: ListImageSlots<Int>
    /// Where events go.
    public let log: GalleryLog
    /// The list's shape and frame rate.
    public let settings: Settings
    private let urls: [URL]
    private let inbox = Inbox<Change>()
    private var cells: [Cell] = []
    private var rows: [RowState]

    /// Creates a gallery of one row per URL, with a cell pool a little larger than the viewport.
    public init(pipeline: ImagePipeline, urls: [URL], log: GalleryLog, settings: Settings) {
        self.pipeline = pipeline
        self.loader = ListImageSlots(
            pipeline: pipeline,
            snapshot: ListSnapshot(urls.indices),
            configuration: settings.loaderConfiguration
        )
        self.urls = urls
        self.log = log
        self.settings = settings
        self.rows = Array(repeating: RowState(), count: urls.count)
        let inbox = inbox
        self.cells = (0..<(settings.viewportRows + 2)).map { index in
            Cell(
                slot: ImageSlot(pipeline: pipeline) { state in inbox.post(Change(cell: index, state: state)) },
                row: nil
            )
        }
    }

    /// Runs the script on a dedicated thread (the gallery's "main thread"); returns what happened.
    public static func run(_ gallery: HeadlessGallery, script: ScrollScript) async -> Summary {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                var gallery = gallery
                continuation.resume(returning: gallery.runFrames(script))
            }
            thread.name = "gallery-frames"
            thread.start()
        }
    }

    private mutating func runFrames(_ script: ScrollScript) -> Summary {
        var summary = Summary()
        var visible = 0..<0
        let clock = ContinuousClock()
        let start = clock.now
        var deadline = start
        var frame = 0
        var drainFrames = 0
        var offset = 0.0
        while true {
            if frame < script.offsets.count {
                offset = script.offsets[frame]
            } else {
                // After the script: keep rendering until the visible rows have their images (at most 10 s).
                let waiting = visible.contains { !rows[$0].hasImage }
                guard waiting, drainFrames < Int(10_000 / settings.frameDuration.milliseconds) else { break }
                drainFrames += 1
            }
            applyChanges(&summary)
            let first = Int(offset.rounded(.down))
            let next = first..<min(rows.count, Int((offset + Double(settings.viewportRows)).rounded(.up)))
            // As UIKit calls them: the scroll (the loader moves its window and prefetches), then the cells that
            // ended displaying, then the ones that will display.
            let update = loader.visibleRowsChanged(next, position: offset) { [urls] in ImageRequest(url: urls[$0]) }
            for line in update.logMessages { log.line(line) }
            for row in visible where !next.contains(row) { disappear(row, &summary) }
            for row in next where !visible.contains(row) { appear(row, &summary) }
            visible = next
            for row in visible where !rows[row].hasImage { rows[row].placeholderFrames += 1 }
            frame += 1
            summary.frames += 1
            deadline = deadline.advanced(by: settings.frameDuration)
            if clock.now > deadline.advanced(by: settings.frameDuration) { summary.lateFrames += 1 }
            let remaining = clock.now.duration(to: deadline)
            if remaining > .zero { Thread.sleep(forTimeInterval: remaining.seconds) }
        }
        for row in visible { disappear(row, &summary) }
        loader.stop()
        summary.shownURLs = Set(rows.indices.filter { rows[$0].imageWasShown }.map { urls[$0] })
        return summary
    }

    // MARK: - Cells

    private mutating func appear(_ row: Int, _ summary: inout Summary) {
        guard let cell = cells.indices.first(where: { cells[$0].row == nil }) else { return }
        cells[cell].row = row
        rows[row].cell = cell
        log.line("🔄 Cell configured for row \(row + 1)")
        let isFirstShow = !rows[row].wasShown
        rows[row].wasShown = true
        if isFirstShow { summary.rowsShown += 1 }
        // A memory hit is applied inside bind: the change is already in the inbox; take it now. A miss loads at
        // once, or once a fling slows down.
        loader.bind(row, request: ImageRequest(url: urls[row]), to: cells[cell].slot)
        if case .loaded(_, _, .memory) = cells[cell].slot.state {
            rows[row].hasImage = true
            rows[row].imageWasShown = true
            summary.memoryHits += 1
            log.line("📦 Image loaded from cache: \(urls[row].absoluteString)")
        } else if isFirstShow {
            summary.rowsShownWithPlaceholder += 1
        }
    }

    private mutating func disappear(_ row: Int, _ summary: inout Summary) {
        if rows[row].wasShown {
            summary.placeholderMilliseconds.append(
                Double(rows[row].placeholderFrames * Int(settings.frameDuration.milliseconds))
            )
            rows[row].placeholderFrames = 0
        }
        rows[row].hasImage = false
        guard let cell = rows[row].cell else { return }
        rows[row].cell = nil
        cells[cell].row = nil
        // A running load goes on as a prefetch; the loader's window decides when to give it up.
        loader.unbind(row)
    }

    private mutating func applyChanges(_ summary: inout Summary) {
        for change in inbox.take() {
            if case .empty = change.state { continue }  // the cell was unbound: nothing to show
            // The cell may show another row by now: a change for an earlier request is dropped.
            guard let row = cells[change.cell].row, change.state.request?.url == urls[row] else {
                summary.staleChangesDropped += 1
                continue
            }
            switch change.state {
            case .loaded(_, _, let cacheType):
                guard !rows[row].hasImage else { continue }
                rows[row].hasImage = true
                rows[row].imageWasShown = true
                if cacheType == nil { log.line("✅ Image downloaded and cached: \(urls[row].absoluteString)") }
            case .failed(let error, _):
                log.line("❌ Row \(row + 1) failed: \(error)")
            case .loading, .preview, .empty:
                break
            }
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    package var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
