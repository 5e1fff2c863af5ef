// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The decode stage: loaded bytes to an image ready to show, at the request's thumbnail size, every frame when it
/// asks for an animation. Runs on a decode thread.
///
/// Decoding is also the verdict on the data: network data that decodes is stored in the disk cache (its
/// ``DiskCacheTicket``) and clears its URL's failures; network data that does not counts as a failure of its URL
/// and is never stored; disk data that does not is removed from the disk cache.
struct DecodeWorker: Sendable {
    let decoders: [any ImageDecoding]
    /// The pixel and frame limits every decode is held to; a request adds its thumbnail.
    let limits: ImageDecodingContext
    let events: PipelineEventSink
    let failureRecords: FailureRecords?

    func run(_ loaded: LoadedData, for request: ImageRequest) -> Result<PreparedImage, ImagePipeline.Error> {
        var context = limits
        context.thumbnail = request.thumbnail
        let start = ContinuousClock.now
        let result = decodeImageOrAnimation(loaded.response.data, for: request, context: context)
        settle(loaded, for: request, after: result.map { _ in () })
        if loaded.cacheType == nil, let failureRecords {
            switch result {
            case .success: failureRecords.recordDecode(of: request, error: nil)
            case .failure(let error): failureRecords.recordDecode(of: request, error: error)
            }
        }
        return result.map { decoded in
            events?(
                .imageDecoded(
                    request.decodeKey,
                    width: decoded.image.pixelWidth,
                    height: decoded.image.pixelHeight,
                    duration: .now - start
                )
            )
            var prepared = PreparedImage(
                image: decoded.image,
                response: loaded.response.response,
                cacheType: loaded.cacheType,
                animation: decoded.animation
            )
            prepared.metrics = loaded.metrics
            prepared.metrics.decode = .since(start)
            return prepared.carryingScale(request.thumbnail?.scale)
        }
    }

    /// Disk data that is not an image (removed by ``run(_:for:)``) is loaded again from the network, once, when the
    /// request may load from it: a bad entry costs a download, not a failure.
    static func reloads(after error: ImagePipeline.Error, of loaded: LoadedData, for request: ImageRequest) -> Bool {
        loaded.cacheType == .disk && error.isInvalidImageData && request.dataPolicy.loadsFromNetwork
    }

    /// For data-only requests: the data must pass the structural check (a decoder recognises it and it is
    /// complete); network data is stored in the disk cache only once it passes. Disk data passed the check, or a
    /// decode, before it was stored.
    func validate(_ loaded: LoadedData) -> Result<Void, ImagePipeline.Error> {
        guard loaded.cacheType != .disk else { return .success(()) }
        let verdict = ImageDecoders.validateStructure(loaded.response.data, decoders: decoders)
        if case .success = verdict { loaded.diskCacheTicket?.accept() }
        return verdict
    }

    /// Every frame when the request asks for them and the data is an animation; else the image.
    private func decodeImageOrAnimation(
        _ data: Data,
        for request: ImageRequest,
        context: ImageDecodingContext
    ) -> Result<(image: PlatformImage, animation: AnimatedImage?), ImagePipeline.Error> {
        if request.isAnimated {
            switch ImageDecoders.decodeAnimation(data, with: decoders, context: context) {
            case .success(let decoded?): return .success((decoded.animation.poster, decoded.animation))
            case .success(nil): break
            case .failure(let error): return .failure(error)
            }
        }
        return ImageDecoders.decode(data, with: decoders, context: context).map { ($0.image, nil) }
    }

    /// Acts on the decode's outcome for the data's disk cache entry. A failure that says nothing about the data
    /// (too many pixels for this pipeline, a cancellation) leaves the entry alone.
    private func settle(
        _ loaded: LoadedData,
        for request: ImageRequest,
        after outcome: Result<Void, ImagePipeline.Error>
    ) {
        switch outcome {
        case .success:
            loaded.diskCacheTicket?.accept()
        case .failure(let error):
            guard let url = request.url else { return }
            events?(.decodingFailed(url, error))
            guard error.isInvalidImageData, loaded.diskCacheTicket?.reject() == true else { return }
            events?(.diskCacheEntryRemoved(url, reason: error))
        }
    }
}
