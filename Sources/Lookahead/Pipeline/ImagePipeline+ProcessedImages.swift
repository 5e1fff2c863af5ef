// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — final images (thumbnails, processed images) in the disk cache: the key, the lookup, the store.

import Foundation

extension ImagePipeline {
    /// How a request uses the disk cache's entry for its final image, or `nil` when it has none: the content is
    /// ``DiskCacheContent/originalData``, there is no disk cache, the request has neither a thumbnail nor processors,
    /// asks for an animation, or its data is not a download. Entries are kept forever: with
    /// ``DiskCachePolicy/httpSemantics`` only the original data is stored (its freshness is the server's to say).
    func processedImageUse(for request: ImageRequest) -> TaskGraph.ProcessedImageUse? {
        guard configuration.diskCacheContent != .originalData, configuration.diskCache != nil,
            configuration.diskCachePolicy.kind == .cacheForever,
            request.thumbnail != nil || !request.processors.isEmpty, !request.isAnimated,
            let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        let policy = request.dataPolicy
        return TaskGraph.ProcessedImageUse(
            reads: policy.readsDiskCache,
            stores: policy.writesDiskCache,
            keepsOriginalData: configuration.diskCacheContent == .all
        )
    }

    /// The disk-cache key of a request's final image: its URL, thumbnail and processors.
    static func processedImageKey(for request: ImageRequest) -> String {
        let key = request.imageKey
        return "lookahead-image:" + key.url + "#" + (key.thumbnail?.description ?? "") + "#"
            + key.processors.joined(separator: "|")
    }

    /// The stored final image's bytes, read on the I/O queue; `nil` on a miss.
    func readProcessedImage(for request: ImageRequest) async -> Data? {
        guard let diskCache = configuration.diskCache else { return nil }
        switch await lookUpDiskCache(diskCache, key: Self.processedImageKey(for: request)) {
        case .fresh(let data): return data
        case .stale(let entry): return entry.data
        case .miss: return nil
        }
    }

    /// Decodes a stored final image as it is (no thumbnail, no processors: it was stored after both); an entry that
    /// does not decode is removed and is a miss. Runs on the decode queue.
    func decodeProcessedImage(_ data: Data, for request: ImageRequest) -> TaskGraph.Output? {
        let context = ImageDecodingContext(maximumPixelCount: configuration.maximumPixelCount)
        let key = Self.processedImageKey(for: request)
        guard case .success(let decoded) = ImageDecoders.decode(data, with: configuration.decoders, context: context)
        else {
            configuration.diskCache?.removeData(for: key)
            return nil
        }
        if let url = request.url { configuration.eventHandler?(.diskCacheHit(url, byteCount: data.count)) }
        return TaskGraph.Output(image: decoded.image, response: nil, cacheType: .disk)
    }

    /// Encodes a final image made for `request` and stores it, on the encode queue (``flush()`` waits for it).
    func storeProcessedImage(_ output: TaskGraph.Output, for request: ImageRequest) {
        guard let diskCache = configuration.diskCache else { return }
        encodeQueue.async {
            guard let bitmap = output.image.makeBitmap(), let file = ImageEncoders.diskCacheFile(for: bitmap) else {
                return
            }
            diskCache.storeData(file, for: Self.processedImageKey(for: request))
        }
    }
}
