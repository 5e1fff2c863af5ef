// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead simulation — what a run reports: the figures, and for tests what the network and the screen saw.

import Foundation

/// What one run saw, frame by frame and transfer by transfer: for tests of what the loader starts and cancels.
struct ScrollTrace {
    /// One frame, at its end.
    struct Frame {
        /// The frame's virtual time.
        var time: Duration
        /// The list in this frame (an index into the feed's lists).
        var list: Int
        /// The items on screen, top to bottom.
        var visible: [Int]
        /// The items on screen whose cell showed another item's image.
        var wrongItems: [Int]
    }

    /// Transfers started, finished and cancelled, in order.
    var network: [SimulatedNetwork.Event]
    var frames: [Frame]
}

extension Simulation {
    func report(duration: Duration) -> ScrollReport {
        let shown = items.filter(\.wasShown)
        let placeholders = shown.map { $0.placeholder / .milliseconds(1) }.sorted()
        func percentile(_ p: Double) -> Double {
            placeholders.isEmpty
                ? 0 : placeholders[min(placeholders.count - 1, Int((Double(placeholders.count - 1) * p).rounded()))]
        }
        let ledger = network.ledger
        let bytes = ledger.bytes
        // Items never on screen near where the list rests at the end: a prefetch for a scroll that never came.
        let last = timeline.frames.last.map { timeline.visibleRange(position: $0.position, count: currentList.count) }
        let end = last.map { max(0, $0.lowerBound - 40)..<min(currentList.count, $0.upperBound + 40) } ?? 0..<0
        let checksCells = !strategy.isOracle
        return ScrollReport(
            strategy: strategy,
            trajectory: scenario.trajectory,
            frameRate: scenario.frameRate,
            seed: scenario.seed,
            rowsShown: shown.count,
            rowsFirstShownWithImage: shown.filter(\.firstShownWithImage).count,
            placeholderP50: percentile(0.5),
            placeholderP95: percentile(0.95),
            placeholderTotal: placeholders.reduce(0, +),
            bytesDownloaded: bytes.values.reduce(0, +),
            bytesNeverShown: items.indices.filter { !items[$0].everDisplayedImage }.reduce(0) {
                $0 + bytes[$1, default: 0]
            },
            bytesNeverShownAtEnd: currentList[end].filter { !items[$0].wasShown }.reduce(0) {
                $0 + bytes[$1, default: 0]
            },
            downloadsStarted: ledger.starts.values.reduce(0, +),
            distinctURLsStarted: ledger.starts.count,
            restarts: ledger.starts.values.reduce(0) { $0 + max(0, $1 - 1) },
            cancellations: ledger.cancellations,
            hitchRatio: duration > .zero ? (missed / .milliseconds(1)) / (duration / .seconds(1)) : 0,
            framesChecked: checksCells ? trace.count : 0,
            wrongItemFrames: checksCells ? trace.count(where: { !$0.wrongItems.isEmpty }) : 0
        )
    }
}
