// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the command line: start the fixture server, build the rows, replay the scroll.

import ArgumentParser
import Foundation
import Lookahead
import LookaheadFixtures
import LookaheadGallery
import Synchronization

@main
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookahead-gallery",
        abstract: "Scrolls a list of rows whose images load over real HTTP through the Lookahead pipeline.",
        discussion: """
            In a terminal: a full-screen gallery. Keys: ↑ ↓ ← → or k j h l move the selection; PgDn or Space, \
            and PgUp, scroll a page; Home and End select the first and the last item; the mouse wheel scrolls; \
            Enter opens the selected image in a detail view, or retries it if it failed; in the detail view, Esc \
            or q goes back to the list and Enter retries a failed image; g switches between list and grid; r lists \
            the items again and empties the memory cache; ? shows the keys (?, Esc or Enter closes them); q or \
            Ctrl-C quits.
            With --headless (or when not in a terminal): a scripted scroll, logged line by line.
            """
    )

    @Flag(help: "Replay a scripted scroll and log events instead of drawing (for scripts, pipes and CI).")
    var headless = false

    @Option(help: "Start in this layout.")
    var mode = GalleryMode.list

    @Option(
        help: ArgumentHelp(
            "How images are drawn.",
            discussion: "auto: the best the terminal announces (kitty, iTerm2 or sixel graphics; never inside tmux "
                + "or screen), else symbols. symbols: Unicode blocks in true colour, in every terminal."
        )
    )
    var graphics = GraphicsChoice.auto

    @Option(
        help:
            "Where images come from: the embedded server (default), picsum, an http(s) URL of a media API, or a folder."
    )
    var source: String?

    @Option(
        help:
            "Console events: pane (a pane under the gallery) or a file path. Default: none (headless: standard output)."
    )
    var log: String?

    @Option(help: "Share of image requests the embedded server answers with HTTP 500 (0…1).")
    var failRate = 0.0

    @Option(help: "Share of image requests whose connection the embedded server resets (0…1).")
    var resetRate = 0.0

    @Option(help: "Share of image responses the embedded server cuts in half (0…1).")
    var truncateRate = 0.0

    @Option(help: "Share of image responses the embedded server delays by --slow-ms (0…1).")
    var slowRate = 0.0

    @Option(help: "The delay of a slow response, in milliseconds.")
    var slowMs = 2000

    @Option(
        help: ArgumentHelp(
            "Seconds the embedded server closes every connection unanswered, from the moment the gallery shows its rows.",
            discussion:
                "Once it answers again, the failed rows load by themselves; the gallery logs how long that took."
        )
    )
    var outage = 0.0

    @Option(help: "Redirects (302) the embedded server puts in front of each image URL of the headless run (0…5).")
    var redirects = 0

    @Option(help: "Items the embedded server's media API lists: the rows of the interactive gallery.")
    var mediaCount = 240

    @Option(
        help: ArgumentHelp(
            "Folder of JPEG photos the embedded server shows; none or no option for generated pictures.",
            discussion: "scripts/demo passes \(FixtureServer.systemPhotosFolder.path), which scripts/photos installs.",
            valueName: "dir"
        )
    )
    var photos: String?

    @Option(help: "Rows of the headless run (\"Hello 1\" … \"Hello N\"), and the items taken from --source.")
    var rows = 200

    @Option(help: "Rows visible at once in the headless run.")
    var viewportRows = 8

    @Option(help: "Milliseconds per frame (16 ≈ 60 Hz, 8 ≈ 120 Hz).")
    var frameMs = 16

    @Option(help: "Server latency before each image, in milliseconds.")
    var latencyMs = 100

    @Option(help: "Extra random latency per image, up to this many milliseconds (seeded).")
    var jitterMs = 200

    @Option(help: "Bandwidth of each image response of the embedded server, in KiB/s (0: unlimited).")
    var kibPerSecond = 0

    @Option(help: "Image size in pixels (square).")
    var imageSize = 200

    @Flag(help: "Print only the summary.")
    var quiet = false

    func validate() throws {
        if let failure = faults.validationFailure { throw ValidationError(failure) }
        guard (0...3600).contains(outage) else { throw ValidationError("--outage must be between 0 and 3600 seconds") }
        if let log, log != "pane" {
            let folder = URL(fileURLWithPath: log).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw ValidationError("--log \(log): the folder \(folder) does not exist")
            }
            guard FileManager.default.isWritableFile(atPath: folder) else {
                throw ValidationError("--log \(log): the folder \(folder) is not writable")
            }
        }
        for (name, value, range) in [
            ("--image-size", imageSize, 8...4096), ("--frame-ms", frameMs, 1...1000), ("--rows", rows, 1...1_000_000),
            ("--media-count", mediaCount, 1...1_000_000), ("--viewport-rows", viewportRows, 1...1000),
            ("--latency-ms", latencyMs, 0...60_000), ("--jitter-ms", jitterMs, 0...60_000),
            ("--slow-ms", slowMs, 0...600_000), ("--kib-per-second", kibPerSecond, 0...1_000_000),
        ] where !range.contains(value) {
            throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
        }
    }

    /// The faults the embedded server injects.
    private var faults: FixtureServer.FaultInjection {
        FixtureServer.FaultInjection(
            failureRate: failRate,
            resetRate: resetRate,
            truncationRate: truncateRate,
            slowRate: slowRate,
            slowDelay: .milliseconds(slowMs)
        )
    }

    func run() async throws {
        if !headless && Terminal.isInteractive {
            try await runInteractive()
        } else {
            try await runHeadless()
        }
    }

    /// Starts the embedded server; its media API lists at least `minimumMediaCount` items.
    private func startServer(minimumMediaCount: Int = 0) async throws -> FixtureServer {
        try await FixtureServer.start(
            configuration: .init { configuration in
                configuration.latency = .milliseconds(latencyMs)
                configuration.jitter = .milliseconds(jitterMs)
                if kibPerSecond > 0 { configuration.bytesPerSecond = kibPerSecond * 1024 }
                configuration.seed = 42
                configuration.mediaCount = max(mediaCount, minimumMediaCount)
                // Generated pictures unless a folder is named: the gallery's terminal tests read the "Hello n" titles.
                configuration.photosFolder = photos.flatMap { FixtureServer.photosFolder(option: $0) }
                configuration.faults = faults
                configuration.redirectHops = redirects
            }
        )
    }

    /// Lists a source's items; a failure stops the server and ends the program with a clear message.
    private func listItems(of source: GallerySource, limit: Int = 1000, stopping server: FixtureServer?)
        async throws -> [GalleryItem]
    {
        do {
            return try await source.items(limit: limit)
        } catch {
            await server?.stop()
            throw GalleryFailure(description: "could not list the gallery's items: \(error.description)")
        }
    }

    /// The embedded server's items with two kinds of pictures that show what else the pipeline does: every eighth
    /// from row 4 a progressive JPEG served one scan every 400 ms (the tile sharpens as scans arrive), every eighth
    /// from row 8 an animation, a GIF or a WebP in turn (the list shows its first frame, Enter plays it).
    private static func withShowcaseItems(_ items: [GalleryItem], server: FixtureServer) -> [GalleryItem] {
        var items = items
        for index in stride(from: 3, to: items.count, by: 8) {
            let number = index + 1
            let title = items[index].title
            items[index] = GalleryItem(
                title: "\(title) · progressive JPEG"
            ) { width in
                let width = min(max(width, 160), 960)
                return server.url("/progressive/\(number).jpg").appending(queryItems: [
                    URLQueryItem(name: "w", value: String(width)),
                    URLQueryItem(name: "h", value: String(width * 3 / 4)),
                    URLQueryItem(name: "pauseMs", value: "400"),
                ])
            }
        }
        for index in stride(from: 7, to: items.count, by: 8) {
            let number = index + 1
            let format = number % 16 == 8 ? "gif" : "webp"
            let title = items[index].title
            let label = "animated \(format.uppercased())"
            items[index] = GalleryItem(title: "\(title) · \(label)") { width in
                // 4:3 at the width asked for, at least the list's thumbnail, at most a terminal's detail view.
                let width = min(max(width, 160), 960)
                return server.url("/animated/\(number).\(format)").appending(queryItems: [
                    URLQueryItem(name: "w", value: String(width)),
                    URLQueryItem(name: "h", value: String(width * 3 / 4)),
                    URLQueryItem(name: "frames", value: "16"),
                    URLQueryItem(name: "delayMs", value: "90"),
                ])
            }
        }
        return items
    }

    /// A pipeline whose disk cache lives in a temporary folder, which the caller removes at the end. The fixture
    /// server's port changes from run to run, and with it every URL: a disk cache kept across runs would only
    /// fill up.
    private static func makePipeline(
        memoryCache: MemoryCache,
        diskSizeLimit: Int,
        maximumBackgroundDataLoads: Int? = nil,
        source: GallerySource?,
        log: GalleryLog
    ) -> (pipeline: ImagePipeline, diskFolder: URL) {
        // Local files only for a folder the user named: a media API must not make the gallery read local files.
        var options = DataLoaderOptions()
        if case .directory? = source { options.allowsLocalFiles = true }
        let diskFolder = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookahead-gallery-\(ProcessInfo.processInfo.processIdentifier)")
        let pipeline = ImagePipeline {
            $0.dataLoader = DefaultDataLoader(options: options)
            $0.memoryCache = memoryCache
            $0.diskCache = DiskCache(directory: diskFolder, sizeLimit: diskSizeLimit)
            $0.maximumBackgroundDataLoads = maximumBackgroundDataLoads
            $0.eventHandler = log.pipelineEvent
            // Progressive JPEGs sharpen on screen as their scans arrive.
            $0.isProgressiveDecodingEnabled = true
        }
        return (pipeline, diskFolder)
    }

    // MARK: - Interactive

    private func runInteractive() async throws {
        let itemSource: GallerySource
        var server: FixtureServer?
        if let source {
            itemSource = try GallerySource.parse(source, itemCount: rows)
        } else {
            let started = try await startServer()
            server = started
            itemSource = .api(started.url("/api/v2/content/misc/media-coverages"))
        }
        let destination: GalleryLog.Destination =
            switch log {
            case nil: .none
            case "pane": .memory
            case let path?: .file(path)
            }
        let galleryLog = GalleryLog(destination: destination)
        var items = try await listItems(of: itemSource, stopping: server)
        if let server { items = Self.withShowcaseItems(items, server: server) }
        let (pipeline, diskFolder) = Self.makePipeline(
            memoryCache: MemoryCache(costLimit: 128 << 20, countLimit: 300),
            diskSizeLimit: 200 << 20,
            maximumBackgroundDataLoads: 4,
            source: itemSource,
            log: galleryLog
        )
        defer { try? FileManager.default.removeItem(at: diskFolder) }
        let gallery = InteractiveGallery(
            pipeline: pipeline,
            items: items,
            terminal: Terminal(),
            log: galleryLog,
            options: interactiveOptions(startingOutageOf: server)
        ) { () async throws(GallerySource.Failure) -> [GalleryItem] in
            try await itemSource.items()
        }
        let summary = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<InteractiveGallery.Summary, any Error>) in
            let thread = Thread {
                continuation.resume(with: Result { try gallery.run() })
            }
            thread.name = "gallery-frames"
            thread.start()
        }
        pipeline.invalidate()
        await pipeline.flush()
        Self.leaveRunningUntilExit(server)
        printSummary(summary, log: galleryLog, itemCount: items.count)
    }

    /// The interactive gallery's options; starts the embedded server's `--outage`, if any.
    private func interactiveOptions(startingOutageOf server: FixtureServer?) -> InteractiveGallery.Options {
        var options = InteractiveGallery.Options()
        options.mode = mode
        options.graphics = graphics.mode
        options.logLines = log == "pane" ? 6 : 0
        if let server, outage > 0 {
            let duration = Duration.milliseconds(Int64(outage * 1000))
            server.startOutage(for: duration)
            options.outageEnd = ContinuousClock.now.advanced(by: duration)
        }
        return options
    }

    /// The line printed after the interactive gallery quits.
    private func printSummary(_ summary: InteractiveGallery.Summary, log galleryLog: GalleryLog, itemCount: Int) {
        let counters = galleryLog.snapshot
        print(
            "Lookahead gallery: \(itemCount) items, \(counters.downloadsStarted) downloads "
                + "(\(counters.downloadsCancelled) cancelled, \(counters.downloadsRestarted) restarted), "
                + "failures: \(counters.failureSummary), "
                + "\(summary.memoryHits) memory hits, \(counters.diskHits) disk hits, "
                + "\(summary.frames) frames, \(summary.lateFrames) late; work per frame "
                + String(
                    format: "p50 %.2f ms, p99 %.2f ms, max %.1f ms; writing to the terminal p50 %.2f ms, p99 %.2f ms.",
                    summary.frameWork(percentile: 0.5),
                    summary.frameWork(percentile: 0.99),
                    summary.frameWork.max() ?? 0,
                    InteractiveGallery.Summary.percentile(0.5, of: summary.writeTime),
                    InteractiveGallery.Summary.percentile(0.99, of: summary.writeTime)
                )
                + (summary.outageRecovery.map {
                    String(format: " Every visible image shown %.1f s after the outage ended.", $0)
                } ?? "")
        )
    }

    /// Keeps the embedded server running until the process exits, instead of stopping it. Cancelling a
    /// Hummingbird server while connections it accepted are still queued can trap in SwiftNIO ("Deinited
    /// NIOAsyncWriter without calling finish()"), as the gallery did now and then on quit; the process is about to
    /// end, so there is nothing to shut down gracefully.
    private static func leaveRunningUntilExit(_ server: FixtureServer?) {
        guard let server else { return }
        embeddedServers.withLock { $0.append(server) }
    }

    private static let embeddedServers = Mutex<[FixtureServer]>([])

    // MARK: - Headless

    private func runHeadless() async throws {
        // Events to --log FILE when given (the summary still on screen), else to standard output.
        let log =
            if let path = log, path != "pane" {
                GalleryLog(destination: .file(path), isQuiet: quiet, echoesSummary: true)
            } else {
                GalleryLog(isQuiet: quiet)
            }
        let parsedSource = try source.map { try GallerySource.parse($0, itemCount: rows) }
        let (server, urls) = try await headlessURLs(of: parsedSource)
        let (pipeline, diskFolder) = Self.makePipeline(
            memoryCache: MemoryCache(costLimit: 64 << 20, countLimit: 100),
            diskSizeLimit: 100 << 20,
            source: parsedSource,
            log: log
        )
        defer { try? FileManager.default.removeItem(at: diskFolder) }
        let pictures =
            if let server, let folder = server.configuration.photosFolder {
                " (\(server.photoCount) camera photos from \(folder.path))"
            } else { "" }
        log.say(
            "✨ Gallery ready: rows \"Hello 1\" … \"Hello \(urls.count)\", images from "
                + (source ?? server?.baseURL.absoluteString ?? "") + pictures
        )
        log.say("📊 Total items: \(urls.count)")
        let settings = HeadlessGallery.Settings(
            rowCount: urls.count,
            viewportRows: viewportRows,
            frameDuration: .milliseconds(max(1, frameMs))
        )
        let gallery = HeadlessGallery(pipeline: pipeline, urls: urls, log: log, settings: settings)
        let clock = ContinuousClock()
        let start = clock.now
        let summary = await HeadlessGallery.run(
            gallery,
            script: .standard(rowCount: urls.count, viewportRows: viewportRows)
        )
        let elapsed = start.duration(to: clock.now)
        // Stop what is still loading and let the disk cache finish its writes before the folder is removed.
        pipeline.invalidate()
        await pipeline.flush()
        Self.leaveRunningUntilExit(server)
        printSummary(summary, log: log, elapsed: elapsed, rowCount: urls.count)
    }

    /// The headless run's rows: from --source, or from the embedded server (started here): its media covers when
    /// it has photos (resized by the server to --image-size pixels wide), else its generated images. Rows evicted
    /// from the 100-image memory cache come back from the disk cache when the script scrolls back up.
    private func headlessURLs(of parsedSource: GallerySource?) async throws -> (FixtureServer?, [URL]) {
        if let parsedSource {
            let items = try await listItems(of: parsedSource, limit: rows, stopping: nil)
            return (nil, items.map { $0.imageURL(imageSize) })
        }
        let started = try await startServer(minimumMediaCount: rows)
        let urls = (1...max(1, rows)).map { number in
            started.photoCount > 0
                ? started.coverURL(number, width: imageSize)
                : started.imageURL(number, width: imageSize, height: imageSize)
        }
        return (started, urls)
    }

    private func printSummary(_ summary: HeadlessGallery.Summary, log: GalleryLog, elapsed: Duration, rowCount: Int) {
        let counters = log.snapshot
        let placeholders = summary.placeholderMilliseconds.sorted()
        func percentile(_ p: Double) -> Int {
            guard !placeholders.isEmpty else { return 0 }
            return Int(placeholders[min(placeholders.count - 1, Int(Double(placeholders.count - 1) * p))])
        }
        let shown = summary.rowsShown
        let share = shown == 0 ? 0 : summary.rowsShownWithPlaceholder * 100 / shown
        log.say("")
        log.say("📊 Summary")
        log.say("   rows shown: \(shown) of \(rowCount)")
        log.say("   rows first shown with a placeholder: \(summary.rowsShownWithPlaceholder) (\(share)%)")
        log.say("   placeholder time per shown row: p50 \(percentile(0.5)) ms, p95 \(percentile(0.95)) ms")
        log.say(
            "   downloads: \(counters.downloadsStarted) started, \(counters.downloadsFinished) finished, "
                + "\(counters.downloadsCancelled) cancelled, \(counters.downloadsFailed) failed, "
                + "\(counters.downloadsRestarted) restarted, "
                + "\(counters.sharedRequests) requests joined a download in flight"
        )
        log.say("   distinct URLs started: \(counters.distinctURLsStarted)")
        // Finished downloads only: the pipeline's events do not say how many bytes a cancelled download had
        // received, so what cancelled downloads wasted is not in this figure.
        let wasted = log.finishedBytes(ofURLsNotIn: summary.shownURLs)
        let wastedShare = counters.bytes == 0 ? 0 : Double(wasted) * 100 / Double(counters.bytes)
        log.say(
            "   wasted bytes: \(wasted) (\(String(format: "%.1f", wastedShare)) %) — finished downloads whose image "
                + "was never on screen"
        )
        log.say(
            "   failures: \(counters.failureSummary) (\(counters.diskEntriesRemoved) removed from the disk cache)"
        )
        log.say("   bytes downloaded: \(counters.bytes) (\(counters.bytes / 1024) KiB)")
        log.say(
            "   rows configured from the memory cache: \(summary.memoryHits); images read from the disk cache: \(counters.diskHits); stale changes dropped: \(summary.staleChangesDropped)"
        )
        log.say("   frames: \(summary.frames), late: \(summary.lateFrames)")
        log.say("   elapsed: \(String(format: "%.1f", Double(elapsed.milliseconds) / 1000)) s")
    }
}

/// A failure reported as `Error: …` and exit status 1, without the usage text a `ValidationError` adds.
struct GalleryFailure: Error, CustomStringConvertible {
    let description: String
}

extension GalleryMode: ExpressibleByArgument {}

/// `--graphics`: a graphics mode, or `auto` for the one the terminal announces.
enum GraphicsChoice: String, CaseIterable, ExpressibleByArgument {
    case auto
    case symbols
    case kitty
    case sixels
    case iterm2

    /// The mode to draw with.
    var mode: GraphicsMode { GraphicsMode(rawValue: rawValue) ?? GraphicsMode.detect() }
}
