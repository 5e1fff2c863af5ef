// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — ShutdownSignals: waits for SIGINT or SIGTERM without letting them kill the process.

import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGINT and SIGTERM into an awaitable event.
///
/// The default handlers are replaced by Dispatch sources as soon as this is created, so a signal
/// that arrives before ``next()`` is called is not lost: the stream buffers it. Keep the value
/// alive for as long as the signals should be caught.
struct ShutdownSignals {
    private let stream: AsyncStream<String>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        self.stream = stream
        self.sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { number, name in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                continuation.yield(name)
            }
            source.resume()
            return source
        }
    }

    /// Suspends until SIGINT or SIGTERM arrives and returns the signal's name.
    func next() async -> String {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next() ?? "end of signal stream"
    }
}
