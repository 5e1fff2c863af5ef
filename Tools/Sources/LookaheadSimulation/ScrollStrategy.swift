// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead simulation — the strategies compared: the classic demo's three, UIKit's, Lookahead's, and an oracle.

/// How a list loads its images.
public enum ScrollStrategy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Load on configure, synchronously: the main thread waits for every image.
    case synchronous
    /// A fixed window of prefetches, and a synchronous configure that waits for what is not ready.
    case prefetchSynchronous
    /// A fixed window of prefetches, all at once, and a lazy asynchronous configure.
    case prefetchLazy
    /// UIKit's prefetching: about a screen ahead, two prefetches at a time (the peers' default), cancelled
    /// when they leave the window; asynchronous configure.
    case uikit
    /// Lookahead: `ListImageSlots` — its window, prefetcher, background download slots and demotion on reuse.
    case lookahead
    /// Knows the future — the whole trajectory and every load's latency — and loads, earliest deadline first,
    /// the rows it can still show for at least two frames, on every connection. A strong reference, not a proven
    /// optimum: a greedy schedule can lose to a policy that, say, keeps a connection for the far side of a
    /// reversal, and Lookahead does beat it on some trajectories.
    case oracle
    /// The oracle, told the trajectory only when the first fling begins (the finger lifts, or the list is flung
    /// from rest), as `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)` tells where a fling will
    /// rest; until then it expects the scroll to go on at its current speed. The reference for a loader that
    /// cannot know a fling before it happens: the oracle loads the rows a fling will fly past while the finger
    /// still drags slowly.
    case oracleAtRelease

    /// Whether it is one of the oracles, which load by knowing the future rather than through a prefetcher.
    var isOracle: Bool { self == .oracle || self == .oracleAtRelease }

    /// Whether configure blocks the main thread until the image is there.
    var isSynchronous: Bool { self == .synchronous || self == .prefetchSynchronous }

    /// A short name for tables.
    public var label: String {
        switch self {
        case .synchronous: "sync"
        case .prefetchSynchronous: "prefetch+sync"
        case .prefetchLazy: "prefetch+lazy"
        case .uikit: "uikit-2"
        case .lookahead: "lookahead"
        case .oracle: "oracle"
        case .oracleAtRelease: "oracle@lift"
        }
    }
}

/// What one strategy did on one scenario.
public struct ScrollReport: Sendable, Hashable, Codable {
    public var strategy: ScrollStrategy
    public var trajectory: ScrollScenario.Trajectory
    public var frameRate: Int
    /// The seed of the latency draws (the first seed, for a mean).
    public var seed: UInt64
    /// Rows that appeared on screen.
    public var rowsShown: Int
    /// Rows whose first frame on screen already had the final image.
    public var rowsFirstShownWithImage: Int
    /// Placeholder time per shown row, milliseconds: median, 95th percentile, and the sum over all rows.
    public var placeholderP50: Double
    public var placeholderP95: Double
    public var placeholderTotal: Double
    /// Bytes received, and of those the bytes of images that never appeared on screen.
    public var bytesDownloaded: Int
    public var bytesNeverShown: Int
    /// Of those, the bytes of rows near the list's final resting place that were never on screen: the window
    /// prefetched ahead of a list at rest, for a scroll the scenario ends before.
    public var bytesNeverShownAtEnd: Int
    /// Transfers started, the distinct URLs among them, and transfers of a URL started again.
    public var downloadsStarted: Int
    public var distinctURLsStarted: Int
    public var restarts: Int
    /// Transfers cancelled after they started.
    public var cancellations: Int
    /// Milliseconds of missed frame deadlines per second of scrolling (Apple: < 5 good, > 10 critical).
    public var hitchRatio: Double
    /// Frames whose cells were checked (every frame, for a strategy whose cells show images), and of those the
    /// frames in which some cell on screen showed another item's image.
    public var framesChecked = 0
    public var wrongItemFrames = 0

    /// The share of rows first shown with their final image.
    public var firstShownWithImageShare: Double {
        rowsShown == 0 ? 0 : Double(rowsFirstShownWithImage) / Double(rowsShown)
    }
    /// The share of downloaded bytes never shown.
    public var neverShownShare: Double { bytesDownloaded == 0 ? 0 : Double(bytesNeverShown) / Double(bytesDownloaded) }
    /// The share of downloaded bytes never shown, leaving out ``bytesNeverShownAtEnd``.
    public var neverShownDuringScrollShare: Double {
        bytesDownloaded == 0 ? 0 : Double(bytesNeverShown - bytesNeverShownAtEnd) / Double(bytesDownloaded)
    }
}

extension ScrollReport {
    /// The mean of reports of one strategy on one trajectory over several seeds: each figure averaged, the byte
    /// shares weighted by bytes. `nil` for no reports.
    public static func mean(of reports: [ScrollReport]) -> ScrollReport? {
        guard var mean = reports.first else { return nil }
        let count = Double(reports.count)
        func average(_ value: (ScrollReport) -> Double) -> Double { reports.reduce(0) { $0 + value($1) } / count }
        func averageCount(_ value: (ScrollReport) -> Int) -> Int {
            Int((Double(reports.reduce(0) { $0 + value($1) }) / count).rounded())
        }
        mean.rowsShown = averageCount(\.rowsShown)
        mean.rowsFirstShownWithImage = averageCount(\.rowsFirstShownWithImage)
        mean.placeholderP50 = average(\.placeholderP50)
        mean.placeholderP95 = average(\.placeholderP95)
        mean.placeholderTotal = average(\.placeholderTotal)
        mean.bytesDownloaded = averageCount(\.bytesDownloaded)
        mean.bytesNeverShown = averageCount(\.bytesNeverShown)
        mean.bytesNeverShownAtEnd = averageCount(\.bytesNeverShownAtEnd)
        mean.downloadsStarted = averageCount(\.downloadsStarted)
        mean.distinctURLsStarted = averageCount(\.distinctURLsStarted)
        mean.restarts = averageCount(\.restarts)
        mean.cancellations = averageCount(\.cancellations)
        mean.hitchRatio = average(\.hitchRatio)
        mean.framesChecked = averageCount(\.framesChecked)
        mean.wrongItemFrames = averageCount(\.wrongItemFrames)
        return mean
    }
}
