// Lookahead — lookahead-fixture-server: command line entry point for the loopback image server.

import ArgumentParser
import Foundation
import LookaheadFixtures

/// Runs the Lookahead fixture server until SIGINT or SIGTERM.
@main
struct FixtureServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookahead-fixture-server",
        abstract: "Serve generated JPEGs and fault-injection routes on 127.0.0.1."
    )

    @Option(help: "Port to listen on (0 picks a free port).")
    var port = 8080

    @Option(name: .customLong("latency-ms"), help: "Fixed delay before image response headers, in milliseconds.")
    var latencyMilliseconds = 0

    @Option(name: .customLong("jitter-ms"), help: "Maximum extra random delay per image request, in milliseconds.")
    var jitterMilliseconds = 0

    @Option(help: "Seed for the jitter; the same seed gives the same delays.")
    var seed: UInt64 = 0

    @Option(name: .customLong("bytes-per-second"), help: "Bandwidth limit for image bodies (default: unlimited).")
    var bytesPerSecond: Int?

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
                configuration.shouldLogServerEvents = verbose
            }
        )
        var banner = ["Serving fixtures on \(server.baseURL.absoluteString)", "Examples:"]
        banner += Self.examplePaths.map { "  \(server.url($0).absoluteString)" }
        banner.append("Press Ctrl-C to stop.")
        Self.printFlushed(banner)

        let signal = await shutdown.next()
        Self.printFlushed(["Received \(signal), shutting down."])
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
        "/status/404",
        "/faults/corrupt.jpg",
        "/faults/truncated.jpg",
        "/faults/huge-dimensions.jpg",
        "/faults/large?bytes=10485760&length=false",
        "/faults/slow?bytes=65536&chunk=1024&delayMs=50",
        "/faults/reset",
    ]
}
