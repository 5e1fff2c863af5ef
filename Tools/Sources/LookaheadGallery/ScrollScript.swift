// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the scripted scrolls the headless gallery replays: slow drags, flings, pauses.

/// A scroll trajectory as one offset (in rows, from the top of the list) per frame.
public struct ScrollScript: Sendable {
    /// The offset of the top of the viewport at each frame.
    public let offsets: [Double]

    /// A script of these offsets.
    public init(offsets: [Double]) {
        self.offsets = offsets
    }

    /// A slow drag over the first rows, a pause, a fling with iOS-like deceleration to the end of the list,
    /// a pause, then a fling back up.
    ///
    /// - Parameters:
    ///   - rowCount: The number of rows in the list.
    ///   - viewportRows: How many rows the viewport shows.
    public static func standard(rowCount: Int, viewportRows: Int) -> ScrollScript {
        var builder = Builder(maximum: Double(max(0, rowCount - viewportRows)))
        builder.hold(30)
        builder.drag(to: min(builder.maximum, Double(viewportRows) * 1.5), speed: 0.05)  // about 3 rows a second
        builder.hold(45)
        builder.fling(to: builder.maximum * 0.6)
        builder.hold(60)
        builder.fling(to: builder.maximum)
        builder.hold(60)
        builder.fling(to: builder.maximum * 0.55)  // back up
        builder.hold(90)
        return ScrollScript(offsets: builder.offsets)
    }

    /// A long session for memory soaks: `flings` flings to seeded random places all over the list, each followed
    /// by a pause of `holdFrames` (the visible rows and the prefetch window load), a slow drag over a few rows
    /// and another pause, so the memory cache fills and keeps turning over.
    ///
    /// - Parameters:
    ///   - rowCount: The number of rows in the list.
    ///   - viewportRows: How many rows the viewport shows.
    ///   - flings: How many flings.
    ///   - holdFrames: The frames of each pause.
    ///   - seed: Seeds the fling targets; the same seed gives the same script.
    public static func soak(
        rowCount: Int,
        viewportRows: Int,
        flings: Int,
        holdFrames: Int = 40,
        seed: UInt64 = 1
    ) -> ScrollScript {
        var builder = Builder(maximum: Double(max(0, rowCount - viewportRows)))
        var state = seed
        /// SplitMix64: a uniform draw in 0..<1.
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        builder.hold(holdFrames)
        for _ in 0..<max(0, flings) {
            builder.fling(to: (builder.maximum * next()).rounded())
            builder.hold(holdFrames)
            builder.drag(to: builder.offset + Double(viewportRows), speed: 0.25)
            builder.hold(holdFrames)
        }
        return ScrollScript(offsets: builder.offsets)
    }

    /// Appends motions to a trajectory, frame by frame.
    private struct Builder {
        let maximum: Double
        var offsets: [Double] = []
        var offset = 0.0

        init(maximum: Double) {
            self.maximum = maximum
        }

        mutating func hold(_ frames: Int) {
            offsets.append(contentsOf: repeatElement(offset, count: frames))
        }

        /// Drags at constant speed (rows per frame) to `target`.
        mutating func drag(to target: Double, speed: Double) {
            let target = min(max(0, target), maximum)
            while abs(target - offset) > speed {
                offset += target > offset ? speed : -speed
                offsets.append(offset)
            }
            offset = target
            offsets.append(offset)
        }

        /// Flings towards `target`: the speed decays by a constant factor per frame (UIScrollView's normal
        /// deceleration rate is 0.998 per millisecond, about 0.968 per 60 Hz frame), starting at the speed that
        /// makes the fling stop at the target.
        mutating func fling(to target: Double) {
            let target = min(max(0, target), maximum)
            let decay = 0.968
            var velocity = (target - offset) * (1 - decay)
            while abs(velocity) > 0.01 {
                offset = min(max(0, offset + velocity), maximum)
                offsets.append(offset)
                velocity *= decay
            }
            offset = target
            offsets.append(offset)
        }
    }
}
