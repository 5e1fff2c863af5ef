// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead simulation — the oracle: it knows the whole scroll, the feed's changes and every latency.

import Foundation
import Lookahead

extension Simulation {
    /// The oracle knows every item's future frames on screen and every transfer's latency. While a connection is
    /// free it loads, earliest deadline first, the item of the list that will next be on screen, among the items
    /// whose image would then still be seen for at least two frames. An item not yet in the feed has no URL to load.
    func scheduleOracleLoads() {
        while oracle.count < scenario.connectionLimit {
            var best: (item: Int, deadline: Int)?
            for item in currentList where oracle[item] == nil {
                guard pipeline.cachedImage(for: requests[item]) == nil else { continue }
                let ready = time.now + network.nextLatency(row: item) + network.transmission + time.decodeDuration
                let readyFrame = Int((ready / frame).rounded(.up))
                let future = visibleFrames[item].drop { $0 < frameIndex }
                guard let deadline = future.first, future.count(where: { $0 >= readyFrame }) >= 2 else { continue }
                if deadline < (best?.deadline ?? .max) { best = (item, deadline) }
            }
            guard let best else { return }
            var request = requests[best.item]
            request.priority = .high
            let task = pipeline.imageTask(with: request)
            oracle[best.item] = task
            task.onFinish { [weak self] _ in
                guard let self else { return }
                self.oracle[best.item] = nil
                // The next load starts at once, at this instant.
                self.time.schedule(after: .zero) { [weak self] in self?.scheduleOracleLoads() }
            }
        }
    }

    /// The positions up to frame `index`, then on at the speed of that frame, within each frame's list.
    func extrapolated(_ positions: [Double], from index: Int) -> [Double] {
        let step = index > 0 ? positions[index] - positions[index - 1] : 0
        return Array(positions[...index])
            + (1..<(positions.count - index)).map { ahead in
                let frame = timeline.frames[index + ahead]
                let maximum = Double(timeline.lists[frame.list].count) - scenario.viewportRows
                return min(max(0, positions[index] + step * Double(ahead)), maximum)
            }
    }

    /// For each item, the frames at which it is on screen, with the viewport's top at `positions`.
    func visibleFrames(_ positions: [Double]) -> [[Int]] {
        var frames = [[Int]](repeating: [], count: timeline.itemCount)
        for (index, position) in positions.enumerated() {
            let list = timeline.lists[timeline.frames[index].list]
            for item in list[timeline.visibleRange(position: position, count: list.count)] {
                frames[item].append(index)
            }
        }
        return frames
    }
}
