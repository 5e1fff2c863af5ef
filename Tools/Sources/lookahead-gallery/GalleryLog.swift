// Lookahead gallery — the console log in the format of the seed demo, and the counters for the summary.

import Foundation
import Lookahead
import Synchronization

/// Prints the gallery's events as the seed demo app does, and counts what the summary reports.
final class GalleryLog: Sendable {
    struct Counters {
        var downloadsStarted = 0
        var downloadsFinished = 0
        var downloadsCancelled = 0
        var downloadsFailed = 0
        var sharedRequests = 0
        var bytes = 0
        var diskHits = 0
    }

    private let counters = Mutex(Counters())
    private let output = Mutex(FileHandleOutputStream())
    let isQuiet: Bool

    init(isQuiet: Bool = false) {
        self.isQuiet = isQuiet
    }

    var snapshot: Counters { counters.withLock { $0 } }

    /// Prints one event line, whole, even when several threads log at once; nothing when quiet.
    func line(_ text: String) {
        guard !isQuiet else { return }
        say(text)
    }

    /// Prints a line even when quiet (headers and the summary).
    func say(_ text: String) {
        output.withLock { stream in stream.write(text + "\n") }
    }

    /// The pipeline's event handler.
    @Sendable func pipelineEvent(_ event: ImagePipeline.Event) {
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
        case .memoryCacheHit, .imageDecoded:
            break
        }
    }
}

/// Writes to standard output without Foundation's `print` buffering surprises between threads.
struct FileHandleOutputStream: TextOutputStream, Sendable {
    mutating func write(_ string: String) {
        FileHandle.standardOutput.write(Data(string.utf8))
    }
}
