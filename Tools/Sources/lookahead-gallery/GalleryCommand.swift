// Lookahead gallery — the command line: start the fixture server, build the rows, replay the scroll.

import ArgumentParser
import Foundation
import Lookahead
import LookaheadFixtures

@main
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookahead-gallery",
        abstract: "Scrolls a list of rows whose images load over real HTTP through the Lookahead pipeline."
    )

    @Flag(help: "Replay a scripted scroll and log events instead of drawing (the only mode for now).")
    var headless = false

    @Option(help: "Rows in the list (\"Hello 1\" … \"Hello N\").")
    var rows = 200

    @Option(help: "Rows visible at once.")
    var viewportRows = 8

    @Option(help: "Milliseconds per frame (16 ≈ 60 Hz, 8 ≈ 120 Hz).")
    var frameMs = 16

    @Option(help: "Server latency before each image, in milliseconds.")
    var latencyMs = 100

    @Option(help: "Extra random latency per image, up to this many milliseconds (seeded).")
    var jitterMs = 200

    @Option(help: "Image size in pixels (square).")
    var imageSize = 200

    @Flag(help: "Print only the summary.")
    var quiet = false

    func run() async throws {
        let server = try await FixtureServer.start(
            configuration: .init(latency: .milliseconds(latencyMs), jitter: .milliseconds(jitterMs), seed: 42)
        )
        let log = GalleryLog(isQuiet: quiet)
        // The fixture server's port changes from run to run, and with it every URL: a disk cache kept across runs
        // would only fill up. Each run gets a fresh one, removed at the end; rows evicted from the 100-image memory
        // cache come back from it when the script scrolls back up.
        let diskFolder = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookahead-gallery-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: diskFolder) }
        let pipeline = ImagePipeline {
            $0.memoryCache = MemoryCache(costLimit: 64 << 20, countLimit: 100)
            $0.diskCache = DiskCache(directory: diskFolder, sizeLimit: 100 << 20)
            $0.eventHandler = log.pipelineEvent
        }
        let urls = (1...max(1, rows)).map { server.imageURL($0, width: imageSize, height: imageSize) }
        log.say(
            "✨ Gallery ready: rows \"Hello 1\" … \"Hello \(urls.count)\", images from \(server.baseURL.absoluteString)"
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
        await server.stop()
        printSummary(summary, log: log, elapsed: elapsed)
    }

    private func printSummary(_ summary: HeadlessGallery.Summary, log: GalleryLog, elapsed: Duration) {
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
        log.say("   rows shown: \(shown) of \(rows)")
        log.say("   rows first shown with a placeholder: \(summary.rowsShownWithPlaceholder) (\(share)%)")
        log.say("   placeholder time per shown row: p50 \(percentile(0.5)) ms, p95 \(percentile(0.95)) ms")
        log.say(
            "   downloads: \(counters.downloadsStarted) started, \(counters.downloadsFinished) finished, "
                + "\(counters.downloadsCancelled) cancelled, \(counters.downloadsFailed) failed, "
                + "\(counters.sharedRequests) requests joined a download in flight"
        )
        log.say("   bytes downloaded: \(counters.bytes) (\(counters.bytes / 1024) KiB)")
        log.say(
            "   rows configured from the memory cache: \(summary.memoryHits); images read from the disk cache: \(counters.diskHits); stale changes dropped: \(summary.staleChangesDropped)"
        )
        log.say("   frames: \(summary.frames), late: \(summary.lateFrames)")
        log.say("   elapsed: \(String(format: "%.1f", Double(elapsed.milliseconds) / 1000)) s")
    }
}
