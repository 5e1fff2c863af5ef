// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Keeps decoded images in memory. An animation is one entry: its encoded data and first frame, at the cost of those
/// and a player's frame buffer (``AnimatedImage/cost``).
///
/// - The total cost (bytes of pixels) stays within ``costLimit`` and the count within ``countLimit``: least
///   recently used first, images on screen (through an ``ImageSlot``) last, since evicting them frees nothing.
/// - An image costing more than ``entryCostLimit`` is not stored: one huge image cannot flush the cache.
/// - Entries can expire after a time to live. All operations are O(1) under one lock; reads refresh recency.
/// ```swift
/// let cache = MemoryCache(costLimit: 64 << 20, countLimit: 500)
/// let pipeline = ImagePipeline(configuration: .init(memoryCache: cache))
/// ```
/// - Important: Thread safe.
public final class MemoryCache: Sendable {
    private let storage: Locked<LRUStorage<ImageCacheKey, Entry>>
    private let now: @Sendable () -> Duration

    /// The largest cost a single entry may have, in bytes.
    public let entryCostLimit: Int
    /// How long an entry stays valid after it was stored; `nil` keeps entries until evicted.
    public let timeToLive: Duration?

    /// A cost limit suited to this machine: a fifth of physical memory, at most 512 MiB.
    public static var defaultCostLimit: Int {
        min(Int(clamping: ProcessInfo.processInfo.physicalMemory) / 5, 512 << 20)
    }

    /// Creates a memory cache; the properties of the same names describe the limits. `entryCostLimit` defaults to a
    /// tenth of `costLimit`; `clock` measures expiry. Unless `followsSystemMemoryPressure` is `false`, the cache gives
    /// memory back when the system presses (``MemoryPressure``).
    public init<C: Clock>(
        costLimit: Int = MemoryCache.defaultCostLimit,
        countLimit: Int = .max,
        entryCostLimit: Int? = nil,
        timeToLive: Duration? = nil,
        clock: C = ContinuousClock(),
        followsSystemMemoryPressure: Bool = true
    ) where C.Duration == Duration {
        self.storage = Locked(LRUStorage(costLimit: max(0, costLimit), countLimit: max(0, countLimit)))
        self.entryCostLimit = entryCostLimit ?? max(0, costLimit / 10)
        self.timeToLive = timeToLive
        let start = clock.now
        self.now = { start.duration(to: clock.now) }
        if followsSystemMemoryPressure { SystemMemoryPressure.shared.follow(self) }
    }

    /// What the cache keeps for a key: the image (an animation's first frame), the animation, the HTTP response.
    /// Never changed once stored, and a reference, so a hit hands out one retain rather than a copy of each part.
    package final class Entry {
        package let image: PlatformImage
        package let animation: AnimatedImage?
        package let http: HTTPCacheMetadata?

        init(image: PlatformImage, animation: AnimatedImage?, http: HTTPCacheMetadata?) {
            self.image = image
            self.animation = animation
            self.http = http
        }
    }

    /// The image stored for a key, if not expired (an animation's first frame). Marks it most recently used.
    public subscript(key: ImageCacheKey) -> PlatformImage? { lookUp(key, \.image) }

    /// The animation stored for a key, if the entry is one and has not expired. Marks it most recently used.
    public func animation(for key: ImageCacheKey) -> AnimatedImage? { entry(for: key)?.animation }

    /// The entry for a key, if any and not expired. Marks it most recently used.
    package func entry(for key: ImageCacheKey) -> Entry? { lookUp(key) { $0 } }

    private func lookUp<Part>(_ key: ImageCacheKey, _ project: (Entry) -> Part) -> Part? {
        storage.withLock { $0.value(forKey: key, now: now(), project) }
    }

    /// Stores an image; returns `false` when it costs more than ``entryCostLimit`` or the limits allow nothing.
    @discardableResult
    public func store(_ image: PlatformImage, for key: ImageCacheKey) -> Bool { store(image, animation: nil, for: key) }

    /// Stores an animation at its ``AnimatedImage/cost``; `false` when it costs more than ``entryCostLimit``.
    @discardableResult
    public func store(_ animation: AnimatedImage, for key: ImageCacheKey) -> Bool {
        store(animation.poster, animation: animation, for: key)
    }

    /// Stores what the pipeline made for a key, kept at most `lifetime` (and ``timeToLive``).
    @discardableResult
    package func store(
        _ image: PlatformImage,
        animation: AnimatedImage?,
        for key: ImageCacheKey,
        lifetime: Duration? = nil,
        http: HTTPCacheMetadata? = nil
    ) -> Bool {
        let cost = animation?.cost ?? image.decodedCost
        guard cost <= entryCostLimit else {
            removeImage(for: key)  // the old image for this key is stale now
            return false
        }
        let entry = Entry(image: animation?.poster ?? image, animation: animation, http: http)
        let expiresAt = [timeToLive, lifetime].compactMap { $0 }.min().map { now() + $0 }
        var evicted: [Entry] = []
        let stored = storage.withLock {
            $0.setValue(entry, forKey: key, cost: cost, expiresAt: expiresAt, evicted: &evicted)
        }
        // Outside the lock: the next decode of the same size writes into the evicted stills' pixels.
        for old in evicted where old.animation == nil { PixelBufferPool.shared.recycle(pixelsOf: old.image) }
        return stored
    }

    /// Marks the image for a key as on screen, now or once stored, so it is evicted last; undone by ``unpin(_:)``.
    package func pin(_ key: ImageCacheKey) { storage.withLock { $0.pin(key) } }

    /// Undoes one ``pin(_:)``.
    package func unpin(_ key: ImageCacheKey) { storage.withLock { $0.unpin(key) } }

    /// Whether the image for a key is stored and pinned.
    package func isPinned(_ key: ImageCacheKey) -> Bool { storage.withLock { $0.isPinned(key) } }

    /// Removes the image for a key.
    public func removeImage(for key: ImageCacheKey) { storage.withLock { _ = $0.removeValue(forKey: key) } }

    /// Removes every image.
    public func removeAll() {
        storage.withLock { $0.removeAll() }
        PixelBufferPool.shared.removeAll()
    }

    /// Evicts least recently used images until the total cost is at most `cost`.
    public func trim(toCost cost: Int) { storage.withLock { $0.trim(toCost: cost) } }

    /// Removes expired images now instead of when they are next read.
    public func removeExpired() {
        let now = now()
        storage.withLock { $0.removeExpired(now: now) }
    }

    /// The total cost of the stored images, in bytes.
    public var totalCost: Int { storage.withLock { $0.totalCost } }
    /// The bytes of evicted images' pixels kept for reuse, for benchmarks.
    @_spi(Benchmarks) public static var bytesKeptForReuse: Int { PixelBufferPool.shared.byteCount }
    /// The number of stored images.
    public var totalCount: Int { storage.withLock { $0.count } }
    /// The limit the total cost is kept at or under.
    public var costLimit: Int {
        get { storage.withLock { $0.costLimit } }
        set { storage.withLock { $0.costLimit = max(0, newValue) } }
    }
    /// The limit on the number of images.
    public var countLimit: Int {
        get { storage.withLock { $0.countLimit } }
        set { storage.withLock { $0.countLimit = max(0, newValue) } }
    }

    /// Keys from most to least recently used.
    package var keysByRecency: [ImageCacheKey] { storage.withLock { $0.keysByRecency } }
}
