// Lookahead gallery — the headless gallery: a list of rows scrolled frame by frame over a real pipeline.

import Foundation
import Lookahead
import Synchronization

/// Replays a scroll script over a list of rows, the way a table view drives its cells and prefetcher:
/// rows that appear are configured (a memory hit shows the image at once, a miss shows a placeholder and
/// loads at high priority), rows ahead are prefetched at low priority, rows that leave the window are
/// cancelled. Completions arrive on other threads and are applied on the next frame, only if they belong to
/// the load the row is waiting for, so a reused row never shows another row's image.
///
/// The frame loop runs on a thread of its own, the way a UI runs on its main thread: it never awaits, and
/// configuring a row costs a memory-cache lookup at most.
struct HeadlessGallery: Sendable {
    struct Settings: Sendable {
        var rowCount = 200
        var viewportRows = 8
        var prefetchWindow = 6
        var frameDuration = Duration.milliseconds(16)
    }

    private struct Row: Sendable {
        let url: URL
        var task: ImageTask?
        var isPrefetch = false
        var hasImage = false
        var hasFailed = false
        var wasShown = false
        var placeholderFrames = 0
    }

    private struct Completion: Sendable {
        let row: Int
        let taskID: Int
        let result: Result<ImageResponse, ImagePipeline.Error>
    }

    struct Summary: Sendable {
        var rowsShown = 0
        var rowsShownWithPlaceholder = 0
        var placeholderMilliseconds: [Double] = []
        var frames = 0
        var lateFrames = 0
        var staleCompletionsDropped = 0
        var memoryHits = 0
        var promotedPrefetches = 0
    }

    let pipeline: ImagePipeline
    let log: GalleryLog
    let settings: Settings
    private var rows: [Row]
    private let inbox = InboxBox()

    init(pipeline: ImagePipeline, urls: [URL], log: GalleryLog, settings: Settings) {
        self.pipeline = pipeline
        self.log = log
        self.settings = settings
        self.rows = urls.map { Row(url: $0) }
    }

    /// Runs the script on a dedicated thread (the gallery's "main thread"); returns what happened.
    static func run(_ gallery: HeadlessGallery, script: ScrollScript) async -> Summary {
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
        var direction = 1.0
        var previousOffset = 0.0
        let clock = ContinuousClock()
        var deadline = clock.now
        var frame = 0
        var drainFrames = 0
        while true {
            let offset: Double
            if frame < script.offsets.count {
                offset = script.offsets[frame]
            } else {
                // After the script: keep rendering until the visible rows have their images (at most 10 s).
                let waiting = visible.contains { rows[$0].task != nil }
                guard waiting, drainFrames < Int(10_000 / settings.frameDuration.milliseconds) else { break }
                drainFrames += 1
                offset = previousOffset
            }
            applyCompletions(&summary)
            if offset != previousOffset { direction = offset > previousOffset ? 1 : -1 }
            previousOffset = offset
            let first = Int(offset.rounded(.down))
            let newVisible = first..<min(rows.count, Int((offset + Double(settings.viewportRows)).rounded(.up)))
            configureAppearing(newVisible, previous: visible, summary: &summary)
            for row in newVisible where !rows[row].hasImage { rows[row].placeholderFrames += 1 }
            updatePrefetching(visible: newVisible, direction: direction)
            for row in visible where !newVisible.contains(row) { rowDisappeared(row, summary: &summary) }
            visible = newVisible
            frame += 1
            summary.frames += 1
            deadline = deadline.advanced(by: settings.frameDuration)
            if clock.now > deadline.advanced(by: settings.frameDuration) { summary.lateFrames += 1 }
            let remaining = clock.now.duration(to: deadline)
            if remaining > .zero { Thread.sleep(forTimeInterval: remaining.secondsValue) }
        }
        for row in visible { rowDisappeared(row, summary: &summary) }
        for index in rows.indices {
            rows[index].task?.cancel()
            rows[index].task = nil
        }
        return summary
    }

    // MARK: - Rows appearing and leaving

    private mutating func configureAppearing(_ visible: Range<Int>, previous: Range<Int>, summary: inout Summary) {
        for index in visible where !previous.contains(index) {
            log.line("🔄 Cell configured for row \(index + 1)")
            let request = ImageRequest(url: rows[index].url, priority: .high)
            let isFirstShow = !rows[index].wasShown
            rows[index].wasShown = true
            if isFirstShow { summary.rowsShown += 1 }
            if rows[index].hasImage || pipeline.cachedImage(for: request) != nil {
                rows[index].hasImage = true
                summary.memoryHits += 1
                log.line("📦 Image loaded from cache: \(rows[index].url.absoluteString)")
                continue
            }
            if isFirstShow { summary.rowsShownWithPlaceholder += 1 }
            if let task = rows[index].task {
                task.priority = .high  // promote the prefetch; never restart it
                summary.promotedPrefetches += 1
                rows[index].isPrefetch = false
            } else {
                start(index, priority: .high, isPrefetch: false)
            }
        }
    }

    private mutating func rowDisappeared(_ index: Int, summary: inout Summary) {
        if rows[index].placeholderFrames > 0 || rows[index].wasShown {
            let frameMs = Double(settings.frameDuration.milliseconds)
            if rows[index].placeholderFrames > 0 || !rows[index].hasImage {
                summary.placeholderMilliseconds.append(Double(rows[index].placeholderFrames) * frameMs)
            } else {
                summary.placeholderMilliseconds.append(0)
            }
            rows[index].placeholderFrames = 0
        }
        // Still loading: keep it at prefetch priority while it is in the window; the window update cancels it
        // when it is not.
        if let task = rows[index].task {
            task.priority = .low
            rows[index].isPrefetch = true
        }
    }

    // MARK: - Prefetching

    private mutating func updatePrefetching(visible: Range<Int>, direction: Double) {
        guard !visible.isEmpty else { return }
        let window: Range<Int> =
            direction >= 0
            ? visible.upperBound..<min(rows.count, visible.upperBound + settings.prefetchWindow)
            : max(0, visible.lowerBound - settings.prefetchWindow)..<visible.lowerBound
        var started: [Int] = []
        let ordered = direction >= 0 ? Array(window) : window.reversed()
        for index in ordered where !visible.contains(index) && !rows[index].hasImage && rows[index].task == nil {
            if pipeline.cachedImage(for: ImageRequest(url: rows[index].url)) != nil {
                rows[index].hasImage = true
                continue
            }
            started.append(index)
        }
        if !started.isEmpty {
            log.line("🚀 Prefetching images for rows: \(GalleryLog.rows(started))")
            for index in started { start(index, priority: .low, isPrefetch: true) }
        }
        var cancelled: [Int] = []
        for index in rows.indices where rows[index].task != nil && !visible.contains(index) && !window.contains(index) {
            rows[index].task?.cancel()
            rows[index].task = nil
            cancelled.append(index)
        }
        if !cancelled.isEmpty {
            log.line("🚫 Cancelling prefetch for rows: \(GalleryLog.rows(cancelled))")
        }
    }

    // MARK: - Loading

    private mutating func start(_ index: Int, priority: ImageRequest.Priority, isPrefetch: Bool) {
        let task = pipeline.imageTask(with: ImageRequest(url: rows[index].url, priority: priority))
        rows[index].task = task
        rows[index].isPrefetch = isPrefetch
        rows[index].hasFailed = false
        let inbox = inbox
        Task {
            let result: Result<ImageResponse, ImagePipeline.Error>
            do throws(ImagePipeline.Error) { result = .success(try await task.response) } catch {
                result = .failure(error)
            }
            inbox.post(Completion(row: index, taskID: task.id, result: result))
        }
    }

    private mutating func applyCompletions(_ summary: inout Summary) {
        for completion in inbox.take() {
            // A completion for a load the row no longer waits for (cancelled, or replaced) is dropped.
            guard rows[completion.row].task?.id == completion.taskID else {
                summary.staleCompletionsDropped += 1
                continue
            }
            rows[completion.row].task = nil
            switch completion.result {
            case .success(let response):
                rows[completion.row].hasImage = true
                if response.cacheType == nil {
                    log.line("✅ Image downloaded and cached: \(rows[completion.row].url.absoluteString)")
                }
            case .failure(let error):
                rows[completion.row].hasFailed = true
                log.line("❌ Row \(completion.row + 1) failed: \(error)")
            }
        }
    }

    /// Completions posted from other threads, taken by the frame loop.
    private final class InboxBox: Sendable {
        private let items = Mutex<[Completion]>([])
        func post(_ completion: Completion) { items.withLock { $0.append(completion) } }
        func take() -> [Completion] {
            items.withLock { items in
                defer { items.removeAll() }; return items
            }
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in whole milliseconds.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
