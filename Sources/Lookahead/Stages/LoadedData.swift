// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The result of the data stage: the bytes, the cache they came from (`nil` for the network), and what the disk
/// cache does with them once decoding has judged them.
package struct LoadedData: Sendable {
    package var response: DataLoadResponse
    package var cacheType: ImageResponse.CacheType?
    package var diskCacheTicket: DiskCacheTicket?

    package init(
        response: DataLoadResponse,
        cacheType: ImageResponse.CacheType? = nil,
        diskCacheTicket: DiskCacheTicket? = nil
    ) {
        self.response = response
        self.cacheType = cacheType
        self.diskCacheTicket = diskCacheTicket
    }
}
