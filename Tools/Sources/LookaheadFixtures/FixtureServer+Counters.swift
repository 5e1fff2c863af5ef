// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureServer+Counters: what tests can observe about the requests a fixture server handled.

extension FixtureServer {
    /// How many requests arrived for `path` (without query, e.g. `"/images/3.jpg"`) since the
    /// server started or the counters were last reset. Requests are counted on arrival, before
    /// any latency is applied.
    public func requestCount(forPath path: String) -> Int {
        ledger.count(.request, path: path)
    }

    /// How many requests arrived for any path since the start or the last reset.
    public var totalRequestCount: Int {
        ledger.totalRequests
    }

    /// How many TCP connections carried at least one request since the start or the last reset: distinct client
    /// endpoints (address and port). A connection opened and closed without a request is not counted.
    public var connectionCount: Int {
        ledger.connectionCount
    }

    /// How many responses for `path` had their body written to the end.
    ///
    /// "Written" means handed to the socket: the client may still be reading it.
    public func completedCount(forPath path: String) -> Int {
        ledger.count(.completion, path: path)
    }

    /// How many responses for `path` were not written to the end because the client closed the
    /// connection or the server stopped.
    ///
    /// The server notices a departed client only when a write to its connection fails, which
    /// happens a chunk or two after the client closed. So aborts show reliably for bodies
    /// written in several chunks: `/faults/slow`, images when ``Configuration/bytesPerSecond``
    /// is set, and `/faults/large` bodies much bigger than the socket buffers (a few MB). An
    /// unthrottled image is written in one go, so a client that leaves during the latency delay
    /// usually makes it count as completed. Stopping the server while a response is pending or
    /// being written counts as an abort, and so does `/faults/reset`, whose connection the server
    /// closes instead of answering.
    public func abortedCount(forPath path: String) -> Int {
        ledger.count(.abort, path: path)
    }

    /// Sets every counter back to zero, including the per-path indices that drive jitter and
    /// fault injection, and the injected-fault counts.
    public func resetCounters() {
        ledger.reset()
        faultLedger.reset()
    }

    /// How many faults of each kind the image routes injected since the start or the last reset.
    ///
    /// A fault is counted when it takes effect: a slow response when its extra delay begins, the
    /// others when the broken response is produced (after the latency delay). A request whose
    /// client leaves during the latency delay is therefore not counted, unless it was slow.
    public var injectedFaults: FaultInjection.Counts {
        faultLedger.snapshot
    }

    /// Suspends until at least `count` requests for `path` have arrived.
    ///
    /// Returns early, without throwing, if the calling task is cancelled; check the count
    /// afterwards if that matters.
    public func waitForRequests(path: String, count: Int) async {
        await ledger.wait(for: .request, path: path, count: count)
    }

    /// Suspends until at least `count` responses for `path` have completed.
    ///
    /// Returns early, without throwing, if the calling task is cancelled.
    public func waitForCompletion(path: String, count: Int = 1) async {
        await ledger.wait(for: .completion, path: path, count: count)
    }

    /// Suspends until at least `count` responses for `path` were aborted (by default, one).
    ///
    /// Returns early, without throwing, if the calling task is cancelled.
    public func waitForAbort(path: String, count: Int = 1) async {
        await ledger.wait(for: .abort, path: path, count: count)
    }
}
