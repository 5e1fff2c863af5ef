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

    private let counters = Mutex(Counters())
    private let output: Mutex<Output>
    private let destination: Destination
    /// Whether event lines are dropped (summary lines still go out with ``say(_:)``).
    public let isQuiet: Bool
    private static let recentLimit = 200

    public init(destination: Destination = .standardOutput, isQuiet: Bool = false) {
        self.destination = destination
        self.isQuiet = isQuiet
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

    public var snapshot: Counters { counters.withLock { $0 } }

    /// The last `count` event lines (with the `.memory` destination).
    public func recentLines(_ count: Int) -> [String] {
        output.withLock { Array($0.recent.suffix(count)) }
    }

    /// Writes one event line, whole, even when several threads log at once; nothing when quiet.
    public func line(_ text: String) {
        guard !isQuiet else { return }
        say(text)
    }

    /// Writes a line even when quiet (headers and the summary).
    public func say(_ text: String) {
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
        switch event {
        case .dataLoadStarted(let url):
            counters.withLock { $0.downloadsStarted += 1 }
            line("⬇️ Starting download: \(url.absoluteString)")
        case .dataLoadFinished(_, let byteCount):
            counters.withLock {
                $0.downloadsFinished += 1
                $0.bytes += byteCount
            }
        case .dataLoadCancelled:
            counters.withLock { $0.downloadsCancelled += 1 }
        case .dataLoadFailed(let url, let error):
            counters.withLock { $0.downloadsFailed += 1 }
            line("❌ Download failed: \(url.absoluteString) — \(error)")
        case .coalesced:
            counters.withLock { $0.sharedRequests += 1 }
        case .diskCacheHit(let url, _):
            counters.withLock { $0.diskHits += 1 }
            line("📦 Image loaded from disk cache: \(url.absoluteString)")
        case .decodingFailed(let url, let error):
            counters.withLock { $0.decodesFailed += 1 }
            line("❌ Decoding failed: \(url.absoluteString) — \(error)")
        case .diskCacheEntryRemoved(let url, _):
            counters.withLock { $0.diskEntriesRemoved += 1 }
            line("🗑️ Removed from the disk cache (did not decode): \(url.absoluteString)")
        case .memoryCacheHit, .imageDecoded:
            break
        }
    }
}
