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

    /// How many responses for `path` had their body written to the end.
    ///
    /// "Written" means handed to the socket: the client may still be reading it.
    public func completedCount(forPath path: String) -> Int {
        ledger.count(.completion, path: path)
    }

    /// How many responses for `path` were not written to the end because the client closed the
    /// connection or the server stopped.
    ///
    /// A client that leaves while the body is being written is noticed at the next chunk the
    /// server writes, so this shows for bodies written in several chunks: `/faults/slow`,
    /// `/faults/large`, and images when ``Configuration/bytesPerSecond`` is set. A client that
    /// leaves during the latency delay is noticed when the delay ends. A small body written in
    /// one go usually lands in the socket buffer before the server can notice anything, and then
    /// counts as completed. `/faults/reset` counts as neither.
    public func abortedCount(forPath path: String) -> Int {
        ledger.count(.abort, path: path)
    }

    /// Sets every counter back to zero, including the per-path indices that drive jitter.
    public func resetCounters() {
        ledger.reset()
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
