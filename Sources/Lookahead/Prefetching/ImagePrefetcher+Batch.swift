// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

extension ImagePrefetcher {
    /// How far a batch prefetch has come.
    public struct Progress: Sendable, Equatable {
        /// The requests in the batch.
        public var total: Int
        /// Loaded into the prefetcher's destination.
        public var completed = 0
        /// Failed to load (a URL in its failure backoff counts here).
        public var failed = 0
        /// Already in the destination: nothing to load.
        public var skipped = 0

        /// Creates the progress of a batch of `total` requests.
        public init(total: Int) { self.total = total }

        /// Every request of the batch has ended.
        public var isFinished: Bool { completed + failed + skipped == total }
    }

    /// Prefetches a whole batch (an offline pack), ``maxConcurrentRequestCount`` at a time at low priority, and returns
    /// when every request has ended. `progress` is called after each one; cancelling the task cancels what is left.
    public func prefetch(
        all requests: [ImageRequest],
        progress: (@Sendable (Progress) -> Void)? = nil
    ) async -> Progress {
        var report = Progress(total: requests.count)
        await withTaskGroup(of: (any WritableKeyPath<Progress, Int> & Sendable).self) { group in
            var pending = requests.makeIterator()
            func startNext() -> Bool {
                guard !Task.isCancelled, var request = pending.next() else { return false }
                request.priority = .low
                group.addTask { await self.load(request) }
                return true
            }
            for _ in 0..<maxConcurrentRequestCount where !startNext() { break }
            for await outcome in group {
                report[keyPath: outcome] += 1
                progress?(report)
                _ = startNext()
            }
        }
        return report
    }

    /// Loads a request into the destination; returns the count it adds to.
    private func load(_ request: ImageRequest) async -> any WritableKeyPath<Progress, Int> & Sendable {
        switch destination {
        case .memoryCache:
            if pipeline.containsCachedImage(for: request, in: .memory) { return \.skipped }
            return (try? await pipeline.image(for: request)) == nil ? \.failed : \.completed
        case .diskCache:
            if pipeline.containsCachedImage(for: request, in: .disk) { return \.skipped }
            return (try? await pipeline.data(for: request)) == nil ? \.failed : \.completed
        }
    }
}
