// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

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
