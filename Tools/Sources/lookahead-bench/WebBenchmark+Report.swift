// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench web`'s lines and figures.

import Foundation
import LookaheadFixtures

extension WebBenchmark {
    private var setting: String { "\(profile.rawValue), HTTP/\(http.rawValue)" }

    private func median(_ values: [Double]) -> Double { EndToEndBenchmark.median(values) }

    /// A ratio, or `n/a` against a limit of zero (loopback has none).
    private func ratio(_ value: Double, _ limit: Double) -> String {
        limit > 0 ? String(format: "%.2f", value / limit) : "n/a"
    }

    /// The limit with TCP's slow start from the origin's initial window.
    private func slowStartLimit(bytes: Int) -> Double {
        profile.slowStartLimitSeconds(bytes: bytes, initialWindow: initialWindow)
    }

    func reportFirstScreen(_ passes: [WebClient.Pass]) {
        let seconds = median(passes.map(\.seconds))
        let bytes = Int(median(passes.map { Double($0.bytes) }))
        let limit = profile.limitSeconds(bytes: bytes)
        let slowStart = slowStartLimit(bytes: bytes)
        print(
            "web-first-screen: "
                + String(format: "lookahead %.3f s, limit %.3f s, ratio ", seconds, limit) + ratio(seconds, limit)
                + " (\(visible) thumbnails, \(bytes) bytes; limit = \(LinkProfile.roundTripsToFirstByte) round trips "
                + "+ the bytes at the rate; with TCP's slow start from \(initialWindow) segments "
                + String(format: "%.3f s, ratio ", slowStart) + ratio(seconds, slowStart) + "; \(setting))"
        )
        figure(
            id: "first-screen",
            title: "The first \(visible) thumbnails on screen, cold",
            value: seconds,
            limit: limit,
            limitName: "the link's limit: 3 round trips + their bytes at the rate",
            goal: 1.2
        )
    }

    func reportCold(_ cold: WebClient.Cold, decoding: Double) {
        let seconds = median(cold.negotiated.map(\.seconds))
        let bytes = Int(median(cold.negotiated.map { Double($0.bytes) }))
        let transfer = profile.limitSeconds(bytes: bytes)
        let floor = profile.floorSeconds(bytes: bytes, decodingSeconds: decoding)
        let slowStart = max(slowStartLimit(bytes: bytes), decoding)
        print(
            String(
                format: "web-cold: lookahead %.3f s, floor %.3f s, ratio %.2f (%d photos → %d px, %d bytes; floor = "
                    + "max(transfer at the link's rate %.3f s, decoding on %d cores %.3f s); with TCP's slow start "
                    + "%.3f s, ratio %.2f; \(setting))",
                seconds,
                floor,
                seconds / floor,
                count,
                side,
                bytes,
                transfer,
                ProcessInfo.processInfo.activeProcessorCount,
                decoding,
                slowStart,
                seconds / slowStart
            )
        )
        figure(
            id: "cold",
            title: "\(count) photos to \(side) px thumbnails, cold",
            value: seconds,
            limit: floor,
            limitName: "floor: max(transfer at the link's rate, decoding on all cores)",
            goal: 1.15
        )
    }

    func reportPeer(cold: WebClient.Cold, peer: [(seconds: Double, bytes: Int)]) {
        let ours = median(cold.negotiated.map(\.seconds))
        let theirs = median(peer.map(\.seconds))
        let theirBytes = Int(median(peer.map { Double($0.bytes) }))
        print(
            String(
                format:
                    "web-peer: lookahead %.3f s, peer %.3f s, ratio %.2f (peer: Python httpx over HTTP/\(http.rawValue) "
                    + "+ a Pillow pool of %d processes, %d bytes with httpx's Accept */*; \(setting))",
                ours,
                theirs,
                ours / theirs,
                ProcessInfo.processInfo.activeProcessorCount,
                theirBytes
            )
        )
        figure(
            id: "peer",
            title: "\(count) photos to \(side) px thumbnails, cold, against Python",
            value: ours,
            limit: theirs,
            limitName: "Python: httpx and a Pillow process pool",
            goal: 0.5
        )
    }

    func reportFormats(_ cold: WebClient.Cold) {
        func medians(_ passes: [WebClient.Pass]) -> (bytes: Double, seconds: Double) {
            (median(passes.map { Double($0.bytes) }), median(passes.map(\.seconds)))
        }
        let (negotiated, webP, jpeg) = (medians(cold.negotiated), medians(cold.webP), medians(cold.jpeg))
        print(
            String(
                format: "web-formats: bytes %.0f vs %.0f, time %.3f s vs %.3f s (asking for AVIF/WebP vs JPEG only: "
                    + "%.2f× the bytes, %.2f× the time; asking for WebP alone: bytes %.0f, time %.3f s, %.2f× the "
                    + "time; \(setting))",
                negotiated.bytes,
                jpeg.bytes,
                negotiated.seconds,
                jpeg.seconds,
                negotiated.bytes / jpeg.bytes,
                negotiated.seconds / jpeg.seconds,
                webP.bytes,
                webP.seconds,
                webP.seconds / jpeg.seconds
            )
        )
        figure(
            id: "formats",
            title: "\(count) photos, cold, asking for AVIF/WebP against JPEG only",
            value: negotiated.seconds,
            limit: jpeg.seconds,
            limitName: "the same pipeline asking for nothing (JPEG)",
            goal: 1.0
        )
    }

    func reportConnections(_ connections: WebConnectionCount) {
        // Every TLS connection begins with one handshake, full or resumed.
        print(
            "web-connections: \(connections.connections) connections, \(connections.connections) TLS handshakes "
                + "(\(connections.resumedHandshakes) resumed), \(connections.requests) requests over "
                + "\(connections.protocols.sorted().joined(separator: ", ")) (the first cold pass, from nginx's log; "
                + "\(setting))"
        )
    }

    func reportVisibleUnderLoad(_ results: [(alone: Double, loaded: Double)]) {
        let alone = median(results.map(\.alone))
        let loaded = median(results.map(\.loaded))
        print(
            String(
                format: "web-visible-under-load: under load %.3f s, alone %.3f s, ratio %.2f (%d prefetches in "
                    + "flight at low priority, the visible image at high; \(setting))",
                loaded,
                alone,
                loaded / alone,
                prefetches
            )
        )
        figure(
            id: "visible-under-load",
            title: "An image that becomes visible with \(prefetches) prefetches in flight",
            value: loaded,
            limit: alone,
            limitName: "the same image alone on a warm connection",
            goal: 1.3
        )
    }

    /// A `bench-figure` line: `value` against `limit`, the goal a ratio.
    private func figure(id: String, title: String, value: Double, limit: Double, limitName: String, goal: Double) {
        BenchFigure(
            id: "web-\(id)-\(profile.rawValue)-h\(http.rawValue)",
            title: "\(title) (\(setting))",
            unit: "s",
            lookahead: value,
            peers: [.init(name: limitName, value: limit)],
            goal: String(format: "≤ %.2f×", goal),
            goalMet: limit > 0 ? value <= goal * limit : nil,
            note: "median of \(runs) runs; " + loadNote()
        ).print()
    }
}
