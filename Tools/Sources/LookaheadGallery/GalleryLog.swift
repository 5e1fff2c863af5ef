// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the console log in the format of the seed demo, and the counters for the status line and
// the summary.

import Foundation
import Lookahead
import Synchronization

/// Writes the gallery's events as the seed demo app prints them, and counts what the status line and the summary
/// report. Thread-safe: the pipeline's events arrive on its threads.
public final class GalleryLog: Sendable {
    /// Where event lines go.
    public enum Destination: Sendable {
        /// Standard output (the headless gallery).
        case standardOutput
        /// Appended to a file.
        case file(String)
        /// Kept in memory: the last lines, for a log pane.
        case memory
        /// Nowhere: counters only.
        case none
    }

    /// What happened so far.
    public struct Counters: Sendable {
        public var downloadsStarted = 0
        /// Downloads of a URL whose download had already started before (every start after a URL's first).
        public var downloadsRestarted = 0
        /// URLs whose download started at least once.
        public var distinctURLsStarted = 0
        public var downloadsFinished = 0
        public var downloadsCancelled = 0
        /// Downloads that failed: the network, the server's status, the size limit.
        public var downloadsFailed = 0
        /// Data that arrived (from the network or the disk cache) but did not decode.
        public var decodesFailed = 0
        /// Disk cache entries removed because they did not decode.
        public var diskEntriesRemoved = 0
        public var sharedRequests = 0
        public var bytes = 0
        public var diskHits = 0

        /// The failures, network and decoding apart: "3 network, 2 decoding".
        public var failureSummary: String {
            "\(downloadsFailed) network, \(decodesFailed) decoding"
        }

        /// Downloads started and not yet ended.
        public var downloadsInFlight: Int {
            max(0, downloadsStarted - downloadsFinished - downloadsCancelled - downloadsFailed)
        }
    }

    private struct Output {
        var file: FileHandle?
        var recent: [String] = []
    }

    /// The counters, and what they are counted from per URL.
    private struct Tally {
        var counters = Counters()
        var startedURLs: Set<URL> = []
        var finishedBytes: [URL: Int] = [:]
    }

    private let tally = Mutex(Tally())
    private let output: Mutex<Output>
    private let changes = Atomic<Int>(0)
    private let destination: Destination
    /// Whether event lines are dropped (summary lines still go out with ``say(_:)``).
    public let isQuiet: Bool
    private static let recentLimit = 200

    /// Whether ``say(_:)`` lines (headers and the summary) also go to standard output when events go to a file.
    private let echoesSummary: Bool

    /// - Parameter echoesSummary: With a `.file` destination, also print ``say(_:)`` lines on standard output (the
    ///   headless gallery with `--log FILE`: events in the file, the summary on screen).
    public init(destination: Destination = .standardOutput, isQuiet: Bool = false, echoesSummary: Bool = false) {
        self.destination = destination
        self.isQuiet = isQuiet
        self.echoesSummary = echoesSummary
        var output = Output()
        if case .file(let path) = destination {
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: nil)
            }
            output.file = FileHandle(forWritingAtPath: path)
            _ = try? output.file?.seekToEnd()
        }
        self.output = Mutex(output)
    }

    public var snapshot: Counters { tally.withLock { $0.counters } }

    /// Grows whenever a line is written or a counter changes: a screen that shows the log or the counters is out of
    /// date when this differs from what it was when the screen was drawn.
    public var changeCount: Int { changes.load(ordering: .relaxed) }

    /// Bytes of the finished downloads of URLs not in `used` (a URL downloaded twice counts twice): what was
    /// downloaded for nothing, when `used` holds the URLs whose image was shown. Cancelled downloads are left out:
    /// the pipeline's events do not say how many of their bytes arrived.
    public func finishedBytes(ofURLsNotIn used: Set<URL>) -> Int {
        tally.withLock { tally in
            tally.finishedBytes.reduce(0) { sum, entry in used.contains(entry.key) ? sum : sum + entry.value }
        }
    }

    /// The bytes downloaded for a URL so far (every finished download of it), or nil when none finished.
    public func downloadedBytes(of url: URL) -> Int? {
        tally.withLock { $0.finishedBytes[url] }
    }

    /// The last `count` event lines (with the `.memory` destination).
    public func recentLines(_ count: Int) -> [String] {
        output.withLock { Array($0.recent.suffix(count)) }
    }

    /// Writes one event line, whole, even when several threads log at once; nothing when quiet.
    public func line(_ text: String) {
        guard !isQuiet else { return }
        write(text)
    }

    /// Writes a line even when quiet (headers and the summary).
    public func say(_ text: String) {
        if echoesSummary, case .file = destination { FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
        write(text)
    }

    private func write(_ text: String) {
        changes.add(1, ordering: .relaxed)
        output.withLock { output in
            switch destination {
            case .standardOutput:
                FileHandle.standardOutput.write(Data((text + "\n").utf8))
            case .file:
                output.file?.write(Data((text + "\n").utf8))
            case .memory:
                output.recent.append(text)
                if output.recent.count > Self.recentLimit { output.recent.removeFirst(output.recent.count / 2) }
            case .none:
                break
            }
        }
    }

    /// The pipeline's event handler.
    @Sendable public func pipelineEvent(_ event: ImagePipeline.Event) {
        changes.add(1, ordering: .relaxed)
        switch event {
        case .dataLoadStarted(let url):
            tally.withLock { tally in
                tally.counters.downloadsStarted += 1
                if tally.startedURLs.insert(url).inserted {
                    tally.counters.distinctURLsStarted += 1
                } else {
                    tally.counters.downloadsRestarted += 1
                }
            }
            line("⬇️ Starting download: \(url.absoluteString)")
        case .dataLoadFinished(let url, let byteCount):
            tally.withLock { tally in
                tally.counters.downloadsFinished += 1
                tally.counters.bytes += byteCount
                tally.finishedBytes[url, default: 0] += byteCount
            }
        case .dataLoadCancelled:
            tally.withLock { $0.counters.downloadsCancelled += 1 }
        case .dataLoadFailed(let url, let error):
            tally.withLock { $0.counters.downloadsFailed += 1 }
            line("❌ Download failed: \(url.absoluteString) — \(error)")
        case .coalesced:
            tally.withLock { $0.counters.sharedRequests += 1 }
        case .diskCacheHit(let url, _):
            tally.withLock { $0.counters.diskHits += 1 }
            line("📦 Image loaded from disk cache: \(url.absoluteString)")
        case .decodingFailed(let url, let error):
            tally.withLock { $0.counters.decodesFailed += 1 }
            line("❌ Decoding failed: \(url.absoluteString) — \(error)")
        case .diskCacheEntryRemoved(let url, _):
            tally.withLock { $0.counters.diskEntriesRemoved += 1 }
            line("🗑️ Removed from the disk cache (did not decode): \(url.absoluteString)")
        case .memoryCacheHit, .imageDecoded:
            break
        }
    }
}
