// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Previews of a progressive JPEG decoded while it downloads.
extension DataLoadWorker {
    /// One download's previews. The thumbnail is that of the request that started the download; coalesced tasks
    /// with another thumbnail get that size too (their final images are their own).
    final class PreviewSession: Sendable {
        let context: ImageDecodingContext
        let gate: Locked<ProgressivePreviewGate>
        /// The kept first bytes of a resumed download, which its body arrives without.
        let prefix: Data

        init(context: ImageDecodingContext, gate: ProgressivePreviewGate, prefix: Data) {
            self.context = context
            self.gate = Locked(gate)
            self.prefix = prefix
        }
    }

    func makePreviewSession(for request: ImageRequest, prefix: Data) -> PreviewSession? {
        guard let gate = settings.previewGate, gate.maximumPreviews > 0 else { return nil }
        return PreviewSession(
            context: ImageDecodingContext(thumbnail: request.thumbnail, maximumPixelCount: settings.maximumPixelCount),
            gate: gate,
            prefix: prefix
        )
    }

    /// The loader reported the body so far (on its own thread): maybe decode a preview, on the decode executor.
    func bodyArrived(_ body: Data, in session: PreviewSession, reporter: OperationReporter) {
        guard session.gate.withLock({ $0.bodyArrived(at: .now) }) else { return }
        let body = session.prefix.isEmpty ? body : session.prefix + body
        guard body.count < 3 || ProgressiveJPEGPreviews.isJPEG(body.prefix(3)) else {
            // Not a JPEG: no previews, and no decode.
            _ = session.gate.withLock { $0.decodeFinished(scan: nil, givesPreviews: false) }
            return
        }
        executor.runDecode {
            let outcome = ProgressiveJPEGPreviews.preview(of: body, context: session.context)
            let delivers = session.gate.withLock { gate in
                switch outcome {
                case .preview(_, let scan): gate.decodeFinished(scan: scan, givesPreviews: true)
                case .needsMoreData: gate.decodeFinished(scan: nil, givesPreviews: true)
                case .unsupported: gate.decodeFinished(scan: nil, givesPreviews: false)
                }
            }
            guard delivers, case .preview(let image, _) = outcome else { return }
            let preview = PreparedImage(image: image, response: nil).carryingScale(session.context.thumbnail?.scale)
            reporter.report(.previewed(preview))
        }
    }
}
