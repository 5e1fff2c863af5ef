// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// lookahead-cache-tests — the client side of the public HTTP cache test suite (http-tests/cache-tests): reads one
// JSON command per line on stdin and answers each with one JSON line on stdout. `scripts/cache-tests` drives it.

import ArgumentParser
import Foundation

@main
struct CacheTestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookahead-cache-tests",
        abstract: "Load the cache-tests suite's requests through ImagePipeline, one pipeline per test.",
        discussion: """
            Commands, one JSON object per line, each answered with {"seq": …} and its result:
              {"seq": 1, "command": "open", "test": "ID", "path": "data" | "image"}
                 a new pipeline for the test, with a new disk cache folder and the HTTP cache policy;
              {"seq": 2, "command": "load", "test": "ID", "url": "…", "headers": [["Name", "value"], …],
               "options": ["reload", …]}
                 one load through data(for:) or image(for:): its status, header fields, body, body length and
                 cache type;
              {"seq": 3, "command": "close", "test": "ID"}
                 waits for the pipeline's writes and removes its folder.
            """
    )

    @Flag(help: "Keep the pipeline's failure backoff on (a browser has none, so it is off by default).")
    var failureBackoff = false

    func run() async throws {
        let session = CacheTestsSession(failureBackoff: failureBackoff)
        await withTaskGroup(of: Void.self) { group in
            for await line in Self.standardInputLines() {
                group.addTask { await session.handle(line) }
            }
        }
        await session.closeAll()
    }

    /// The lines of stdin, read on a thread of their own so that the blocking reads never hold the task pool.
    private static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }.start()
        }
    }
}
