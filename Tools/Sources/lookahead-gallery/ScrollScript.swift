// Lookahead gallery — the scripted scroll the headless gallery replays: slow drag, fling, back up.

/// A scroll trajectory as one offset (in rows, from the top of the list) per frame.
struct ScrollScript {
    /// The offset of the top of the viewport at each frame.
    let offsets: [Double]

    /// A slow drag over the first rows, a pause, a fling with iOS-like deceleration to the end of the list,
    /// a pause, then a fling back up.
    ///
    /// - Parameters:
    ///   - rowCount: The number of rows in the list.
    ///   - viewportRows: How many rows the viewport shows.
    static func standard(rowCount: Int, viewportRows: Int) -> ScrollScript {
        let maximum = Double(max(0, rowCount - viewportRows))
        var offsets: [Double] = []
        var offset = 0.0

        func hold(_ frames: Int) {
            offsets.append(contentsOf: repeatElement(offset, count: frames))
        }
        /// Drags at constant speed (rows per frame) to `target`.
        func drag(to target: Double, speed: Double) {
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
        func fling(to target: Double) {
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

        hold(30)
        drag(to: min(maximum, Double(viewportRows) * 1.5), speed: 0.05)  // about 3 rows a second
        hold(45)
        fling(to: maximum * 0.6)
        hold(60)
        fling(to: maximum)
        hold(60)
        fling(to: maximum * 0.55)  // back up
        hold(90)
        return ScrollScript(offsets: offsets)
    }
}
