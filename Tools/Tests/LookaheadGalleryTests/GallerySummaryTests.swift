// Lookahead gallery tests — the summary counts network failures and decoding failures apart: from the pipeline's
// events, and in the headless gallery's summary over the embedded server's injected faults.

import Foundation
import Lookahead
import Testing

@testable import LookaheadGallery

@Suite(.timeLimit(.minutes(2))) struct GallerySummaryTests {
    @Test func networkAndDecodingFailuresAreCountedApart() {
        let log = GalleryLog(destination: .none)
        let url = URL(string: "http://127.0.0.1/images/1.jpg")!
        log.pipelineEvent(.dataLoadFailed(url, .statusCodeUnacceptable(500)))
        log.pipelineEvent(.dataLoadFailed(url, .dataLoadingFailed(URLError(.networkConnectionLost))))
        for _ in 0..<3 { log.pipelineEvent(.decodingFailed(url, .decodingFailed(codec: "JPEG", message: "cut"))) }
        log.pipelineEvent(.diskCacheEntryRemoved(url, reason: .noDecoder(header: "3c 68")))
        let counters = log.snapshot
        #expect(counters.downloadsFailed == 2)
        #expect(counters.decodesFailed == 3)
        #expect(counters.diskEntriesRemoved == 1)
        #expect(counters.failureSummary == "2 network, 3 decoding")
    }

    @Test func theHeadlessSummaryShowsBothKindsOfFailure() async throws {
        let process = Process()
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let executable = try #require(
            [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("lookahead-gallery") }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "lookahead-gallery is not built next to \(bundle.path): run `swift build --build-tests` in Tools first"
        )
        process.executableURL = executable
        process.arguments = [
            "--headless", "--quiet", "--rows", "40", "--frame-ms", "4", "--latency-ms", "5", "--jitter-ms", "5",
            "--fail-rate", "0.3", "--truncate-rate", "0.3",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let status = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<Int32, any Error>) in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(status == 0, "\(text)")
        let line = try #require(text.split(separator: "\n").first { $0.contains("failures: ") }, "\(text)")
        // "   failures: 12 network, 9 decoding (0 removed from the disk cache)"
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        try #require(numbers.count >= 2, "\(line)")
        #expect(numbers[0] > 0, "HTTP 500s are network failures: \(line)")
        #expect(numbers[1] > 0, "truncated JPEGs are decoding failures: \(line)")
    }
}
