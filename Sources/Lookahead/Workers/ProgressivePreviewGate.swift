// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Decides, for one download, which of the loader's "body so far" reports become a preview decode:
/// - one decode at a time: a report that arrives while one decodes is dropped, never queued;
/// - at least `interval` between the starts of two decodes;
/// - at most `maximumPreviews` previews, each showing a later scan than the one before;
/// - none once the download finished, or once the image turned out to give no previews (not a progressive JPEG,
///   over a limit): one attempt costs a baseline JPEG nothing more.
struct ProgressivePreviewGate {
    let interval: Duration
    let maximumPreviews: Int
    private(set) var previewCount = 0
    private(set) var isDecoding = false
    private(set) var isClosed = false
    private var lastStart: ContinuousClock.Instant?
    private var lastScan = 0

    init(interval: Duration, maximumPreviews: Int) {
        self.interval = interval
        self.maximumPreviews = maximumPreviews
    }

    /// More of the body arrived at `now`: `true` when a preview decode should start (then call ``decodeFinished``).
    mutating func bodyArrived(at now: ContinuousClock.Instant) -> Bool {
        guard !isClosed, !isDecoding, previewCount < maximumPreviews else { return false }
        if let lastStart, now - lastStart < interval { return false }
        lastStart = now
        isDecoding = true
        return true
    }

    /// A decode ended at `scan` (`nil`: no complete scan); `givesPreviews` is `false` when the image never will. `true`
    /// when its preview should be delivered.
    mutating func decodeFinished(scan: Int?, givesPreviews: Bool) -> Bool {
        isDecoding = false
        if !givesPreviews { isClosed = true }
        guard !isClosed, let scan, scan > lastScan else { return false }
        lastScan = scan
        previewCount += 1
        return true
    }

    /// The download finished (or failed): no preview from now on, even from a decode still running.
    mutating func close() {
        isClosed = true
    }
}
