// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The decode stage: loaded bytes to an image at the request's thumbnail size (every frame for an animation), on a
/// decode thread. Also the verdict on the data: network data that decodes is stored in the disk cache and clears its
/// failures, else counts as a failure and is never stored; disk data that does not decode is removed.
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
        let error: ImagePipeline.Error? = if case .failure(let error) = result { error } else { nil }
        settle(loaded, for: request, error: error)
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

    /// For data-only requests: network data must pass the structural check (a decoder recognises it and it is
    /// complete) to be stored in the disk cache; disk data passed it, or a decode, before it was stored.
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

    /// Acts on the decode's verdict (`nil` for a success): accepts the data's disk cache entry, or removes invalid
    /// data (too many pixels says nothing about it), and tells the failure backoff about network data.
    private func settle(_ loaded: LoadedData, for request: ImageRequest, error: ImagePipeline.Error?) {
        if let error {
            if let url = request.url {
                events?(.decodingFailed(url, error))
                if error.isInvalidImageData, loaded.diskCacheTicket?.reject() == true {
                    events?(.diskCacheEntryRemoved(url, reason: error))
                }
            }
        } else {
            loaded.diskCacheTicket?.accept()
        }
        if loaded.cacheType == nil { failureRecords?.recordDecode(of: request, error: error) }
    }
}

/// The process stage: applies a request's last processor to the image made for the request without it (the task
/// graph chains one stage per processor, so `[p1]` and `[p1, p2]` share `p1`). An animation is processed frame by
/// frame: its first frame at once, the others as they play. Runs on a decode thread.
struct ProcessWorker: Sendable {
    func run(_ input: PreparedImage, for request: ImageRequest) -> Result<PreparedImage, ImagePipeline.Error> {
        guard let processor = request.processors.last else { return .success(input) }
        let start = ContinuousClock.now
        var output = input
        do throws(ImagePipeline.Error) {
            if let animation = input.animation {
                let processed = try animation.mapImages { (image) throws(ImagePipeline.Error) in
                    try Self.apply(processor, to: image)
                }
                output.animation = processed
                output.image = processed.poster
            } else {
                output.image = try Self.apply(processor, to: input.image)
            }
        } catch {
            return .failure(error)
        }
        // One interval from the first processor to the last: each stage applies one.
        output.metrics.processing = .init(start: input.metrics.processing?.start ?? start, end: .now)
        return .success(output.carryingScale(request.thumbnail?.scale))
    }

    /// Processors work on RGBA pixels: free on Linux, one conversion each way on Apple platforms.
    private static func apply(
        _ processor: any ImageProcessing,
        to image: PlatformImage
    ) throws(ImagePipeline.Error) -> PlatformImage {
        guard let bitmap = image.makeBitmap() else {
            throw .processingFailed(identifier: processor.identifier, message: "the image has no readable pixels")
        }
        do {
            return PlatformImage.make(from: try processor.process(bitmap))
        } catch {
            throw .processingFailed(identifier: processor.identifier, message: "\(error)")
        }
    }
}
