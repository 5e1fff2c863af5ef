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

        /// `nil` when progressive decoding is off.
        init?(for request: ImageRequest, configuration: ImagePipeline.Configuration, prefix: Data) {
            guard configuration.isProgressiveDecodingEnabled, configuration.maximumPreviewsPerImage > 0 else {
                return nil
            }
            context = ImageDecodingContext(
                thumbnail: request.thumbnail,
                maximumPixelCount: configuration.maximumPixelCount
            )
            gate = Locked(
                ProgressivePreviewGate(
                    interval: configuration.progressiveDecodingInterval,
                    maximumPreviews: configuration.maximumPreviewsPerImage
                )
            )
            self.prefix = prefix
        }
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

/// Decides, for one download, which of the loader's "body so far" reports become a preview decode:
/// - one decode at a time: a report that arrives while one decodes is dropped, never queued;
/// - at least `interval` between the starts of two decodes;
/// - at most `maximumPreviews` previews, each showing a later scan than the one before;
/// - none once the download finished, or once the image turned out to give no previews (not a progressive JPEG,
///   over a limit): one attempt costs a baseline JPEG nothing more.
struct ProgressivePreviewGate {
    let interval: Duration
    let maximumPreviews: Int
    private(set) var previewCount = 0
    private(set) var isDecoding = false
    private(set) var isClosed = false
    private var lastStart: ContinuousClock.Instant?
    private var lastScan = 0

    init(interval: Duration, maximumPreviews: Int) {
        self.interval = interval
        self.maximumPreviews = maximumPreviews
    }

    /// More of the body arrived at `now`: `true` when a preview decode should start (then call ``decodeFinished``).
    mutating func bodyArrived(at now: ContinuousClock.Instant) -> Bool {
        guard !isClosed, !isDecoding, previewCount < maximumPreviews else { return false }
        if let lastStart, now - lastStart < interval { return false }
        lastStart = now
        isDecoding = true
        return true
    }

    /// A decode ended at `scan` (`nil`: no complete scan); `givesPreviews` is `false` when the image never will. `true`
    /// when its preview should be delivered.
    mutating func decodeFinished(scan: Int?, givesPreviews: Bool) -> Bool {
        isDecoding = false
        if !givesPreviews { isClosed = true }
        guard !isClosed, let scan, scan > lastScan else { return false }
        lastScan = scan
        previewCount += 1
        return true
    }

    /// The download finished (or failed): no preview from now on, even from a decode still running.
    mutating func close() {
        isClosed = true
    }
}
