// Lookahead — ListPrefetchController: which rows to prefetch and which to cancel, from how the list scrolls.

import Foundation

/// Decides, from the visible rows of a list over time, which rows to prefetch and which prefetches to cancel.
///
/// A value type with no I/O and no clock of its own: feed it visible-range changes with timestamps (from a
/// scroll offset, `onAppear`/`onDisappear`, or UIKit's callbacks) and it returns an ``Update`` — rows to start
/// prefetching and rows to cancel, nearest first. Drive it from the UI thread and hand the update to an
/// ``ImagePrefetcher``.
///
/// - **Velocity.** Rows per second, smoothed, from successive visible ranges.
/// - **Ahead, adaptively.** The window ahead holds the rows the list will reach while an image loads:
///   `minimumAhead + |velocity| × latency × safety`, at most `maximumAhead`; `behind` rows stay behind. The
///   latency is measured (``recordLoadLatency(_:)``).
/// - **Flings.** A fast scroll decelerates like `UIScrollView` (rate 0.998 per millisecond), so it stops about
///   `velocity × 0.5 s` ahead. The rows around that resting point come first: they will be on screen for long,
///   while the rows in between fly past before they could load.
/// - **Reversal and jumps.** Reversing direction cancels the old side; a jump (scroll to top) cancels everything
///   outside the new window.
///
/// ```swift
/// var controller = ListPrefetchController(itemCount: photos.count)
/// let update = controller.visibleRangeChanged(first..<last, at: clock.now.duration(to: start))
/// prefetcher.stopPrefetching(with: update.cancel.map { urls[$0] })
/// prefetcher.startPrefetching(with: update.prefetch.map { urls[$0] })
/// ```
public struct ListPrefetchController: Sendable {
    /// Tuning; the defaults suit a phone-sized list of images.
    public struct Configuration: Sendable {
        /// Rows always prefetched ahead, even when still.
        public var minimumAhead = 4
        /// The most rows prefetched ahead.
        public var maximumAhead = 40
        /// Rows kept behind the visible ones.
        public var behind = 2
        /// Covers latency variance: the window ahead is `velocity × latency × safety`.
        public var safetyFactor = 1.5
        /// The load latency assumed until one is measured.
        public var initialLatency = Duration.milliseconds(250)
        /// Deceleration per millisecond after a fling (`UIScrollView.DecelerationRate.normal` is 0.998).
        public var decelerationRate = 0.998
        /// Above this speed (in viewports per second) the resting point of a fling is prefetched first.
        public var flingThreshold = 3.0
        /// How long the speed must stay above `flingThreshold` to count as a fling: a slow scroll whose first
        /// visible row steps by one in a single frame is not one.
        public var flingConfirmation = Duration.milliseconds(40)
        /// A move of more than this many viewports between two updates is a jump, not a scroll.
        public var jumpThreshold = 4.0
        /// How quickly the velocity estimate follows new samples: a sample `t` after the previous one weighs
        /// `1 − e^(−t / velocityTimeConstant)`, so the estimate behaves the same at 60 and 120 Hz.
        public var velocityTimeConstant = Duration.milliseconds(18)

        /// The default configuration.
        public init() {}
    }

    /// What changed: rows to prefetch and prefetched rows to cancel, nearest first.
    public struct Update: Equatable, Sendable {
        /// Rows to start prefetching.
        public var prefetch: [Int] = []
        /// Rows whose prefetch should stop.
        public var cancel: [Int] = []

        /// Whether there is nothing to do.
        public var isEmpty: Bool { prefetch.isEmpty && cancel.isEmpty }

        /// The console lines of the classic prefetching demo (rows numbered from 1).
        public var logMessages: [String] {
            var lines: [String] = []
            if !prefetch.isEmpty { lines.append("🚀 Prefetching images for rows: \(Self.format(prefetch))") }
            if !cancel.isEmpty { lines.append("🚫 Cancelling prefetch for rows: \(Self.format(cancel))") }
            return lines
        }

        private static func format(_ rows: [Int]) -> String {
            "[" + rows.map { String($0 + 1) }.joined(separator: ", ") + "]"
        }
    }

    /// The tuning.
    public let configuration: Configuration
    /// The number of rows in the list.
    public private(set) var itemCount: Int
    /// The visible rows.
    public private(set) var visible: Range<Int> = 0..<0
    /// Rows currently prefetched (or being prefetched), as last emitted.
    public private(set) var prefetched: [Int] = []
    /// Scroll speed in rows per second: positive towards the end of the list.
    public private(set) var velocity: Double = 0
    /// The load latency in use, measured or initial.
    public private(set) var latency: Duration

    private var lastPosition: Double?
    private var lastTime: Duration?
    /// Since when the speed has been above the fling speed.
    private var fastSince: Duration?
    private var direction = 1.0
    private var appeared: Set<Int> = []

    /// Creates a controller for a list of `itemCount` rows.
    public init(itemCount: Int, configuration: Configuration = Configuration()) {
        self.itemCount = max(0, itemCount)
        self.configuration = configuration
        self.latency = configuration.initialLatency
    }

    // MARK: - Events

    /// The visible rows changed at `time` (any monotonic timestamp, e.g. since the list appeared).
    public mutating func visibleRangeChanged(_ range: Range<Int>, at time: Duration) -> Update {
        let range = range.clamped(to: 0..<itemCount)
        let position = Double(range.lowerBound)
        if let lastPosition, let lastTime {
            let seconds = Self.seconds(time - lastTime)
            let moved = position - lastPosition
            let viewport = Double(max(1, range.count))
            if abs(moved) > viewport * configuration.jumpThreshold {
                // A jump (scroll to top): no velocity; the new window replaces the old one entirely.
                velocity = 0
            } else if seconds > 0 {
                let sample = moved / seconds
                // After a pause, the old velocity says nothing: take the new sample as it is.
                let tau = max(1e-6, Self.seconds(configuration.velocityTimeConstant))
                let weight = seconds > 0.5 ? 1 : 1 - Foundation.exp(-seconds / tau)
                velocity = weight * sample + (1 - weight) * velocity
            }
            if moved != 0 { direction = moved > 0 ? 1 : -1 }
        }
        lastPosition = position
        lastTime = time
        visible = range
        let isFast = abs(velocity) > Double(max(1, range.count)) * configuration.flingThreshold
        fastSince = isFast ? fastSince ?? time : nil
        return recompute()
    }

    /// A row appeared (SwiftUI `onAppear`): the visible range becomes the span of the rows on screen.
    public mutating func itemAppeared(_ index: Int, at time: Duration) -> Update {
        appeared.insert(index)
        return visibleRangeChanged(appearedRange, at: time)
    }

    /// A row disappeared (SwiftUI `onDisappear`).
    public mutating func itemDisappeared(_ index: Int, at time: Duration) -> Update {
        appeared.remove(index)
        return visibleRangeChanged(appearedRange, at: time)
    }

    /// The list now has `count` rows; prefetches of rows past the end are cancelled.
    public mutating func itemCountChanged(_ count: Int) -> Update {
        itemCount = max(0, count)
        visible = visible.clamped(to: 0..<itemCount)
        return recompute()
    }

    /// Whether the list moves too fast for visible rows to load before they leave: while it does, cells should
    /// show placeholders without starting loads (``ImageSlot/configure(with:startsLoading:)``), so the download
    /// slots go to the rows where the scroll will come to rest.
    public var isFlinging: Bool {
        guard let fastSince, let lastTime else { return false }
        return lastTime - fastSince >= configuration.flingConfirmation
    }

    /// Feeds a measured load latency (from request start to image ready) into the window size.
    public mutating func recordLoadLatency(_ measured: Duration) {
        let blended = Self.seconds(latency) * 0.7 + Self.seconds(measured) * 0.3
        latency = .milliseconds(Int64(blended * 1000))
    }

    // MARK: - The window

    /// Rows to keep prefetched now, in the order they should start.
    public var desiredRows: [Int] {
        guard !visible.isEmpty, itemCount > 0 else { return [] }
        let viewport = visible.count
        let speed = abs(velocity)
        let ahead = min(
            configuration.maximumAhead,
            configuration.minimumAhead + Int((speed * Self.seconds(latency) * configuration.safetyFactor).rounded(.up))
        )
        var rows: [Int] = []
        var seen = Set<Int>()
        func add(_ row: Int) {
            guard row >= 0, row < itemCount, !visible.contains(row), seen.insert(row).inserted else { return }
            rows.append(row)
        }
        // A fling: the rows around where it will come to rest first, nearest to that point first.
        if isFlinging {
            let coast = velocity * restingDistanceSeconds
            let rest = Int((Double(visible.lowerBound) + coast).rounded())
            let restRange = max(0, min(itemCount - viewport, rest))..<min(itemCount, max(0, rest) + viewport)
            for row in restRange.clamped(to: 0..<itemCount) { add(row) }
            for offset in 1...max(1, configuration.behind) {
                add(restRange.upperBound - 1 + offset)
                add(restRange.lowerBound - offset)
            }
        }
        // Then the rows just ahead, nearest first, and a few behind.
        for offset in 0..<ahead {
            add(direction > 0 ? visible.upperBound + offset : visible.lowerBound - 1 - offset)
        }
        for offset in 0..<configuration.behind {
            add(direction > 0 ? visible.lowerBound - 1 - offset : visible.upperBound + offset)
        }
        return rows
    }

    /// The rows worth keeping a running download for: from the first to the last of the visible and desired rows,
    /// `margin` more on each side. A row just outside the window (its size changes with the speed every frame)
    /// keeps its download; only a row well beyond it gives it up.
    public func keptRows(margin: Int) -> Range<Int> {
        guard !visible.isEmpty, itemCount > 0 else { return 0..<0 }
        let desired = desiredRows
        let low = min(visible.lowerBound, desired.min() ?? visible.lowerBound) - max(0, margin)
        let high = max(visible.upperBound - 1, desired.max() ?? visible.upperBound) + max(0, margin)
        return max(0, low)..<min(itemCount, high + 1)
    }

    /// How far (in seconds of current velocity) a fling coasts: ∫ rⁿ over milliseconds = 1 / −ln r ms.
    private var restingDistanceSeconds: Double {
        let rate = min(0.9999, max(0.9, configuration.decelerationRate))
        return 1 / -Foundation.log(rate) / 1000
    }

    private mutating func recompute() -> Update {
        let desired = desiredRows
        let wanted = Set(desired)
        let current = Set(prefetched)
        var update = Update()
        update.prefetch = desired.filter { !current.contains($0) }
        let center = Double(visible.lowerBound + visible.upperBound) / 2
        update.cancel = prefetched.filter { !wanted.contains($0) && !visible.contains($0) }
            .sorted { abs(Double($0) - center) < abs(Double($1) - center) }
        // Rows that became visible stop being prefetches without a cancel: their cells take the load over.
        prefetched = desired
        return update
    }

    private var appearedRange: Range<Int> {
        guard let low = appeared.min(), let high = appeared.max() else { return 0..<0 }
        return low..<(high + 1)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
