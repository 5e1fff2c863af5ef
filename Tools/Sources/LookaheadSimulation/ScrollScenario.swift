// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead simulation — what is simulated: the list, the scroll, the network and the decoder.

import Foundation
import Lookahead

/// A list scrolled along a trajectory, over a modelled network.
public struct ScrollScenario: Sendable {
    /// How the user scrolls.
    public enum Trajectory: String, Sendable, Hashable, Codable, CaseIterable {
        /// A slow drag: 2.5 rows a second for eight seconds.
        case slowDrag
        /// A short drag, then a fling with `UIScrollView` deceleration across about 150 rows.
        case fling
        /// A fling down, a pause, a fling back up.
        case directionChange
        /// A fling down, a pause, then a jump to the top (a tap on the status bar).
        case jumpToTop
    }

    /// The rows in the list (with ``ScrollFeed/pageSize``, once every page has arrived).
    public var rows = 200
    /// Rows visible at once.
    public var viewportRows = 8.0
    /// Frames per second: 60 or 120.
    public var frameRate = 60
    /// The scroll.
    public var trajectory = Trajectory.fling
    /// Latency per request, milliseconds, drawn uniformly (seeded) per row and attempt.
    public var latencyMilliseconds: ClosedRange<Double> = 100...300
    /// Bandwidth per connection, bytes per second.
    public var bytesPerSecond = 4_000_000.0
    /// Connections at once (the pipeline's data-loading concurrency).
    public var connectionLimit = 6
    /// Bytes per image.
    public var imageBytes = 30_000
    /// Decode time per image on a decode thread, milliseconds.
    public var decodeMilliseconds = 3.0
    /// Images the memory cache holds (the classic demo's NSCache holds 100).
    public var memoryCacheCount = 100
    /// Seeds the latency draws.
    public var seed: UInt64 = 1
    /// How Lookahead's list loader is tuned (the library's defaults unless a study changes them).
    public var loaderConfiguration = ListPrefetcher<Int>.Configuration()
    /// Whether the list tells the loader when it coasts after the finger lifted, as `UIScrollView.isDecelerating`
    /// does through `LookaheadUI`'s adapter; `false` leaves the loader to infer flings from the speed.
    public var reportsDeceleration = true
    /// How the list's items change during the scroll; by default they never do.
    public var feed = ScrollFeed()

    /// The default scenario: a fling over 200 rows at 60 Hz with 100–300 ms latency.
    public init() {}

    /// Each frame: the offset of the viewport's top, in rows, and whether the list coasts after a fling (what
    /// `UIScrollView.isDecelerating` says) rather than follows a finger or rests.
    public func frames() -> [(offset: Double, isDecelerating: Bool)] {
        let maximum = Double(rows) - viewportRows
        let dt = 1 / Double(frameRate)
        var offsets: [(offset: Double, isDecelerating: Bool)] = []
        var offset = 0.0
        func hold(_ seconds: Double) {
            for _ in 0..<Int(seconds * Double(frameRate)) { offsets.append((offset, false)) }
        }
        func drag(_ rowsPerSecond: Double, seconds: Double) {
            for _ in 0..<Int(seconds * Double(frameRate)) {
                offset = min(max(0, offset + rowsPerSecond * dt), maximum)
                offsets.append((offset, false))
            }
        }
        /// UIScrollView: the velocity falls by 0.998 per millisecond until it is negligible.
        func fling(_ velocity: Double) {
            var velocity = velocity
            let decay = pow(0.998, dt * 1000)
            while abs(velocity) > 2 {
                offset = min(max(0, offset + velocity * dt), maximum)
                offsets.append((offset, true))
                velocity *= decay
            }
        }
        switch trajectory {
        case .slowDrag:
            hold(0.5)
            drag(2.5, seconds: 8)
            hold(1)
        case .fling:
            hold(0.5)
            drag(3, seconds: 1)
            fling(300)
            hold(2)
        case .directionChange:
            hold(0.5)
            fling(160)
            hold(0.5)
            fling(-120)
            hold(1.5)
        case .jumpToTop:
            hold(0.5)
            fling(200)
            hold(1)
            offset = 0
            offsets.append((offset, false))
            hold(1.5)
        }
        return offsets
    }
}
