// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

extension ImagePipeline {
    /// The parts and limits of a pipeline. Every setting has a default suited to image lists.
    public struct Configuration: Sendable {
        /// Loads image data. Defaults to ``DefaultDataLoader``: libcurl on Linux, `URLSession` on Apple platforms.
        public var dataLoader: any DataLoading
        /// Keeps decoded images; `nil` disables memory caching.
        public var memoryCache: MemoryCache?
        /// Keeps original image data on disk (default ``DiskCache/shared``, created only if read); `nil` disables it.
        public var diskCache: (any DataCaching)? {
            get { givenDiskCache ?? DiskCache.shared }
            set { givenDiskCache = .some(newValue) }
        }
        /// The disk cache set, `nil` if none was (`.some(nil)`: none): the shared one is then created when read.
        private var givenDiskCache: (any DataCaching)??
        /// Whether disk cache entries are kept forever (the default) or follow the server's HTTP caching headers.
        public var diskCachePolicy: DiskCachePolicy = .cacheForever
        /// Under ``DiskCachePolicy/httpSemantics``, whether the memory cache keeps an image only while its response
        /// is fresh (on by default), so a stale one is revalidated through the disk cache.
        public var memoryCacheFollowsHTTPFreshness = true
        /// What the disk cache keeps: the downloaded bytes (the default), or also the final images of requests with
        /// a thumbnail or processors (``DiskCacheContent``); final images only with ``DiskCachePolicy/cacheForever``.
        public var diskCacheContent: DiskCacheContent = .originalData
        /// Whether final images are kept: only with ``DiskCachePolicy/cacheForever`` (only data carries freshness).
        var storesFinalImages: Bool { diskCacheContent != .originalData && diskCachePolicy.kind == .cacheForever }
        /// When set, a download cancelled or cut short keeps up to this many bytes in the disk cache, and the next
        /// load asks for the rest (`Range` + `If-Range`) if the server allows it. `nil` (the default) keeps nothing.
        public var partialDownloadLimit: Int?
        /// Decoders tried in order; the first whose sniffing recognises the data decodes it.
        public var decoders: [any ImageDecoding]
        /// Whether downloads send an `Accept` header naming the formats the ``decoders`` read (on by default), so an
        /// image CDN sends the smallest one; a request's own `Accept` header wins.
        public var advertisesDecodableFormats = true
        /// The most downloads that run at once (default 12); the rest wait in priority order. Over HTTP/2 they share
        /// one connection; a phone's link needs about this many small images in flight to stay busy over its round
        /// trip. Over HTTP/1.1 the loader's ``DataLoaderOptions/maximumConnectionsPerHost`` bounds them too.
        public var dataLoadingConcurrency = 12
        /// The most downloads at `.low` priority or below (prefetches) at once; `nil` (the default) allows 4, and
        /// always leaves two slots free. Few, so an image that becomes visible waits behind little on the link.
        public var maximumBackgroundDataLoads: Int?
        /// The limit ``maximumBackgroundDataLoads`` sets, or its default.
        var backgroundDataLoadLimit: Int {
            maximumBackgroundDataLoads ?? max(1, min(4, dataLoadingConcurrency - 2))
        }
        /// The most decodes and processing passes that run at once (default: one per core, at least two).
        public var decodingConcurrency = max(2, ProcessInfo.processInfo.activeProcessorCount)
        /// The largest response body accepted, in bytes (default 64 MiB); `nil` for no limit.
        public var maximumResponseSize: Int? = 64 << 20
        /// The most time one download may take, redirects included (default 30 s); `nil` for no limit.
        public var dataLoadTimeout: Duration? = .seconds(30)
        /// The most time a download may go without receiving a byte (default 15 s); `nil` for no limit.
        public var dataLoadIdleTimeout: Duration? = .seconds(15)
        /// A download that reports no progress for this long (default 2 s) gives its slot to the next queued one and
        /// goes on outside the limit, so a few trickling servers cannot hold up every other image; `nil` never.
        public var stalledDownloadInterval: Duration? = .seconds(2)
        /// The most pixels an image may have (default 64 megapixels); a thumbnail counts the pixels it decodes.
        public var maximumPixelCount = 64 << 20
        /// The most frames (default 1,000) of an animation decoded whole (``ImageRequest/isAnimated``), checked first.
        public var maximumAnimationFrameCount = 1_000
        /// The most pixels of all the frames of an animation together (default 64 megapixels), checked first.
        public var maximumAnimationPixelCount = 64 << 20
        /// How long a URL that failed waits before it is loaded again; `nil` loads it again on every request.
        public var failureBackoff: ImagePipeline.FailureBackoff? = ImagePipeline.FailureBackoff()
        /// Share identical work between requests. On by default; off only to measure what it saves.
        public var isCoalescingEnabled = true
        /// Whether a progressive JPEG shows previews while it downloads (``ImageTask/Event/preview(_:)``). Off by
        /// default; needs a loader that reports its body as it grows (the libcurl and URLSession loaders do).
        public var isProgressiveDecodingEnabled = false
        /// The least time between two preview decodes of one download.
        public var progressiveDecodingInterval: Duration = .milliseconds(250)
        /// The most previews of one image.
        public var maximumPreviewsPerImage = 4
        /// Derives the ``ImageRequest/imageID`` of a request without one from its URL, e.g. by dropping a signature.
        public var imageIDFilter: (@Sendable (URL) -> String)?
        /// Changes each download just before it is sent: add a bearer token, sign a URL. A download answered `401`
        /// is sent once more with what the modifier then answers (``DownloadRequest/isRetryAfterUnauthorized``).
        public var requestModifier: DownloadRequest.Modifier?
        /// Refreshes the app's credentials when a download the ``requestModifier`` changed is answered `401`, before
        /// the one retry; concurrent `401`s share one call, and throwing fails the downloads that waited for it.
        /// A download sent before the last refresh, or before ``ImagePipeline/credentialsChanged()``, retries
        /// without another. `nil`: the modifier alone decides.
        public var refreshCredentials: (@Sendable () async throws -> Void)?
        /// Receives diagnostic events (downloads, cache hits), on arbitrary threads; must return quickly.
        public var eventHandler: (@Sendable (ImagePipeline.Event) -> Void)?
        /// Receives each image task's ``ImageTaskMetrics`` as it ends, after its completion handlers, on arbitrary
        /// threads; must return quickly. A memory-cache hit of `image(for:)` makes no task and reports nothing.
        public var taskMetricsHandler: (@Sendable (ImageTaskMetrics) -> Void)?
        /// Runs the stages' work; `nil` for the default (Swift tasks for downloads, dedicated threads for decoding).
        @_spi(Simulation) public var executor: (any ImagePipelineExecutor)?

        /// Creates the default configuration.
        public init() {
            self.init(dataLoader: DefaultDataLoader(), memoryCache: MemoryCache(), diskCache: nil)
            givenDiskCache = nil
        }

        /// Creates a configuration.
        public init(
            dataLoader: any DataLoading = DefaultDataLoader(),
            memoryCache: MemoryCache? = MemoryCache(),
            diskCache: (any DataCaching)? = DiskCache.shared,
            decoders: [any ImageDecoding] = ImageDecoders.default
        ) {
            self.dataLoader = dataLoader
            self.memoryCache = memoryCache
            self.givenDiskCache = .some(diskCache)
            self.decoders = decoders
        }
    }

    /// Diagnostic events, for logs and counters. Observe them with ``Configuration/eventHandler``.
    public enum Event: Sendable {
        /// A request was answered from the memory cache.
        case memoryCacheHit(ImageRequest)
        /// A request joined work already in flight for the same image or data.
        case coalesced(ImageRequest)
        /// Data was read from the disk cache.
        case diskCacheHit(URL, byteCount: Int)
        /// A download started.
        case dataLoadStarted(URL)
        /// A download finished with this many bytes.
        case dataLoadFinished(URL, byteCount: Int)
        /// A download failed.
        case dataLoadFailed(URL, ImagePipeline.Error)
        /// A download was cancelled because no request wanted it any more.
        case dataLoadCancelled(URL)
        /// An image was decoded (or processed) in the given time.
        case imageDecoded(ImageCacheKey, width: Int, height: Int, duration: Duration)
        /// Data was loaded but did not decode; network data that fails is never stored in the disk cache.
        case decodingFailed(URL, ImagePipeline.Error)
        /// Data read from the disk cache failed to decode and was removed from it; the next load asks the network.
        case diskCacheEntryRemoved(URL, reason: ImagePipeline.Error)
    }
}
