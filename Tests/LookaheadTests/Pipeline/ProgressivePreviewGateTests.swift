// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ProgressivePreviewGate: which body reports become preview decodes.

import Foundation
import Testing

@testable import Lookahead

@Suite struct ProgressivePreviewGateTests {
    let start = ContinuousClock.now

    @Test func oneDecodeAtATimeAndReportsMeanwhileAreDropped() {
        var step = false
        var gate = ProgressivePreviewGate(interval: .zero, maximumPreviews: 5)
        step = gate.bodyArrived(at: start)
        #expect(step)
        step = gate.bodyArrived(at: start + .seconds(1))
        #expect(!step)  // decoding: dropped, not queued
        step = gate.decodeFinished(scan: 1, givesPreviews: true)
        #expect(step)
        step = gate.bodyArrived(at: start + .seconds(2))
        #expect(step)
    }

    @Test func decodesAreAtLeastTheIntervalApart() {
        var step = false
        var gate = ProgressivePreviewGate(interval: .milliseconds(250), maximumPreviews: 5)
        step = gate.bodyArrived(at: start)
        #expect(step)
        step = gate.decodeFinished(scan: 1, givesPreviews: true)
        #expect(step)
        step = gate.bodyArrived(at: start + .milliseconds(249))
        #expect(!step)
        step = gate.bodyArrived(at: start + .milliseconds(250))
        #expect(step)
    }

    @Test func onlyLaterScansAreDeliveredAndAtMostTheMaximum() {
        var step = false
        var gate = ProgressivePreviewGate(interval: .zero, maximumPreviews: 2)
        step = gate.bodyArrived(at: start)
        #expect(step)
        step = gate.decodeFinished(scan: nil, givesPreviews: true)
        #expect(!step)  // no scan complete yet
        step = gate.bodyArrived(at: start)
        #expect(step)
        step = gate.decodeFinished(scan: 2, givesPreviews: true)
        #expect(step)
        step = gate.bodyArrived(at: start)
        #expect(step)
        step = gate.decodeFinished(scan: 2, givesPreviews: true)
        #expect(!step)  // the same scan again: nothing new
        step = gate.bodyArrived(at: start)
        #expect(step)
        step = gate.decodeFinished(scan: 3, givesPreviews: true)
        #expect(step)
        #expect(gate.previewCount == 2)
        step = gate.bodyArrived(at: start + .seconds(1))
        #expect(!step)  // the maximum is reached
    }

    @Test func anImageWithoutPreviewsAndAFinishedDownloadCloseTheGate() {
        var step = false
        var gate = ProgressivePreviewGate(interval: .zero, maximumPreviews: 5)
        step = gate.bodyArrived(at: start)
        #expect(step)
        step = gate.decodeFinished(scan: nil, givesPreviews: false)
        #expect(!step)  // a baseline JPEG
        step = gate.bodyArrived(at: start + .seconds(1))
        #expect(!step)

        var running = ProgressivePreviewGate(interval: .zero, maximumPreviews: 5)
        step = running.bodyArrived(at: start)
        #expect(step)
        running.close()  // the download finished while the preview decoded
        step = running.decodeFinished(scan: 4, givesPreviews: true)
        #expect(!step)
        step = running.bodyArrived(at: start + .seconds(1))
        #expect(!step)
    }
}
