// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Ties loaded data to the disk cache until the first decode settles its fate: network data is stored only when it
/// decodes (or passes ``ImageDecoders/validateStructure(_:decoders:)``); disk data that fails to decode is removed.
package final class DiskCacheTicket: Sendable {
    package enum Origin: Sendable { case network, disk }

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
