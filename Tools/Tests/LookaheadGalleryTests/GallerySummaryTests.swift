// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery tests — the summary counts network failures and decoding failures apart, restarted downloads
// and the bytes of images never shown: from the pipeline's events, and in the headless gallery's summary over the
// embedded server's injected faults.

import Foundation
import Lookahead
import LookaheadFixtures
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

    @Test func restartsAndUnusedBytesAreCountedPerURL() {
        let log = GalleryLog(destination: .none)
        let first = URL(string: "http://127.0.0.1/images/1.jpg")!
        let second = URL(string: "http://127.0.0.1/images/2.jpg")!
        log.pipelineEvent(.dataLoadStarted(first))
        log.pipelineEvent(.dataLoadStarted(second))
        log.pipelineEvent(.dataLoadCancelled(first))
        log.pipelineEvent(.dataLoadStarted(first))  // a restart: the first download of this URL was given up
        log.pipelineEvent(.dataLoadFinished(first, byteCount: 300))
        log.pipelineEvent(.dataLoadFinished(second, byteCount: 50))
        log.pipelineEvent(.dataLoadStarted(second))  // a restart after a finished download counts too
        log.pipelineEvent(.dataLoadFinished(second, byteCount: 50))
        let counters = log.snapshot
        #expect(counters.downloadsStarted == 4)
        #expect(counters.distinctURLsStarted == 2)
        #expect(counters.downloadsRestarted == 2)
        #expect(counters.bytes == 400)
        #expect(log.finishedBytes(ofURLsNotIn: []) == 400)
        #expect(log.finishedBytes(ofURLsNotIn: [first]) == 100, "both downloads of the unused URL count")
        #expect(log.finishedBytes(ofURLsNotIn: [first, second]) == 0)
    }

    @Test func theHeadlessSummaryShowsBothKindsOfFailure() async throws {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let executable = try #require(
            [bundle, bundle.deletingLastPathComponent()].map { $0.appendingPathComponent("lookahead-gallery") }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "lookahead-gallery is not built next to \(bundle.path): run `swift build --build-tests` in Tools first"
        )
        let gallery = try await runProgram(
            executable,
            arguments: [
                "--headless", "--quiet", "--rows", "40", "--frame-ms", "4", "--latency-ms", "5", "--jitter-ms", "5",
                "--fail-rate", "0.3", "--truncate-rate", "0.3",
            ]
        )
        let (status, text) = (gallery.status, gallery.output)
        #expect(status == 0, "\(text)\(gallery.errors)")
        let line = try #require(text.split(separator: "\n").first { $0.contains("failures: ") }, "\(text)")
        // "   failures: 12 network, 9 decoding (0 removed from the disk cache)"
        let numbers = Self.numbers(in: line)
        try #require(numbers.count >= 2, "\(line)")
        #expect(numbers[0] > 0, "HTTP 500s are network failures: \(line)")
        #expect(numbers[1] > 0, "truncated JPEGs are decoding failures: \(line)")
        // "   downloads: 60 started, 30 finished, 20 cancelled, 10 failed, 15 restarted, 2 requests joined …"
        let downloads = try #require(text.split(separator: "\n").first { $0.contains("downloads: ") }, "\(text)")
        let counts = Self.numbers(in: downloads)
        try #require(counts.count >= 5, "\(downloads)")
        let (started, restarted) = (counts[0], counts[4])
        let distinct = try #require(Self.numbers(after: "distinct URLs started: ", in: text).first, "\(text)")
        #expect(distinct > 0 && distinct <= 40, "at most one URL per row: \(distinct)")
        #expect(restarted == started - distinct, "\(downloads); \(distinct) distinct URLs")
        // "   wasted bytes: 12345 (6.7 %) — …" and "   bytes downloaded: 123456 (120 KiB)"
        let wasted = try #require(Self.numbers(after: "wasted bytes: ", in: text).first, "\(text)")
        let bytes = try #require(Self.numbers(after: "bytes downloaded: ", in: text).first, "\(text)")
        #expect(bytes > 0 && wasted <= bytes, "wasted \(wasted) of \(bytes) bytes")
    }

    /// The whole numbers in a line, in order.
    private static func numbers(in line: Substring) -> [Int] {
        line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    }

    /// The numbers of the first line of `text` that contains `label`, after it.
    private static func numbers(after label: String, in text: String) -> [Int] {
        guard let line = text.split(separator: "\n").first(where: { $0.contains(label) }),
            let range = line.range(of: label)
        else { return [] }
        return numbers(in: line[range.upperBound...])
    }
}
