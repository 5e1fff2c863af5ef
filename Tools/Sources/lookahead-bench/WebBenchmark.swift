// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench web`: the photos from nginx over HTTPS, through a link with a phone's rate
// and round trip, against the link's physical limit and a peer in the same run.

import ArgumentParser
import Foundation
import Lookahead
import LookaheadFixtures

struct WebBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Photos from nginx over HTTPS (HTTP/2 or HTTP/1.1) through a modelled link, against its limit.",
        discussion: """
            Starts Debian's nginx with a certificate made for the run and, but for --profile loopback, a link to it: \
            network namespaces joined by veth pairs, `tc … tbf` for the rate, and a relay holding every frame for \
            half the round trip (loss other than a full queue's, jitter and a slower uplink are left out). The \
            client trusts the run's certificate through DataLoaderOptions.trustedCertificates. Prints \
            web-first-screen (the first --visible thumbnails against 3 round trips + their bytes at the rate), \
            web-cold (--count photos to --side px against max(the transfer's limit, decoding on all cores)), \
            web-peer (the same against Python: httpx over HTTP/2 and a Pillow process pool), web-formats (with and \
            without asking for AVIF/WebP), web-connections (from nginx's log) and web-visible-under-load (an image \
            that becomes visible while --prefetches prefetches are in flight, against its time alone). Needs root \
            for the link; nginx and the link are removed when it ends, on an error or a signal too.
            """
    )

    @Option(help: "The link: loopback, wifi (50 Mbit/s, 20 ms), 4g (12 Mbit/s, 60 ms) or 3g (1.6 Mbit/s, 300 ms).")
    var profile: LinkProfile = .fourG

    @Option(help: "The HTTP version the origin offers: 2 (HTTP/2, ALPN) or 1.1.")
    var http: WebHTTPVersion = .http2

    @Option(help: "The origin's TCP initial congestion window, in segments (Linux's default: 10); not on loopback.")
    var initialWindow = LinkProfile.defaultInitialWindow

    @Option(help: "Photos in the cold pass.")
    var count = 200

    @Option(help: "Width of the photos as the origin serves them, in pixels.")
    var width = 640

    @Option(help: "The thumbnails' longest side, in pixels.")
    var side = 256

    @Option(help: "Thumbnails on the first screen.")
    var visible = 12

    @Option(help: "Prefetches in flight when an image becomes visible.")
    var prefetches = 50

    @Option(help: "The pipeline's dataLoadingConcurrency (downloads at once); by default the library's default.")
    var dataLoadingConcurrency: Int?

    @Option(help: "Repetitions of every pass; the median is reported.")
    var runs = 3

    @Option(help: "A folder of JPEG photos, or none for generated pictures; by default the mate-backgrounds photos.")
    var photos: String?

    @Option(help: "A Python with httpx (HTTP/2) and Pillow for the peer; by default python3 on PATH when it has them.")
    var python: String?

    func validate() throws {
        guard count >= max(visible, prefetches + visible + 2), runs > 0, visible > 0, side >= 16, width >= side,
            (1...1000).contains(initialWindow)
        else {
            throw ValidationError(
                "--count must cover --visible and --prefetches, --runs and --visible be positive, --width ≥ --side ≥ 16, "
                    + "--initial-window 1…1000"
            )
        }
    }

    func run() async throws {
        let files = try await WebOriginFiles.prepare(count: count, width: width, photos: photos)
        let session = try await WebSession.start(profile: profile, initialWindow: initialWindow, files: files)
        try await session.run {
            let client = WebClient(
                session: session,
                http: http,
                side: side,
                dataLoadingConcurrency: dataLoadingConcurrency
            )
            printHeader(files: files)
            let urls = (1...count).map { client.url(WebOriginFiles.path($0), negotiated: true) }
            let firstScreen = try await client.firstScreen(Array(urls.prefix(visible)), runs: runs)
            reportFirstScreen(firstScreen)
            let cold = try await client.cold(urls, runs: runs)
            let decoding = try await client.decodingFloor(urls)
            reportCold(cold, decoding: decoding)
            if let peer = try WebPeer.find(python) {
                reportPeer(cold: cold, peer: try peer.measure(client: client, urls: urls, runs: runs))
            } else {
                print("web-peer: skipped, no python3 with httpx (HTTP/2) and Pillow; scripts/bench installs them")
            }
            reportFormats(cold)
            reportConnections(cold.connections)
            let underLoad = try await client.visibleUnderLoad(
                urls,
                visibleIndices: Array(visible..<visible + runs),
                prefetchIndices: Array((count - prefetches)..<count)
            )
            reportVisibleUnderLoad(underLoad)
        }
    }

    private func printHeader(files: WebOriginFiles) {
        let link =
            profile.bitsPerSecond.map {
                String(format: "%g Mbit/s each way, %.0f ms round trip", $0 / 1e6, profile.roundTripSeconds * 1000)
            } ?? "loopback, no rate limit, no added round trip"
        let variants = ["JPEG", files.hasWebP ? "WebP" : nil, files.hasAVIF ? "AVIF" : nil].compactMap { $0 }
        print(
            "lookahead-bench web — profile \(profile.rawValue) (\(link)), HTTP/\(http.rawValue) offered, nginx "
                + "over TLS, \(count) photos \(width) px wide (\(variants.joined(separator: ", ")) on the negotiating "
                + "path), thumbnails \(side) px, "
                + (dataLoadingConcurrency.map { "dataLoadingConcurrency \($0), " } ?? "")
                + "median of \(runs) runs, "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores, load \(loadAverage())"
        )
        if profile != .loopback {
            print(
                "link model: a token bucket at the rate and a fixed delay of half the round trip each way; no loss "
                    + "but a full queue's, no jitter, the same rate up as down; the origin's TCP starts with "
                    + "\(initialWindow) segments"
            )
        }
    }
}
