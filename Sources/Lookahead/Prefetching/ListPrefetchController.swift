// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Decides, from the visible rows of a list over time, which rows to prefetch and which prefetches to cancel. A
/// value type with no I/O and no clock: feed it visible-range changes with timestamps.
///
/// - **Ahead, adaptively.** The window ahead holds the rows the list reaches while an image loads,
///   `minimumAhead + |velocity| × latency × safety` (at most `maximumAhead`); `behind` rows stay behind.
/// - **Flings.** A confirmed fast scroll coasts as `UIScrollView` decelerates; only the rows that stay on screen long
///   enough after their image arrives are asked for, in the order the fling reaches them.
/// - **Reversal and jumps.** A reversal cancels the old side; a jump (scroll to top) cancels all outside the window.
@_spi(Simulation)
public struct ListPrefetchController: Sendable {
    /// The tuning.
    public let configuration: ListPrefetchWindow
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
    /// Whether the last change moved more than ``ListPrefetchWindow/jumpThreshold`` viewports.
    public private(set) var jumped = false

    /// Whether the last change was a jump to the top or the end of the list (a tap on the status bar).
    public var jumpedToAnEnd: Bool {
        jumped && !visible.isEmpty && (visible.lowerBound == 0 || visible.upperBound >= itemCount)
    }

    private var lastPosition: Double?
    private var lastTime: Duration?
    private var fastSince: Duration?
    /// A confirmed fling coasting: its modelled speed (rows per second), direction, and when that speed held.
    private var coast: Coast?
    private struct Coast: Sendable {
        var speed: Double
        var sign: Double
        var time: Duration
    }
    private var direction = 1.0
    /// Whether ``latency`` comes from a measurement yet, or is still ``ListPrefetchWindow/initialLatency``.
    private var hasMeasuredLatency = false

    /// Creates a controller for a list of `itemCount` rows.
    public init(itemCount: Int, configuration: ListPrefetchWindow = ListPrefetchWindow()) {
        self.itemCount = max(0, itemCount)
        self.configuration = configuration
        self.latency = configuration.initialLatency
    }

    // MARK: - Events

    /// The visible rows changed at `time` (on any monotonic clock). `position` is the top of the viewport in rows,
    /// when known; `isDecelerating` whether the list coasts after the finger lifted (`nil`: inferred from the speed).
    public mutating func visibleRangeChanged(
        _ range: Range<Int>,
        at time: Duration,
        position: Double? = nil,
        isDecelerating: Bool? = nil
    ) -> ListPrefetchUpdate<Int> {
        let range = range.clamped(to: 0..<itemCount)
        visible = range
        let isFractional = position != nil
        let position = position ?? Double(range.lowerBound)
        var jumped = false
        if let lastPosition, let lastTime {
            let seconds = (time - lastTime).secondsValue
            let moved = position - lastPosition
            if abs(moved) > viewport * configuration.jumpThreshold {
                velocity = 0  // a jump: the new window replaces the old one entirely
                jumped = true
            } else if seconds > 0 {
                let sample = moved / seconds
                // After a pause, or between fractional positions of a coasting list, the sample is the speed.
                let tau = max(1e-6, configuration.velocityTimeConstant.secondsValue)
                let exact = isDecelerating == true && isFractional
                let weight = seconds > 0.5 || exact ? 1 : 1 - Foundation.exp(-seconds / tau)
                velocity = weight * sample + (1 - weight) * velocity
            }
            if jumped, range.lowerBound == 0 {
                direction = 1  // after a scroll to the top, the user can only scroll down
            } else if jumped, range.upperBound >= itemCount {
                direction = -1
            } else if moved != 0 {
                // Elsewhere a jump is as likely the first frames of a very fast fling: the window follows it.
                direction = moved > 0 ? 1 : -1
            }
        }
        lastPosition = position
        lastTime = time
        self.jumped = jumped
        switch isDecelerating {
        case nil: updateCoasting(at: time, jumped: jumped)
        case true?: coastAsTold(at: time, jumped: jumped, isExact: isFractional)
        case false?:
            coast = nil  // dragged or at rest: no coasting
            fastSince = nil
        }
        return recompute()
    }

    /// The list says it coasts: a fling modelled from the speed now when positions are fractional, else from the
    /// speed at the start, decaying as the list does.
    private mutating func coastAsTold(at time: Duration, jumped: Bool, isExact: Bool) {
        fastSince = nil
        guard !jumped, velocity != 0 else {
            coast = nil
            return
        }
        if isExact || coast.map({ $0.sign * velocity < 0 }) ?? true {
            coast = Coast(speed: abs(velocity), sign: velocity < 0 ? -1 : 1, time: time)
        } else {
            coast = coast.map { decayed($0, to: time) }
        }
    }

    /// A coasting fling's speed at `time`, as the list decelerates.
    private func decayed(_ coast: Coast, to time: Duration) -> Coast {
        var coast = coast
        coast.speed *= Foundation.exp(-decelerationPerSecond * (time - coast.time).secondsValue)
        coast.time = time
        return coast
    }

    /// A confirmed fling's speed follows the deceleration model from its peak, until the list nearly stops,
    /// reverses, jumps or is pushed faster.
    private mutating func updateCoasting(at time: Duration, jumped: Bool) {
        let isFast = abs(velocity) > viewport * configuration.flingThreshold
        fastSince = isFast ? fastSince ?? time : nil
        if let current = coast.map({ decayed($0, to: time) }) {
            let reversed = velocity * current.sign < 0 && abs(velocity) > viewport
            let pushed = abs(velocity) > current.speed * 1.5 + viewport
            let stopped = current.speed < configuration.coastingStopSpeed
            coast = jumped || reversed || pushed || stopped ? nil : current
            if stopped { velocity = 0 }  // what is left of the estimate is whole-row noise
        }
        if let fastSince, time - fastSince >= configuration.flingConfirmation, abs(velocity) > coast?.speed ?? 0 {
            coast = Coast(speed: abs(velocity), sign: velocity < 0 ? -1 : 1, time: time)
        }
    }

    /// The list's items changed: `count` of them, those on screen now at `visible`; this is not taken for a scroll.
    public mutating func itemsChanged(count: Int, visible newVisible: Range<Int>) -> ListPrefetchUpdate<Int> {
        itemCount = max(0, count)
        lastPosition = lastPosition.map { $0 + Double(newVisible.lowerBound - visible.lowerBound) }
        visible = newVisible.clamped(to: 0..<itemCount)
        return recompute()
    }

    /// The list now has `count` rows; prefetches of rows past the end are cancelled.
    public mutating func itemCountChanged(_ count: Int) -> ListPrefetchUpdate<Int> {
        itemsChanged(count: count, visible: visible)
    }

    /// Whether the list moves too fast for visible rows to load before they leave.
    public var isFlinging: Bool { coast != nil }

    /// Feeds a measured load latency (from request start to image ready) into the window size.
    public mutating func recordLoadLatency(_ measured: Duration) {
        let weight = hasMeasuredLatency ? 0.3 : 1  // the first replaces the initial guess
        hasMeasuredLatency = true
        let blended = latency.secondsValue * (1 - weight) + measured.secondsValue * weight
        latency = .milliseconds(Int64(blended * 1000))
    }

    // MARK: - The window

    /// Rows to keep prefetched now, in the order they should start.
    public var desiredRows: [Int] {
        guard !visible.isEmpty, itemCount > 0 else { return [] }
        if isFlinging { return flingRows }
        // Otherwise the rows just ahead, nearest first, and a few behind.
        let ahead = min(
            configuration.maximumAhead,
            configuration.minimumAhead
                + Int((abs(velocity) * latency.secondsValue * configuration.safetyFactor).rounded(.up))
        )
        func below(_ count: Int) -> [Int] { Array(visible.upperBound..<min(itemCount, visible.upperBound + count)) }
        func above(_ count: Int) -> [Int] { (max(0, visible.lowerBound - count)..<visible.lowerBound).reversed() }
        let behind = configuration.behind
        return direction > 0 ? below(ahead) + above(behind) : above(ahead) + below(behind)
    }

    /// The rows worth keeping a running download for: the span of the visible and `desired` rows (by default
    /// ``desiredRows``), `margin` more on each side, so a row just outside the window keeps its download.
    public func keptRows(margin: Int, desired: [Int]? = nil) -> Range<Int> {
        guard !visible.isEmpty, itemCount > 0 else { return 0..<0 }
        let desired = desired ?? desiredRows
        let low = min(visible.lowerBound, desired.min() ?? visible.lowerBound) - max(0, margin)
        let high = max(visible.upperBound - 1, desired.max() ?? visible.upperBound) + max(0, margin)
        return max(0, low)..<min(itemCount, high + 1)
    }

    /// Whether a row is on the first screen, where a tap on the status bar returns: its download is always kept.
    package func isOnFirstScreen(_ row: Int) -> Bool { row < visible.count }

    /// Whether a row on screen will stay long enough after its image arrives as the scroll decelerates (see
    /// ``ListPrefetchWindow/minimumVisibleTime``).
    public func isWorthLoading(_ row: Int) -> Bool {
        guard isFlinging, abs(modelVelocity) > 0, visible.contains(row) else { return true }
        let (_, exit) = visibility(of: row)
        return exit - latency.secondsValue >= minimumVisibleSeconds
    }

    /// The rows a fling shows long enough to be worth a download, in the order it reaches them, then `behind` rows
    /// past where it rests. An image arrives one latency later for every `concurrentLoads` rows queued before it.
    private var flingRows: [Int] {
        let forward = modelVelocity > 0
        let rest = restingDistance
        let latency = self.latency.secondsValue
        let minimum = minimumVisibleSeconds
        let queue = Double(max(1, configuration.concurrentLoads))
        var rows: [Int] = []
        var row = forward ? visible.upperBound : visible.lowerBound - 1
        var beyond = 0
        while row >= 0, row < itemCount, beyond < configuration.behind {
            let (enter, exit) = visibility(of: row)
            if enter.isInfinite {
                if distance(toReach: row) < rest + viewport + Double(configuration.behind) { rows.append(row) }
                beyond += 1
            } else {
                let arrival = latency * (1 + (Double(rows.count) / queue).rounded(.down))
                if exit - max(enter, arrival) >= minimum { rows.append(row) }
            }
            row += forward ? 1 : -1
        }
        return rows
    }

    /// When, in seconds from now, a row enters and leaves the screen as the scroll decelerates (infinity: never).
    private func visibility(of row: Int) -> (enter: Double, exit: Double) {
        let rest = restingDistance
        func time(_ distance: Double) -> Double {
            guard distance > 0 else { return 0 }
            guard distance < rest else { return .infinity }
            return -Foundation.log(1 - distance / rest) / decelerationPerSecond
        }
        let enter = distance(toReach: row)
        return (time(enter), time(enter + viewport))
    }

    /// How long a row passed by a fling must stay on screen after its image arrives.
    private var minimumVisibleSeconds: Double {
        let scaled = latency.secondsValue * configuration.visibleTimePerLatency
        let ceiling = configuration.maximumVisibleTime.secondsValue
        return max(configuration.minimumVisibleTime.secondsValue, min(ceiling, scaled))
    }

    /// How far the top edge must move, along the scroll, for a row to start showing.
    private func distance(toReach row: Int) -> Double {
        let top = Double(visible.lowerBound)
        return modelVelocity > 0 ? Double(row) - viewport + 1 - top : top - Double(row)
    }

    /// The rows the viewport holds: the visible ones, at least one.
    private var viewport: Double { Double(max(1, visible.count)) }

    /// How far (rows) the scroll coasts from here: |velocity| / k.
    private var restingDistance: Double { abs(modelVelocity) / decelerationPerSecond }

    /// The velocity the predictions use: the coasting fling's modelled one, else the estimate.
    private var modelVelocity: Double { coast.map { $0.sign * $0.speed } ?? velocity }

    /// The deceleration constant k per second: the velocity falls as e^(−k t), k = −ln(rate per ms) × 1000.
    private var decelerationPerSecond: Double {
        let rate = min(0.9999, max(0.9, configuration.decelerationRate))
        return -Foundation.log(rate) * 1000
    }

    private mutating func recompute() -> ListPrefetchUpdate<Int> {
        let desired = desiredRows
        let wanted = Set(desired)
        let current = Set(prefetched)
        var update = ListPrefetchUpdate<Int>()
        update.prefetch = desired.filter { !current.contains($0) }
        let center = Double(visible.lowerBound + visible.upperBound) / 2
        update.cancel = prefetched.filter { !wanted.contains($0) && !visible.contains($0) }
            .sorted { abs(Double($0) - center) < abs(Double($1) - center) }
        prefetched = desired  // rows now visible need no cancel: their cells take the load over
        return update
    }
}
