// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

extension ImagePipeline {
    /// Which of the pipeline's caches a call reaches.
    public struct Caches: OptionSet, Sendable {
        public let rawValue: Int

        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The memory cache of decoded images.
        public static let memory = Caches(rawValue: 1 << 0)
        /// The disk cache: a request's original bytes, and its final image when kept (``DiskCacheContent``).
        public static let disk = Caches(rawValue: 1 << 1)
        /// Both.
        public static let all: Caches = [.memory, .disk]
    }

    /// Whether an image for the request is cached: decoded in memory, or its original bytes or final image on disk.
    /// The disk is asked without reading the entry when the cache keeps an index (``DiskCache`` does).
    public func containsCachedImage(for request: ImageRequest, in caches: Caches = .all) -> Bool {
        let request = identified(request)
        if caches.contains(.memory), memoryCache?.entry(for: request.imageKey) != nil { return true }
        guard caches.contains(.disk), let disk = configuration.diskCache else { return false }
        return disk.containsData(for: request.dataIdentity)
            || disk.containsData(for: FinalImageDiskStore.key(for: request))
    }

    /// Removes a request's image from the caches: the decoded image (not other sizes of it), and on disk its
    /// original bytes (with their HTTP metadata and any kept partial download) and its final image.
    public func removeCachedImage(for request: ImageRequest, from caches: Caches = .all) {
        let request = identified(request)
        if caches.contains(.memory) { memoryCache?.removeImage(for: request.imageKey) }
        guard caches.contains(.disk), let disk = configuration.diskCache else { return }
        let variants = (0..<HTTPCacheMetadata.variantSlots).map {
            HTTPCacheMetadata.variantKey(of: request.dataIdentity, slot: $0)
        }
        for key in [request.dataIdentity] + variants {
            disk.removeData(for: key)
            disk.removeData(for: HTTPCacheMetadata.key(for: key))
        }
        disk.removeData(for: PartialDownload.key(for: request.dataIdentity))
        disk.removeData(for: FinalImageDiskStore.key(for: request))
    }

    /// Stores original image bytes in the disk cache for a request, as a download would: what a later load of it
    /// reads instead of the network. Bytes that are not a complete image are not stored.
    @discardableResult
    public func storeCachedData(_ data: Data, for request: ImageRequest) -> Bool {
        guard let disk = configuration.diskCache,
            case .success = ImageDecoders.validateStructure(data, decoders: configuration.decoders)
        else { return false }
        disk.storeData(data, for: identified(request).dataIdentity)
        return true
    }

    /// Empties the caches.
    public func removeAllCachedImages(from caches: Caches = .all) {
        if caches.contains(.memory) { memoryCache?.removeAll() }
        if caches.contains(.disk) { configuration.diskCache?.removeAll() }
    }

    /// Waits until the data and final images handed to the disk cache so far are on disk, and the background
    /// revalidations (`stale-while-revalidate`) have finished: for a program that exits right after a load.
    public func flush() async {
        await runner.finalImages.flush()
        await runner.loadData.revalidations.wait()
        await configuration.diskCache?.flush()
    }

    /// Cancels every task (they end as cancelled) and stops their work; the pipeline goes on taking requests. For a
    /// sign-out, with ``removeAllCachedImages(from:)``.
    public func cancelAllTasks() {
        runner.run { $0.failAll(with: .cancelled) }
    }
}
