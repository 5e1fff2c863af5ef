// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The result of the data stage: the bytes, the cache they came from (`nil`: the network), and their disk cache ticket.
package struct LoadedData: Sendable {
    package var response: DataLoadResponse
    package var cacheType: ImageResponse.CacheType?
    package var diskCacheTicket: DiskCacheTicket?
    /// When the data was looked up and downloaded.
    package var metrics = ImageTaskMetrics.Stages()

    /// The data, its lookup and download having taken from `start` to now.
    func measured(since start: ContinuousClock.Instant) -> LoadedData {
        var measured = self
        measured.metrics.dataLoad = .since(start)
        return measured
    }
}
