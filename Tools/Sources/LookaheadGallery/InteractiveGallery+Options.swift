// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the interactive gallery's options, and what a run of it did: its frames, cache hits, failures
// and timings.

extension InteractiveGallery {
    /// How the gallery arranges and draws its items.
    public struct Options: Sendable {
        public var mode = GalleryMode.list
        public var graphics = GraphicsMode.symbols
        /// Lines of the log pane; 0 hides it.
        public var logLines = 0
        public var framesPerSecond = 60
        /// The colour behind everything (images with transparency are composited over it).
        public var background = RGB(24, 24, 28)
        /// When the embedded server's outage ends (`--outage`): the gallery logs, and sums up, how long after it every
        /// visible image was shown, with no key pressed.
        public var outageEnd: ContinuousClock.Instant?

        public init() {}
    }

    /// What the gallery did, for the line printed after it quits.
    public struct Summary: Sendable {
        public var frames = 0
        public var lateFrames = 0
        public var memoryHits = 0
        public var failures = 0
        /// Seconds from the end of the outage (``Options/outageEnd``) to every visible image shown.
        public var outageRecovery: Double?
        /// Milliseconds of work per frame (input, layout, binding cells, drawing, writing), in frame order.
        public var frameWork: [Double] = []
        /// Of that, milliseconds spent writing to the terminal, for frames that wrote anything.
        public var writeTime: [Double] = []

        /// A percentile of the frame work (0…1), milliseconds.
        public func frameWork(percentile: Double) -> Double {
            Self.percentile(percentile, of: frameWork)
        }

        /// A percentile (0…1) of `values`; 0 for none.
        public static func percentile(_ percentile: Double, of values: [Double]) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * percentile).rounded()))]
        }
    }
}
