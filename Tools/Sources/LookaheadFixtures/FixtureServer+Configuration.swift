// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureServer.Configuration: where the fixture server listens and what network it simulates.

public import Foundation

extension FixtureServer {
    /// A width and height in pixels.
    public struct ImageSize: Sendable, Hashable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int

        /// Creates a size.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// How the fixture server listens and how it simulates the network.
    ///
    /// ```swift
    /// let server = try await FixtureServer.start(configuration: .init { configuration in
    ///     configuration.latency = .milliseconds(40)
    ///     configuration.jitter = .milliseconds(20)
    ///     configuration.bytesPerSecond = 256 * 1024
    /// })
    /// ```
    public struct Configuration: Sendable {
        /// The address to bind. Defaults to the IPv4 loopback address.
        public var host: String
        /// The port to bind; 0 (the default) picks any free port.
        public var port: Int
        /// A fixed delay before the headers of every image response.
        public var latency: Duration
        /// The largest extra delay, drawn per request, added to `latency` for image responses.
        public var jitter: Duration
        /// Seeds the jitter and the fault injection. A request's jitter and fault depend only on
        /// this seed, its path and how many requests for that path came before it, so runs are
        /// reproducible.
        public var seed: UInt64
        /// The bandwidth for image bodies in bytes per second; `nil` means unlimited.
        public var bytesPerSecond: Int?
        /// The size of `/images/{n}.jpg` when the request gives neither `w` nor `h`.
        public var defaultImageSize: ImageSize
        /// The JPEG quality of generated images (1...100).
        public var jpegQuality: Int
        /// How many items the media API lists (negative counts as 0); item n's cover is
        /// `cover-n.jpg`. Defaults to 240.
        public var mediaCount: Int
        /// Failures to inject into the image routes; none by default. They are drawn from
        /// ``seed``, so the same seed gives the same faults.
        public var faults: FaultInjection
        /// A folder of JPEG photos to serve as the media covers, or `nil` (the default) for generated
        /// pictures. With a folder, item n shows the photo `(n - 1) mod count` of its `.jpg`/`.jpeg`
        /// files sorted by name, titled after the file ("Green Meadow", "Green Meadow 2" on the next
        /// pass) with the photo's aspect ratio; `/media/{quality}/...` serves it resized and
        /// re-encoded, and quality 0 the file itself. `/images/...` stays generated.
        public var photosFolder: URL? = nil
        /// Redirects in front of every image URL that ``FixtureServer/imageURL(_:width:height:)`` makes (0...5),
        /// as CDNs answer: each hop is a 302 to the same URL with one hop less. 0 by default.
        public var redirectHops = 0
        /// Whether encoded pictures (`/images/…`, `/media/{width}/…`) are sent as WebP to a client whose `Accept`
        /// asks for `image/webp`, and as JPEG otherwise, with `Vary: Accept`, as an image CDN negotiates the
        /// format. Off by default: JPEG for everyone. The URL keeps its `.jpg` name either way.
        public var negotiatesFormats = false
        /// Whether Hummingbird's own log lines (server started, connection errors, shutdown) are
        /// printed. Off by default: `stop()` cancels the server, which Hummingbird reports as an
        /// error-level line that means nothing here. When on, `LOG_LEVEL` picks the level.
        public var shouldLogServerEvents: Bool

        /// Creates a configuration; every parameter has a default.
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            latency: Duration = .zero,
            jitter: Duration = .zero,
            seed: UInt64 = 0,
            bytesPerSecond: Int? = nil,
            defaultImageSize: ImageSize = ImageSize(width: 200, height: 200),
            jpegQuality: Int = FixtureImages.defaultQuality,
            mediaCount: Int = 240,
            faults: FaultInjection = .none,
            shouldLogServerEvents: Bool = false
        ) {
            self.host = host
            self.port = port
            self.latency = latency
            self.jitter = jitter
            self.seed = seed
            self.bytesPerSecond = bytesPerSecond
            self.defaultImageSize = defaultImageSize
            self.jpegQuality = jpegQuality
            self.mediaCount = mediaCount
            self.faults = faults
            self.shouldLogServerEvents = shouldLogServerEvents
        }

        /// Creates the default configuration and lets `configure` adjust it.
        public init(_ configure: (inout Configuration) -> Void) {
            self.init()
            configure(&self)
        }

        /// The fixed-plus-jitter delay model these settings describe.
        var latencySchedule: LatencySchedule {
            LatencySchedule(latency: latency, jitter: jitter, seed: seed)
        }
    }
}
