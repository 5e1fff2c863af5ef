// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the detail view: Enter on a loaded image shows it at the terminal's full size, with its
// download's progress while the larger image loads, and plays an animated GIF or WebP; Esc or q goes back to the
// list where it was.

import Dispatch
import Foundation
import Lookahead

extension InteractiveGallery {
    /// The image open in the detail view and its load.
    struct Detail {
        let item: Int
        let task: ImageTask
        /// Bytes received and expected, while downloading.
        var received: Int64 = 0
        var expected: Int64?
        var display = GalleryCells.Display.loading
        var pixelSize: (width: Int, height: Int)?
        /// The size the art was drawn at, in cells.
        var artSize: (columns: Int, lines: Int)?
        /// The animation, when the image is one; played from `playStart`.
        var animation: AnimatedImage?
        /// Decodes its frames in order, each once the art of the one before is drawn.
        var frames: FrameDecoder?
        var playStart: ContinuousClock.Instant?
        /// The art of each frame drawn so far (drawn ahead of play, in order, and kept for the next loops: a frame
        /// due before its art is drawn leaves the one before on screen).
        var frameArt: [Int: (art: TerminalArt?, graphics: String?)] = [:]
        var shownFrame = 0
        /// Whether what is shown is a preview of a progressive JPEG that still downloads.
        var isPreview = false
    }

    /// What a detail load reports, as a message to the frame loop.
    enum DetailEvent: Sendable {
        case progress(received: Int64, expected: Int64?)
        case finished(Result<ImageResponse, ImagePipeline.Error>)
        /// A preview of a progressive JPEG: its scans so far.
        case preview(Bitmap)
        /// Frame `index` of the animation, decoded.
        case frame(Bitmap, index: Int)
        /// The art of `frame` (0 for a still image, ``previewFrame`` for a preview).
        case art(TerminalArt?, graphics: String?, size: (columns: Int, lines: Int), frame: Int)
    }

    /// The frame number of a preview's art.
    static let previewFrame = -1

    /// The lines of the image in the detail view: all but its title line and the status line.
    private var detailLines: Int { max(1, navigator.layout.rows - 2) }

    /// A second, larger request for the item: the media API's larger rendition (a download, with progress), or the
    /// same URL at a larger size (the pipeline reads it from the disk cache or joins its download).
    func openDetail(_ item: Int) {
        let layout = navigator.layout
        // Chafa resolves a symbol cell from about 8×16 pixels.
        let width = layout.columns * 8
        let height = detailLines * 16
        // Every frame of an animated GIF or WebP, to play it; a still image is the same request's image.
        let request = ImageRequest(
            url: cells.items[item].imageURL(width),
            priority: .veryHigh,
            thumbnail: ThumbnailOptions(width: width, height: height, contentMode: .aspectFit),
            isAnimated: true
        )
        detail = Detail(item: item, task: start(request))
        writer.previous = nil
    }

    /// A key while the detail view is open: Esc and q go back to the list, Enter retries a failure, ? opens the
    /// help. Returns `false` to quit.
    func handleDetailKey(_ key: Key) -> Bool {
        switch key {
        case .interrupt: return false
        case .escape, .character("q"): closeDetail()
        case .enter: retryDetail()
        case .character("?"): isShowingHelp = true
        default: break
        }
        return true
    }

    private func closeDetail() {
        detail?.task.cancel()
        detail = nil
        writer.previous = nil
    }

    private func retryDetail() {
        guard let current = detail, case .failed = current.display else { return }
        detail = Detail(item: current.item, task: start(current.task.request))
    }

    /// Starts the load and forwards its events to the frame loop.
    private func start(_ request: ImageRequest) -> ImageTask {
        let task = pipeline.imageTask(with: request)
        let inbox = inbox
        let id = task.id
        Task.detached {
            for await event in task.events {
                switch event {
                case .progress(let completed, let total):
                    inbox.post(.detail(task: id, .progress(received: completed, expected: total)))
                case .finished(let result):
                    inbox.post(.detail(task: id, .finished(result)))
                case .preview(let response):
                    inbox.post(.detail(task: id, .preview(response.image)))
                case .started, .cancelled:
                    break
                }
            }
        }
        return task
    }

    func apply(_ event: DetailEvent, toDetailTask id: Int) {
        guard var current = detail, current.task.id == id else { return }  // a closed or replaced detail
        switch event {
        case .progress(let received, let expected):
            current.received = received
            current.expected = expected
        case .preview(let image):
            var isLoading = false
            if case .loading = current.display { isLoading = true }
            guard current.isPreview || isLoading else { break }
            current.isPreview = true
            if isLoading { current.display = .image(nil, graphics: nil, cache: nil) }
            renderDetail(image, task: id, frame: Self.previewFrame)
        case .finished(.success(let response)):
            current.isPreview = false
            let image = response.image
            current.pixelSize = (image.width, image.height)
            current.display = .image(nil, graphics: nil, cache: response.cacheType)
            current.animation = response.animation
            current.frames = response.animation.map { Detail.FrameDecoder($0) }
            renderDetail(image, task: id, frame: 0)
        case .frame(let image, let index):
            renderDetail(image, task: id, frame: index)
        case .finished(.failure(let error)):
            current.display = .failure(error)
        case .art(let art, let graphics, let size, let frame) where frame == Self.previewFrame:
            // A preview's art, unless the final image has come meanwhile.
            guard current.isPreview else { break }
            current.display = .image(art, graphics: graphics, cache: nil)
            current.artSize = size
        case .art(let art, let graphics, let size, let frame):
            guard case .image(_, _, let cache) = current.display else { break }
            current.frameArt[frame] = (art, graphics)
            if let frames = current.frames, let animation = current.animation, frame + 1 < animation.frameCount {
                let inbox = inbox
                frames.decode(after: frame) { image, index in inbox.post(.detail(task: id, .frame(image, index: index)))
                }
            }
            current.artSize = size
            if frame == current.shownFrame { current.display = .image(art, graphics: graphics, cache: cache) }
            // The animation starts once its first frame is on screen.
            if frame == 0, current.animation != nil, current.playStart == nil { current.playStart = .now }
        }
        detail = current
    }

    /// Shows the frame of a playing animation that is due at `now`, drawing it first if it was never drawn (the
    /// frame on screen stays until it is). Returns whether the picture changed, and how long until the next frame
    /// is due (`nil` when nothing plays).
    func advanceDetailAnimation(now: ContinuousClock.Instant) -> (changed: Bool, nextIn: Duration?) {
        guard var current = detail, let animation = current.animation, let start = current.playStart,
            case .image(_, _, let cache) = current.display
        else { return (false, nil) }
        let elapsed = start.duration(to: now)
        let index = animation.frameIndex(at: elapsed)
        let nextIn = animation.nextFrameTime(after: elapsed).map { $0 - elapsed }
        var changed = false
        if let drawn = current.frameArt[index], index != current.shownFrame {
            current.shownFrame = index
            current.display = .image(drawn.art, graphics: drawn.graphics, cache: cache)
            changed = true
        }
        detail = current
        return (changed, nextIn)
    }

    /// Draws the image with chafa off the frame loop, as large as fits with its aspect ratio (a cell is about
    /// twice as tall as wide).
    private func renderDetail(_ image: Bitmap, task id: Int, frame: Int) {
        let columns = navigator.layout.columns
        let lines = detailLines
        let aspect = Double(image.width) / Double(max(1, image.height))
        let size = (
            columns: max(1, min(columns, Int((Double(lines) * 2 * aspect).rounded()))),
            lines: max(1, min(lines, Int((Double(columns) / 2 / aspect).rounded())))
        )
        let inbox = inbox
        chafa.draw(image, columns: size.columns, rows: size.lines) { art, graphics in
            inbox.post(.detail(task: id, .art(art, graphics: graphics, size: size, frame: frame)))
        }
    }

    /// The detail screen: a title line, the image centred (or the load's progress, or its failure), the status line.
    func detailFrame(_ detail: Detail) -> FrameWriter.Frame {
        let layout = navigator.layout
        var screen = renderer.blankScreen(layout)
        let item = cells.items[detail.item]
        var title = "Hello \(detail.item + 1)"
        if let subtitle = GalleryRenderer.subtitle(of: item.title, row: detail.item + 1) { title += " · \(subtitle)" }
        if let size = detail.pixelSize { title += " · \(size.width)×\(size.height) px" }
        if let animation = detail.animation {
            title += " · frame \(detail.shownFrame + 1) of \(animation.frameCount)"
        }
        if detail.isPreview {
            title += " · sharpening…"
        } else if case .image(_, _, let cache) = detail.display {
            title += " · " + GalleryRenderer.sourceLabel(cache)
        }
        screen.put(" " + title, x: 0, y: 0, limit: layout.columns, background: options.background, bold: true)
        let middle = 1 + detailLines / 2
        var graphics: [FrameWriter.Graphic] = []
        switch detail.display {
        case .image(let art, let text, _):
            if let size = detail.artSize {
                let x = (layout.columns - size.columns) / 2
                let y = 1 + (detailLines - size.lines) / 2
                if let art { screen.draw(art, x: x, y: y, visibleRows: 1..<(1 + detailLines)) }
                if let text { graphics.append(FrameWriter.Graphic(id: -1 - detail.item, x: x, y: y, text: text)) }
            }
        case .failed(let message, let retryable):
            let text = "✗ \(message)" + (retryable ? " — Enter retries" : "")
            screen.put(
                text,
                x: max(0, (layout.columns - TerminalWidth.columns(ofText: text)) / 2),
                y: middle,
                foreground: GalleryRenderer.failure,
                background: options.background
            )
        case .loading:
            let text = Self.progressText(
                received: detail.received,
                expected: detail.expected,
                width: min(40, layout.columns - 20),
                spinner: GalleryRenderer.spinner[spinnerPhase % GalleryRenderer.spinner.count]
            )
            screen.put(
                text,
                x: max(0, (layout.columns - TerminalWidth.columns(ofText: text)) / 2),
                y: middle,
                foreground: GalleryRenderer.dim,
                background: options.background
            )
        }
        let hint = " Esc back · q back · ? help "
        let y = layout.rows - 1
        let bar = ScreenCell(foreground: RGB(20, 20, 24), background: RGB(170, 200, 255))
        screen.fill(x: 0, y: y, width: layout.columns, height: 1, with: bar)
        screen.put(hint, x: 0, y: y, limit: layout.columns, foreground: bar.foreground, background: bar.background)
        return FrameWriter.Frame(screen: screen, graphics: graphics)
    }

    /// "▕██████░░░░▏ 45 % of 120 KB", or "⠋ 12 KB" when the size is not known yet.
    static func progressText(received: Int64, expected: Int64?, width: Int, spinner: Character) -> String {
        let kilobytes = { (bytes: Int64) in "\((bytes + 1023) / 1024) KB" }
        guard let expected, expected > 0 else {
            return received > 0 ? "\(spinner) \(kilobytes(received)) received" : "\(spinner) loading…"
        }
        let fraction = min(1, Double(received) / Double(expected))
        let filled = Int((fraction * Double(max(1, width))).rounded(.down))
        return "▕" + String(repeating: "█", count: filled) + String(repeating: "░", count: max(0, width - filled))
            + "▏ \(Int(fraction * 100)) % of \(kilobytes(expected))"
    }
}

extension InteractiveGallery.Detail {
    /// Decodes an animation's frames in order, one at a time, on a queue of its own: the detail view keeps the
    /// art of each frame, not its pixels.
    final class FrameDecoder: @unchecked Sendable {
        // SAFETY: `frames` is only read and written on `queue`, which is serial.
        private let queue = DispatchQueue(label: "LookaheadGallery.detail-frames", qos: .userInitiated)
        private var frames: AnimatedImage.FrameIterator

        init(_ animation: AnimatedImage) {
            frames = animation.makeFrameIterator()
        }

        /// Decodes frame `index + 1` (the frames before it on the way, the first time) and hands it to `body`.
        func decode(after index: Int, _ body: @escaping @Sendable (Bitmap, Int) -> Void) {
            queue.async { [self] in
                while frames.index <= index + 1 {
                    let number = frames.index
                    guard let frame = try? frames.next() else { return }
                    if number == index + 1 { body(frame.image, number) }
                }
            }
        }
    }
}
