// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The processed-image stage: a request's final image (thumbnail, processors applied) kept encoded in the disk
/// cache under the request's own key (``DiskCacheContent``), read back before anything is downloaded or decoded.
struct FinalImageDiskStore: Sendable {
    /// `nil` when final images are not kept: the content is original data, there is no disk cache, or the policy is
    /// ``DiskCachePolicy/httpSemantics`` (only the original data carries the headers that decide freshness).
    let diskCache: (any DataCaching)?
    /// Whether the original data is kept beside final images (``DiskCacheContent/all``).
    let keepsOriginalData: Bool
    let decoders: [any ImageDecoding]
    let maximumPixelCount: Int
    let events: PipelineEventSink
    let ioQueue: DispatchQueue
    /// Encodes final images for the disk cache, one at a time; ``flush()`` drains it.
    let encodeQueue: DispatchQueue
    /// Decodes stored images.
    let executor: any ImagePipelineExecutor

    /// How a request uses the stored final image, or `nil` when it has none: final images are not kept, or the
    /// request has neither a thumbnail nor processors, asks for an animation, or is not a download.
    func use(for request: ImageRequest) -> TaskGraph.ProcessedImageUse? {
        guard diskCache != nil, request.thumbnail != nil || !request.processors.isEmpty, !request.isAnimated,
            let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return nil }
        let policy = request.dataPolicy
        return TaskGraph.ProcessedImageUse(
            reads: policy.readsDiskCache,
            stores: policy.writesDiskCache,
            keepsOriginalData: keepsOriginalData
        )
    }

    /// The disk-cache key of a request's final image: its URL, thumbnail and processors.
    static func key(for request: ImageRequest) -> String {
        let key = request.imageKey
        return "lookahead-image:" + key.imageID + "#" + (key.thumbnail?.description ?? "") + "#"
            + key.processors.joined(separator: "|")
    }

    /// Reads the stored final image on the I/O queue and decodes it as it is on a decode thread: `nil` on a miss. An
    /// entry that does not decode is removed and is a miss.
    func run(_ request: ImageRequest) async -> Result<PreparedImage?, ImagePipeline.Error> {
        guard let diskCache else { return .success(nil) }
        let key = Self.key(for: request)
        let data = await ioQueue.run { diskCache.cachedData(for: key) }
        guard let data else { return .success(nil) }
        if Task.isCancelled { return .failure(.cancelled) }
        return await withCheckedContinuation { continuation in
            executor.runDecode {
                let context = ImageDecodingContext(maximumPixelCount: maximumPixelCount)
                guard case .success(let decoded) = ImageDecoders.decode(data, with: decoders, context: context)
                else {
                    diskCache.removeData(for: key)
                    return continuation.resume(returning: .success(nil))
                }
                if let url = request.url { events?(.diskCacheHit(url, byteCount: data.count)) }
                let image = PreparedImage(image: decoded.image, response: nil, cacheType: .disk)
                continuation.resume(returning: .success(image.carryingScale(request.thumbnail?.scale)))
            }
        }
    }

    /// Encodes a final image made for `request` and stores it, on the encode queue.
    func store(_ output: PreparedImage, for request: ImageRequest) {
        guard let diskCache else { return }
        encodeQueue.async {
            guard let bitmap = output.image.makeBitmap(), let file = ImageEncoders.diskCacheFile(for: bitmap) else {
                return
            }
            diskCache.storeData(file, for: Self.key(for: request))
        }
    }

    /// Waits until every final image handed to ``store(_:for:)`` so far is handed to the disk cache.
    func flush() async {
        await encodeQueue.run {}
    }
}
