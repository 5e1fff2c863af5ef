// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — progressive previews: from the loader's body so far to a preview for every task on the download.

import Foundation

extension ImagePipeline {
    /// The preview state of one download. Thumbnail: the request that started the download's (the first task's);
    /// coalesced tasks with another thumbnail get that size too (their final images are their own).
    final class PreviewSession: Sendable {
        let operation: Int
        let context: ImageDecodingContext
        let gate: Locked<ProgressivePreviewGate>

        init(operation: Int, context: ImageDecodingContext, gate: ProgressivePreviewGate) {
            self.operation = operation
            self.context = context
            self.gate = Locked(gate)
        }
    }

    /// A preview session for a download of `request`, when progressive decoding is on.
    func makePreviewSession(for request: ImageRequest, operation: Int) -> PreviewSession? {
        guard configuration.isProgressiveDecodingEnabled, configuration.maximumPreviewsPerImage > 0 else { return nil }
        return PreviewSession(
            operation: operation,
            context: ImageDecodingContext(
                thumbnail: request.thumbnail,
                maximumPixelCount: configuration.maximumPixelCount
            ),
            gate: ProgressivePreviewGate(
                interval: configuration.progressiveDecodingInterval,
                maximumPreviews: configuration.maximumPreviewsPerImage
            )
        )
    }

    /// The loader reported the body so far (on its own thread): maybe decode a preview, on the decode executor.
    func bodyArrived(_ body: Data, in session: PreviewSession) {
        guard session.gate.withLock({ $0.bodyArrived(at: .now) }) else { return }
        guard body.count < 3 || ProgressiveJPEGPreviews.isJPEG(body.prefix(3)) else {
            // Not a JPEG: no previews, and no decode.
            _ = session.gate.withLock { $0.decodeFinished(scan: nil, givesPreviews: false) }
            return
        }
        executor.runDecode { [weak self] in
            let outcome = ProgressiveJPEGPreviews.preview(of: body, context: session.context)
            let delivers = session.gate.withLock { gate in
                switch outcome {
                case .preview(_, let scan): gate.decodeFinished(scan: scan, givesPreviews: true)
                case .needsMoreData: gate.decodeFinished(scan: nil, givesPreviews: true)
                case .unsupported: gate.decodeFinished(scan: nil, givesPreviews: false)
                }
            }
            guard delivers, let self, case .preview(let image, _) = outcome else { return }
            self.operationPreviewed(session.operation, image: TaskGraph.Output(image: image, response: nil))
        }
    }
}
