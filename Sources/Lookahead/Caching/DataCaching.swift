// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Stores the original bytes of images (never decoded pixels), so thumbnails of any size reuse one download.
///
/// - Important: Implementations must be thread safe. `cachedData(for:)` may block on I/O (the pipeline calls it on
///   its own I/O queue); `storeData(_:for:)` must return at once, the data readable immediately.
public protocol DataCaching: Sendable {
    /// The data stored for a key, verified; `nil` when absent, unreadable or corrupt.
    func cachedData(for key: String) -> Data?
    /// Stores data for a key; readable at once, written in the background.
    func storeData(_ data: Data, for key: String)
    /// Whether data is stored for a key, without reading it when the cache can tell.
    func containsData(for key: String) -> Bool
    /// Removes the data for a key.
    func removeData(for key: String)
    /// Removes everything.
    func removeAll()
    /// Waits until everything stored or removed so far is written, without blocking a thread.
    func flush() async
    /// Holds back background writes while the pipeline decodes, until the matching ``releaseWrites()``.
    func holdWrites()
    /// Ends one ``holdWrites()``.
    func releaseWrites()
}

extension DataCaching {
    /// Returns at once: a cache that writes in the background implements its own.
    public func flush() async {}

    /// Reads the data: a cache with an index implements its own.
    public func containsData(for key: String) -> Bool { cachedData(for: key) != nil }

    /// Does nothing: a cache that writes in the background may yield to decoding.
    public func holdWrites() {}

    /// Does nothing.
    public func releaseWrites() {}
}
