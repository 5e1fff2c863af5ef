// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// The result of the decode and process stages: an image ready to show, and where it came from.
package struct PreparedImage {
    package var image: PlatformImage
    package var response: HTTPResponseInfo?
    package var cacheType: ImageResponse.CacheType?
    /// Every frame, for a request that asked for them (``image`` is the first).
    package var animation: AnimatedImage?
    /// How the stages made it.
    package var metrics = ImageTaskMetrics.Stages()

    /// The image and its frames at `scale` pixels per point (a thumbnail's ``ThumbnailOptions/scale``).
    func carryingScale(_ scale: Double?) -> PreparedImage {
        guard let scale, scale != 1 else { return self }
        var scaled = self
        scaled.image = image.withScale(scale)
        scaled.animation = animation?.mapImages { $0.withScale(scale) }
        return scaled
    }
}

#if LOOKAHEAD_NONSENDABLE_IMAGE
// SAFETY: where the platform image is not `Sendable` (NSImage on macOS 13, and its Linux stand-in), it is only an
// image the pipeline made from a finished CGImage (or Bitmap) and never mutates; AppKit documents such images as
// safe to hand to other threads for drawing.
extension PreparedImage: @unchecked Sendable {}
#else
extension PreparedImage: Sendable {}
#endif

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
