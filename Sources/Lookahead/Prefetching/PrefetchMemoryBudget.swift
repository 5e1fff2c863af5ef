// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Bounds a list's prefetch window so the visible and prefetched rows take at most a fraction of the memory cache's
/// cost limit: a larger window would evict its own first prefetches, and the images on screen, before they show.
package struct PrefetchMemoryBudget: Sendable, Equatable {
    /// The share of the cache's cost limit the visible and prefetched rows may take; `nil` for no bound.
    package let fraction: Double?
    /// The mean decoded cost of the images seen, in bytes; `nil` until one is.
    package private(set) var averageCost: Double?
    /// The cost estimated from a request's thumbnail size, used until an image is seen.
    package private(set) var thumbnailCost: Double?
    private var samples = 0

    /// The mean follows the last images more than the first: a sample weighs `1 / min(count, sampleWindow)`.
    private static let sampleWindow = 32

    package init(fraction: Double?) {
        self.fraction = fraction.map { min(1, max(0, $0)) }
    }

    /// An image of `cost` bytes was loaded for the list.
    package mutating func record(cost: Int) {
        guard cost > 0 else { return }
        samples += 1
        let weight = 1 / Double(min(samples, Self.sampleWindow))
        averageCost = averageCost.map { $0 + (Double(cost) - $0) * weight } ?? Double(cost)
    }

    /// A cell was bound to `request`: its thumbnail size, if any, bounds its image's cost (4 bytes a pixel).
    package mutating func record(request: ImageRequest) {
        guard let thumbnail = request.thumbnail else { return }
        thumbnailCost =
            switch thumbnail.target {
            case .maximumPixelSize(let side): Double(side) * Double(side) * 4
            case .size(let width, let height, _): Double(width) * Double(height) * 4
            }
    }

    /// The cost of one image the bound uses: the mean seen, else the thumbnail estimate.
    package var estimatedCost: Double? { averageCost ?? thumbnailCost }

    /// The most rows to prefetch around `visibleCount` visible rows with a cache of `costLimit` bytes; `nil`: unbound.
    package func prefetchLimit(visibleCount: Int, costLimit: Int?) -> Int? {
        guard let fraction, let costLimit, let cost = estimatedCost, cost > 0 else { return nil }
        let rows = (Double(costLimit) * fraction / cost).rounded(.down) - Double(max(0, visibleCount))
        // A cache of any practical size: far more rows than a window could hold.
        guard rows < Double(Int32.max) else { return nil }
        return max(0, Int(rows))
    }

    /// The rows of `wish` to prefetch within `limit`: the nearest, or in a fling the last (where it rests).
    package static func bound(_ wish: [Int], to limit: Int?, isFlinging: Bool) -> [Int] {
        guard let limit, wish.count > limit else { return wish }
        return isFlinging ? Array(wish.suffix(limit)) : Array(wish.prefix(limit))
    }
}
