// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench faults`: every hostile case, each in a child process of its own, with its
// error, time to fail, peak memory and what the disk cache kept.

import ArgumentParser
import Foundation
import Lookahead
import LookaheadFixtures

/// Loads one hostile URL per child process through a default pipeline (default loader, a disk cache in a fresh
/// folder, the configured size limit and timeouts) and prints one table. A child reports its resident memory
/// before the load and its peak (`VmHWM`) after, so each row shows what that case cost, not what the others
/// left behind.
struct FaultsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faults",
        abstract: "Run each hostile-network case in a child process: error, time to fail, peak RSS, cache entries."
    )

    @Option(help: "The pipeline's response size limit, in MiB.")
    var limitMB = 64

    @Option(help: "The total deadline per download, in seconds.")
    var timeout = 30.0

    @Option(help: "The idle timeout per download, in seconds.")
    var idleTimeout = 15.0

    @Option(help: "Only these cases, comma-separated (default: all). `--list` shows them.")
    var cases: String?

    @Flag(help: "List the cases and exit.")
    var list = false

    @Flag(help: "Print tab-separated rows only (for scripts and tests).")
    var tsv = false

    @Option(help: .hidden) var child: String?
    @Option(help: .hidden) var url: String?

    struct Case {
        let name: String
        let path: String
        let what: String
    }

    static let all: [Case] = [
        Case(name: "baseline", path: "/images/1.jpg?w=200&h=200", what: "a good 200×200 JPEG"),
        Case(name: "redirect-chain", path: "/hostile/redirect/4", what: "4 redirects, then a JPEG"),
        Case(name: "redirect-6", path: "/hostile/redirect/6", what: "6 redirects"),
        Case(name: "redirect-loop", path: "/hostile/redirect-loop/a", what: "a → b → a"),
        Case(name: "redirect-ftp", path: "/hostile/redirect-to?location=ftp://127.0.0.1/x", what: "302 to ftp:"),
        Case(name: "status-404", path: "/status/404", what: "404"),
        Case(name: "status-500", path: "/status/500", what: "500"),
        Case(name: "not-an-image", path: "/status/200", what: "200 with a text body"),
        Case(name: "html", path: "/hostile/html", what: "200 with an HTML page"),
        Case(name: "truncated-jpeg", path: "/hostile/truncated.jpg", what: "a JPEG cut short, honest length"),
        Case(name: "scan-bomb", path: "/hostile/scan-bomb.jpg", what: "a progressive JPEG with thousands of scans"),
        Case(name: "short-body", path: "/hostile/short-body?declared=20000&sent=5000", what: "Content-Length lies"),
        Case(name: "reset", path: "/faults/reset", what: "connection closed, no response"),
        Case(name: "endless", path: "/hostile/endless", what: "a body that never ends"),
        Case(name: "gzip-bomb", path: "/hostile/gzip-bomb?mb=1024", what: "1 MB of gzip → 1 GiB"),
        Case(name: "declared-huge", path: "/hostile/declared-huge", what: "Content-Length: 200 MB"),
        Case(name: "stall-headers", path: "/hostile/stall-headers", what: "no response at all"),
        Case(name: "stall-body", path: "/hostile/stall-body", what: "1 KiB, then silence"),
        Case(name: "trickle", path: "/hostile/trickle?intervalMs=20000", what: "1 byte per 20 s"),
        Case(name: "steady-trickle", path: "/hostile/trickle?intervalMs=200&bytes=100000", what: "5 bytes/s"),
        Case(name: "unsupported-scheme", path: "ftp://127.0.0.1/a.jpg", what: "an ftp: URL"),
    ]

    func run() async throws {
        if let child, let url { return try await runChild(child, url: url) }
        if list {
            for item in Self.all { print(item.name.padding(toLength: 20, withPad: " ", startingAt: 0), item.what) }
            return
        }
        let names = cases.map { Set($0.split(separator: ",").map(String.init)) }
        let selected = Self.all.filter { names?.contains($0.name) ?? true }
        guard !selected.isEmpty else { throw ValidationError("no such case; --list shows them") }
        // The server makes the bomb on first use; make it now, so its time is not counted as the client's.
        if selected.contains(where: { $0.name == "gzip-bomb" }) { _ = CompressionBomb.gzip(mebibytes: 1024) }
        let server = try await FixtureServer.start()
        defer { Task { await server.stop() } }
        if !tsv {
            print("lookahead-bench faults — limit \(limitMB) MiB, deadline \(timeout) s, idle \(idleTimeout) s")
            print("load average: \(loadAverage())")
            print(
                "case".padding(toLength: 20, withPad: " ", startingAt: 0)
                    + "result".padding(toLength: 58, withPad: " ", startingAt: 0)
                    + "   time     rss before → peak   entries"
            )
        }
        for item in selected {
            let url = item.path.hasPrefix("/") ? server.url(item.path).absoluteString : item.path
            let line = try runChildProcess(item.name, url: url)
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 else {
                print("\(item.name)\tchild failed: \(line)")
                continue
            }
            if tsv {
                print(([item.name] + fields).joined(separator: "\t"))
            } else {
                let result = fields[0].count > 56 ? String(fields[0].prefix(55)) + "…" : fields[0]
                print(
                    item.name.padding(toLength: 20, withPad: " ", startingAt: 0)
                        + result.padding(toLength: 58, withPad: " ", startingAt: 0)
                        + String(
                            format: "%8.2f s  %5.0f → %5.0f MB  %4@",
                            Double(fields[1])! / 1000,
                            Double(fields[2])! / 1024,
                            Double(fields[3])! / 1024,
                            fields[4]
                        )
                )
            }
        }
    }

    /// Runs this program as a child for one case and returns its result line.
    private func runChildProcess(_ name: String, url: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [
            "faults", "--child", name, "--url", url, "--limit-mb", "\(limitMB)", "--timeout", "\(timeout)",
            "--idle-timeout", "\(idleTimeout)",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        return text.split(separator: "\n").last.map(String.init) ?? "exit \(process.terminationStatus)"
    }

    /// The child: one load through a default pipeline; prints `result, ms, rss before KB, peak KB, entries`.
    private func runChild(_ name: String, url: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-faults-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = DiskCache(directory: folder, sizeLimit: 512 << 20)
        let pipeline = ImagePipeline {
            $0.diskCache = disk
            $0.maximumResponseSize = limitMB << 20
            $0.dataLoadTimeout = .seconds(timeout)
            $0.dataLoadIdleTimeout = .seconds(idleTimeout)
        }
        let before = Self.memory("VmRSS")
        let start = ContinuousClock.now
        let result: String
        do {
            let response = try await pipeline.image(for: URL(string: url)!)
            result = "ok \(response.image.width)×\(response.image.height)"
        } catch {
            result = "\(error)".replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
        }
        let elapsed = ContinuousClock.now - start
        await disk.flush()
        let entries = disk.totalCount
        let milliseconds = Int((elapsed.seconds * 1000).rounded())
        print("\(result)\t\(milliseconds)\t\(before)\t\(Self.memory("VmHWM"))\t\(entries)")
    }

    /// A `/proc/self/status` figure in KiB.
    private static func memory(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
