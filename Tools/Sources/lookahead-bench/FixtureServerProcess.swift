// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — the fixture server in a child process, so a memory measurement counts only the client.

import ArgumentParser
import Foundation
import LookaheadFixtures

/// `lookahead-bench fixture-server`: serves the fixture routes until its standard input closes. Not listed in the
/// help; the soak benchmark starts it as a child process.
struct FixtureServerChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixture-server",
        abstract: "Serves the fixture routes on a free loopback port; prints the base URL, stops when stdin closes.",
        shouldDisplay: false
    )

    @Option(help: "Latency before each image, in milliseconds.")
    var latencyMs = 0

    @Option(help: "JPEG quality of the pictures.")
    var jpegQuality = FixtureImages.defaultQuality

    func run() async throws {
        let server = try await FixtureServer.start(
            configuration: .init {
                $0.latency = .milliseconds(latencyMs)
                $0.jpegQuality = jpegQuality
            }
        )
        FileHandle.standardOutput.write(Data((server.baseURL.absoluteString + "\n").utf8))
        // The parent holds the other end of stdin: when it exits or closes it, so does this server.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                while !FileHandle.standardInput.availableData.isEmpty {}
                continuation.resume()
            }
            thread.start()
        }
        await server.stop()
    }
}

/// A fixture server running in a child process (this executable's `fixture-server` subcommand).
final class FixtureServerProcess: Sendable {
    /// `http://127.0.0.1:PORT`.
    let baseURL: URL
    private let process: Process
    private let input: Pipe

    private init(baseURL: URL, process: Process, input: Pipe) {
        self.baseURL = baseURL
        self.process = process
        self.input = input
    }

    /// Starts the child and returns once it listens.
    static func start(latencyMilliseconds: Int = 0) async throws -> FixtureServerProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["fixture-server", "--latency-ms", "\(latencyMilliseconds)"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line is the base URL; read it off the cooperative pool.
        let line = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let thread = Thread {
                var bytes: [UInt8] = []
                while true {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    bytes += chunk
                    if bytes.contains(UInt8(ascii: "\n")) { break }
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
            thread.start()
        }
        guard let url = URL(string: line.trimmingCharacters(in: .whitespacesAndNewlines)), url.port != nil else {
            process.terminate()
            throw BenchFailure(description: "the fixture server child did not start: \(line)")
        }
        return FixtureServerProcess(baseURL: url, process: process, input: input)
    }

    /// The child's resident memory, in bytes.
    var residentBytes: Int? {
        ResidentMemory.bytes(ofProcess: process.processIdentifier)
    }

    /// Closes the child's stdin and waits for it to exit.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
