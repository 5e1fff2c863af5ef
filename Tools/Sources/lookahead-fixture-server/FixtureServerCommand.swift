// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — lookahead-fixture-server: command line entry point for the loopback image server.

import ArgumentParser
import Foundation
import LookaheadFixtures

/// Runs the Lookahead fixture server until SIGINT or SIGTERM.
@main
struct FixtureServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookahead-fixture-server",
        abstract: "Serve camera photos, generated JPEGs and fault-injection routes on 127.0.0.1."
    )

    @Option(help: "Port to listen on (0 picks a free port).")
    var port = 8080

    @Option(name: .customLong("latency-ms"), help: "Fixed delay before image response headers, in milliseconds.")
    var latencyMilliseconds = 0

    @Option(name: .customLong("jitter-ms"), help: "Maximum extra random delay per image request, in milliseconds.")
    var jitterMilliseconds = 0

    @Option(help: "Seed for the jitter and the injected faults; the same seed reproduces both.")
    var seed: UInt64 = 0

    @Option(name: .customLong("bytes-per-second"), help: "Bandwidth limit for image bodies (default: unlimited).")
    var bytesPerSecond: Int?

    @Option(name: .customLong("media-count"), help: "Number of items the media API lists.")
    var mediaCount = 240

    @Option(name: .customLong("fail-rate"), help: "Share of image requests answered with HTTP 500 (0...1).")
    var failureRate = 0.0

    @Option(name: .customLong("reset-rate"), help: "Share of image requests closed without a response (0...1).")
    var resetRate = 0.0

    @Option(name: .customLong("truncate-rate"), help: "Share of image requests sent only half of the JPEG (0...1).")
    var truncationRate = 0.0

    @Option(name: .customLong("slow-rate"), help: "Share of image requests delayed by an extra --slow-ms (0...1).")
    var slowRate = 0.0

    @Option(name: .customLong("slow-ms"), help: "Extra delay of a slow image response, in milliseconds.")
    var slowMilliseconds = 2000

    @Option(
        help: ArgumentHelp(
            "Folder of JPEG photos for the media covers, or none for generated pictures.",
            discussion:
                "Default: \(FixtureServer.systemPhotosFolder.path) (scripts/photos installs it) when it exists.",
            valueName: "dir"
        )
    )
    var photos: String?

    @Flag(help: "Send WebP to clients whose Accept asks for it, JPEG to others, with Vary: Accept (as image CDNs do).")
    var negotiateFormats = false

    @Flag(help: "Print the web server's own log lines (level from LOG_LEVEL, default info).")
    var verbose = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0...65535") }
        guard latencyMilliseconds >= 0, jitterMilliseconds >= 0 else {
            throw ValidationError("--latency-ms and --jitter-ms must not be negative")
        }
        if let bytesPerSecond, bytesPerSecond <= 0 {
            throw ValidationError("--bytes-per-second must be positive")
        }
        guard mediaCount >= 0 else { throw ValidationError("--media-count must not be negative") }
        let rates = [
            ("--fail-rate", failureRate), ("--reset-rate", resetRate),
            ("--truncate-rate", truncationRate), ("--slow-rate", slowRate),
        ]
        for (option, rate) in rates where !(0...1).contains(rate) {
            throw ValidationError("\(option) must be in 0...1")
        }
        guard slowMilliseconds >= 0 else { throw ValidationError("--slow-ms must not be negative") }
        if faults.validationFailure != nil {
            throw ValidationError("--fail-rate, --reset-rate, --truncate-rate and --slow-rate must add up to at most 1")
        }
    }

    /// The fault injection the options ask for.
    private var faults: FixtureServer.FaultInjection {
        .init(
            failureRate: failureRate,
            resetRate: resetRate,
            truncationRate: truncationRate,
            slowRate: slowRate,
            slowDelay: .milliseconds(slowMilliseconds)
        )
    }

    func run() async throws {
        let shutdown = ShutdownSignals()
        let server = try await FixtureServer.start(
            configuration: .init { configuration in
                configuration.port = port
                configuration.latency = .milliseconds(latencyMilliseconds)
                configuration.jitter = .milliseconds(jitterMilliseconds)
                configuration.seed = seed
                configuration.bytesPerSecond = bytesPerSecond
                configuration.mediaCount = mediaCount
                configuration.faults = faults
                configuration.shouldLogServerEvents = verbose
                configuration.negotiatesFormats = negotiateFormats
                configuration.photosFolder = FixtureServer.photosFolder(option: photos)
            }
        )
        var banner = ["Serving fixtures on \(server.baseURL.absoluteString)"]
        if let folder = server.configuration.photosFolder {
            banner.append("Media covers: \(server.photoCount) photos from \(folder.path)")
        } else {
            banner.append("Media covers: generated pictures")
        }
        banner.append("Examples:")
        banner += Self.examplePaths.map { "  \(server.url($0).absoluteString)" }
        banner.append("Press Ctrl-C to stop.")
        Self.printFlushed(banner)

        let signal = await shutdown.next()
        var farewell = ["Received \(signal), shutting down."]
        if faults.isEnabled {
            let counts = server.injectedFaults
            farewell.append(
                "Injected faults: \(counts.failures) failures, \(counts.resets) resets, "
                    + "\(counts.truncations) truncations, \(counts.slowResponses) slow responses."
            )
        }
        Self.printFlushed(farewell)
        await server.stop()
    }

    /// Writes lines to standard output at once, so that a script reading a pipe sees the port
    /// without waiting for the buffer to fill.
    private static func printFlushed(_ lines: [String]) {
        FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    private static let examplePaths = [
        "/images/1.jpg",
        "/images/42.jpg?w=320&h=240",
        "/api/v2/content/misc/media-coverages?limit=20&offset=0",
        "/media/240/cover-1.jpg",
        "/media/0/cover-1.jpg",
        "/status/404",
        "/faults/corrupt.jpg",
        "/faults/truncated.jpg",
        "/faults/huge-dimensions.jpg",
        "/faults/large?bytes=10485760&length=false",
        "/faults/slow?bytes=65536&chunk=1024&delayMs=50",
        "/faults/reset",
    ]
}
