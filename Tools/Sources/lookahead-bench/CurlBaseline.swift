// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — the curl baseline: one `curl --parallel` process over a list of URLs, timed.

import Foundation

/// Runs `curl --parallel --parallel-max N` once over a list of URLs, every body to `/dev/null` (or to a file of its
/// own in a folder), and reads back what each transfer did from `--write-out`.
struct CurlBaseline {
    /// What one curl run did.
    struct Run {
        var seconds: Double
        var bytes: Int
        /// New connections, summed over the transfers (`%{num_connects}`).
        var connections: Int
        var failures: Int
    }

    /// The curl executable.
    let executable: String
    /// `--parallel-max`.
    let maximumParallel: Int
    /// The `--config` file listing the URLs, one `url`/`output` pair each.
    let configFile: URL

    /// The files the bodies are written to, in the order of the URLs; empty when they go to `/dev/null`.
    let outputFiles: [String]

    init(executable: String, maximumParallel: Int, urls: [URL], outputFolder: URL? = nil) throws {
        self.executable = executable
        self.maximumParallel = maximumParallel
        let name =
            "lookahead-e2e-\(ProcessInfo.processInfo.processIdentifier)-\(urls.count)\(outputFolder == nil ? "" : "-files")"
        configFile = FileManager.default.temporaryDirectory.appendingPathComponent(name + ".curl")
        outputFiles =
            outputFolder.map { folder in urls.indices.map { folder.appendingPathComponent("\($0).jpg").path } } ?? []
        let lines = urls.enumerated().map { index, url in
            "url = \"\(url.absoluteString)\"\noutput = \"\(outputFiles.isEmpty ? "/dev/null" : outputFiles[index])\"\n"
        }
        try lines.joined().write(to: configFile, atomically: true, encoding: .utf8)
    }

    /// Removes the config file.
    func remove() {
        try? FileManager.default.removeItem(at: configFile)
    }

    /// Runs curl once; the time includes curl's process start-up (see ``startupSeconds()``).
    func run() async throws -> Run {
        let arguments = [
            "--parallel", "--parallel-max", "\(maximumParallel)", "--silent", "--no-progress-meter",
            "--write-out", "%{num_connects} %{size_download} %{http_code}\\n", "--config", configFile.path,
        ]
        let (seconds, output) = try await Self.time(executable, arguments)
        var run = Run(seconds: seconds, bytes: 0, connections: 0, failures: 0)
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let connects = Int(fields[0]), let size = Int(fields[1]) else { continue }
            run.connections += connects
            run.bytes += size
            if fields[2] != "200" { run.failures += 1 }
        }
        return run
    }

    /// The time `curl --version` takes: what process start-up adds to every run.
    func startupSeconds() async throws -> Double {
        try await Self.time(executable, ["--version"]).seconds
    }

    /// Runs a program to its end; returns the wall-clock time from launch to exit and its standard output.
    private static func time(_ executable: String, _ arguments: [String]) async throws -> (
        seconds: Double, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // A file, not a pipe: a pipe's buffer could fill before curl exits, and nothing reads it until then.
        let outputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookahead-e2e-\(ProcessInfo.processInfo.processIdentifier).out")
        guard FileManager.default.createFile(atPath: outputFile.path, contents: nil) else {
            throw BenchFailure(description: "could not create \(outputFile.path)")
        }
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let handle = try FileHandle(forWritingTo: outputFile)
        defer { try? handle.close() }
        process.standardOutput = handle
        let clock = ContinuousClock()
        let start = clock.now
        let end: ContinuousClock.Instant = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { _ in continuation.resume(returning: clock.now) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let data = (try? Data(contentsOf: outputFile)) ?? Data()
        guard process.terminationStatus == 0 else {
            throw BenchFailure(description: "\(executable) exited with status \(process.terminationStatus)")
        }
        return ((end - start).seconds, String(decoding: data, as: UTF8.self))
    }
}

/// A failure reported as `Error: …` and exit status 1.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
}
