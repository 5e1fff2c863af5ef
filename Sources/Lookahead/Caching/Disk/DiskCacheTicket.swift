// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Ties loaded data to the disk cache until decoding settles its fate, once, however many decodes share it: data
/// from the network is stored only when a decode succeeds (or, for data-only requests,
/// ``ImageDecoders/validateStructure(_:decoders:)`` passes), so an HTML error page is never kept; data from the disk
/// that fails to decode is removed. The first verdict wins.
package final class DiskCacheTicket: Sendable {
    package enum Origin: Sendable {
        case network
        case disk
    }

    package let origin: Origin
    private let cache: any DataCaching
    private let key: String
    private let data: Data
    /// Stored beside the data when it is accepted (``HTTPCacheMetadata``).
    private let sidecar: (key: String, data: Data)?
    private let isSettled = AtomicInt(0)

    package init(
        origin: Origin,
        cache: any DataCaching,
        key: String,
        data: Data,
        sidecar: (key: String, data: Data)? = nil
    ) {
        self.origin = origin
        self.cache = cache
        self.key = key
        self.data = data
        self.sidecar = sidecar
    }

    /// The data proved to be an image: network data is stored (once).
    package func accept() {
        guard isSettled.compareExchange(expected: 0, desired: 1), origin == .network else { return }
        cache.storeData(data, for: key)
        if let sidecar { cache.storeData(sidecar.data, for: sidecar.key) }
    }

    /// The data proved not to be an image. Disk data is removed (once); returns whether this call removed it.
    @discardableResult
    package func reject() -> Bool {
        guard origin == .disk, isSettled.compareExchange(expected: 0, desired: 1) else { return false }
        cache.removeData(for: key)
        return true
    }
}
