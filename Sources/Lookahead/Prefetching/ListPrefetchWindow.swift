// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// How a list's prefetch window follows the scroll; the defaults suit a phone-sized list of images.
@_spi(Simulation)
public struct ListPrefetchWindow: Sendable {
    /// Rows always prefetched ahead, even when still.
    public var minimumAhead = 4
    /// The most rows prefetched ahead.
    public var maximumAhead = 40
    /// Rows kept behind the visible ones.
    public var behind = 2
    /// Covers latency variance: the window ahead is `velocity × latency × safety`.
    public var safetyFactor = 1.5
    /// During a fling, a row is worth a download only if its image would stay on screen at least this long (or
    /// `visibleTimePerLatency` × the latency, up to `maximumVisibleTime`: a slower arrival is less certain).
    public var minimumVisibleTime = Duration.milliseconds(33)
    /// How much of the load latency a row passed by a fling must stay on screen after its image arrives.
    public var visibleTimePerLatency = 0.7
    /// The most on-screen time asked of a row passed by a fling, so a slow network still loads the rows it passes
    /// slowly.
    public var maximumVisibleTime = Duration.milliseconds(150)
    /// Loads that run at once, for the fling's estimate of when a queued row's image arrives.
    public var concurrentLoads = 4
    /// The load latency assumed until one is measured.
    public var initialLatency = Duration.milliseconds(250)
    /// Deceleration per millisecond after a fling (`UIScrollView.DecelerationRate.normal` is 0.998).
    public var decelerationRate = 0.998
    /// Above this speed (in viewports per second) a scroll is a fling.
    public var flingThreshold = 3.0
    /// How long the speed must stay above `flingThreshold` to count as a fling, so one row's step is not one.
    public var flingConfirmation = Duration.milliseconds(40)
    /// A coasting fling ends when its modelled speed falls below this many rows per second.
    public var coastingStopSpeed = 1.0
    /// A move of more than this many viewports between two updates is a jump, not a scroll.
    public var jumpThreshold = 4.0
    /// A sample `t` after the previous one weighs `1 − e^(−t / velocityTimeConstant)` in the velocity estimate,
    /// so it behaves the same at 60 and 120 Hz.
    public var velocityTimeConstant = Duration.milliseconds(18)

    /// The default configuration.
    public init() {}
}
