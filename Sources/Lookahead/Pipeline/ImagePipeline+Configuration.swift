// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

extension ImagePipeline {
    /// The parts and limits of a pipeline. Every setting has a default suited to image lists.
    ///
    /// ```swift
    /// let pipeline = ImagePipeline {
    ///     $0.memoryCache = MemoryCache(costLimit: 128 << 20)
    ///     $0.dataLoadingConcurrency = 4
    /// }
    /// ```
    public struct Configuration: Sendable {
        /// Loads image data. Defaults to ``DefaultDataLoader``: libcurl on Linux, `URLSession` on Apple platforms,
        /// `http` and `https` only (and `data:` URLs).
        public var dataLoader: any DataLoading
        /// Keeps decoded images; `nil` disables memory caching.
        public var memoryCache: MemoryCache?
        /// Keeps original image data on disk; `nil` disables disk caching. Defaults to ``DiskCache/shared``
        /// (500 MB under the user's cache folder), opened only when read: a configuration that sets another cache
        /// never creates the shared folder or takes its lock.
        public var diskCache: (any DataCaching)? {
            get {
                switch diskCacheChoice {
                case .shared: DiskCache.shared
                case .given(let cache): cache
                }
            }
            set { diskCacheChoice = .given(newValue) }
        }
        private var diskCacheChoice: DiskCacheChoice
        /// Whether disk cache entries are kept forever (the default) or follow the server's HTTP caching headers.
        public var diskCachePolicy: DiskCachePolicy = .cacheForever
        /// What the disk cache keeps: the downloaded bytes (the default), or, for requests with a thumbnail or
        /// processors, their final images encoded (``DiskCacheContent/automatic``), or both (``DiskCacheContent/all``).
        /// Final images are stored only with ``DiskCachePolicy/cacheForever``.
        public var diskCacheContent: DiskCacheContent = .originalData
        /// When set, a download cancelled or cut short half-way keeps up to this many bytes in the disk cache, and
        /// the next load of the URL asks for the rest (`Range` + `If-Range`) if the server allowed it
        /// (`Accept-Ranges: bytes` and a strong validator). `nil` (the default) keeps nothing. Needs a loader that
        /// hands over partial bodies: ``CurlDataLoader`` and ``URLSessionDataLoader`` both do.
        public var partialDownloadLimit: Int?
        /// Decoders tried in order; the first whose sniffing recognises the data decodes it.
        public var decoders: [any ImageDecoding]
        /// Whether each download asks for the formats the ``decoders`` read, modern ones first
        /// (``ImageDecoders/acceptHeader(for:)``: `Accept: image/avif,image/webp,image/jpeg,…`), so an image CDN
        /// that negotiates the format sends the smallest one the pipeline can show. On by default. A request whose
        /// ``ImageRequest/headers`` carry an `Accept` sends its own, and keeps its own disk-cache entry. Off: the
        /// loader's own header is sent (``DataLoaderOptions/headers``, else the transport's `*/*`).
        public var advertisesDecodableFormats: Bool
        /// The most downloads that run at once; the rest wait in priority order. Default 6.
        public var dataLoadingConcurrency: Int
        /// How many of the download slots requests at `.low` priority or below (prefetches) may take at once;
        /// the rest stay free for images on screen. `nil` (the default) leaves two slots for them.
        public var maximumBackgroundDataLoads: Int?
        /// The most decode and processing stages that run at once, each on its own thread. Default: one per
        /// core, at least two.
        public var decodingConcurrency: Int
        /// The largest response body accepted, in bytes; `nil` for no limit. Default 64 MiB.
        public var maximumResponseSize: Int?
        /// The most time one download may take, redirects included; `nil` for no limit. Default 30 seconds.
        public var dataLoadTimeout: Duration?
        /// The most time a download may go without receiving a byte; `nil` for no limit. Default 15 seconds.
        public var dataLoadIdleTimeout: Duration?
        /// A download that reports no progress for this long gives its slot to the next queued one and goes on
        /// outside the limit (at most ``dataLoadingConcurrency`` such downloads at once), so a few trickling
        /// servers cannot hold up every other image. `nil` keeps every download in its slot. Default 2 seconds.
        public var stalledDownloadInterval: Duration?
        /// The most pixels an image may declare in its header. Default 64 megapixels (256 MiB decoded). A thumbnail
        /// of a sequential JPEG, which is decoded at a reduced size in one pass, counts the pixels it decodes: a
        /// 108-megapixel camera photo still gives a thumbnail.
        public var maximumPixelCount: Int
        /// The most frames an animation may have when a request decodes every frame (``ImageRequest/isAnimated``);
        /// more fail with ``ImagePipelineError/animationTooLarge(frameCount:width:height:)`` before any frame is
        /// decoded. Default 1,000.
        public var maximumAnimationFrameCount = 1_000
        /// The most pixels the frames of an animation may have in all (canvas pixels times frames), checked before
        /// any frame is decoded: it bounds both the decoding time and the memory of the frames. Default 64
        /// megapixels — as many as one still image may have (256 MiB of frames at most; at a thumbnail size far
        /// less is kept).
        public var maximumAnimationPixelCount = 64 << 20
        /// How long a URL that failed waits before it is loaded again; `nil` loads it again on every request.
        /// Default: 1 s doubling up to 60 s, with jitter; see ``ImagePipeline/FailureBackoff``.
        public var failureBackoff: ImagePipeline.FailureBackoff?
        /// Share identical work between requests. On by default; off only to measure what it saves.
        public var isCoalescingEnabled: Bool
        /// Whether a progressive JPEG shows previews while it downloads (``ImageTask/Event/preview(_:)``): the
        /// last complete scan of the bytes so far. Off by default. Needs a loader that reports its body as it
        /// grows (``DataLoadRequest/onData``): the libcurl and URLSession loaders do.
        public var isProgressiveDecodingEnabled = false
        /// The least time between two preview decodes of one download.
        public var progressiveDecodingInterval: Duration = .milliseconds(250)
        /// The most previews of one image.
        public var maximumPreviewsPerImage = 4
        /// Derives the ``ImageRequest/imageID`` of a request that has none from its URL: for images behind signed
        /// URLs, drop the signature, so every signing of a URL hits the same cache entries and shares one download.
        ///
        /// ```swift
        /// $0.imageIDFilter = { url in
        ///     guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        ///     components.queryItems = components.queryItems?.filter { $0.name != "token" }
        ///     return components.string ?? url.absoluteString
        /// }
        /// ```
        public var imageIDFilter: (@Sendable (URL) -> String)?
        /// Changes each download just before it is sent: add or refresh a bearer token, sign a URL. A download
        /// answered `401 Unauthorized` is sent once more with what the modifier then answers
        /// (``DownloadRequest/isRetryAfterUnauthorized``). See ``DownloadRequest``.
        public var requestModifier: DownloadRequest.Modifier?
        /// Receives diagnostic events (downloads started and finished, cache hits). Called on arbitrary threads;
        /// must return quickly.
        public var eventHandler: (@Sendable (ImagePipeline.Event) -> Void)?
        /// Receives each image task's ``ImageTaskMetrics`` as it ends — succeeded, failed or cancelled — after its
        /// completion handlers ran: the time each stage took and the bytes downloaded, for analytics. Called on
        /// arbitrary threads; must return quickly. `nil` (the default) costs nothing. `image(for:)` answered from
        /// the memory cache makes no task and reports nothing.
        public var taskMetricsHandler: (@Sendable (ImageTaskMetrics) -> Void)?
        /// Runs the stages' work; `nil` for the default (Swift tasks for downloads, dedicated threads for decoding).
        @_spi(Simulation) public var executor: (any ImagePipelineExecutor)?

        private enum DiskCacheChoice: Sendable {
            case shared
            case given((any DataCaching)?)
        }

        /// Creates the default configuration.
        public init() {
            self.init(dataLoader: DefaultDataLoader(), memoryCache: MemoryCache(), diskCache: nil)
            diskCacheChoice = .shared
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
            self.diskCacheChoice = .given(diskCache)
            self.decoders = decoders
            self.advertisesDecodableFormats = true
            self.dataLoadingConcurrency = 6
            self.maximumBackgroundDataLoads = nil
            self.decodingConcurrency = max(2, ProcessInfo.processInfo.activeProcessorCount)
            self.maximumResponseSize = 64 << 20
            self.dataLoadTimeout = .seconds(30)
            self.dataLoadIdleTimeout = .seconds(15)
            self.stalledDownloadInterval = .seconds(2)
            self.maximumPixelCount = 64 << 20
            self.failureBackoff = ImagePipeline.FailureBackoff()
            self.isCoalescingEnabled = true
            self.eventHandler = nil
            self.taskMetricsHandler = nil
            self.executor = nil
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
        /// Data was loaded but did not decode: not an image, or a broken one. Network data that fails is never
        /// stored in the disk cache.
        case decodingFailed(URL, ImagePipeline.Error)
        /// Data read from the disk cache failed to decode and was removed from it; the next load asks the network.
        case diskCacheEntryRemoved(URL, reason: ImagePipeline.Error)
    }
}

// MARK: - What each stage gets of it

extension DataLoadWorker.Settings {
    init(_ configuration: ImagePipeline.Configuration) {
        self.init(
            dataLoader: configuration.dataLoader,
            diskCache: configuration.diskCache,
            diskCachePolicy: configuration.diskCachePolicy,
            partialDownloadLimit: configuration.partialDownloadLimit,
            maximumResponseSize: configuration.maximumResponseSize,
            timeout: configuration.dataLoadTimeout,
            idleTimeout: configuration.dataLoadIdleTimeout,
            stalledDownloadInterval: configuration.stalledDownloadInterval,
            requestModifier: configuration.requestModifier,
            accept: configuration.advertisesDecodableFormats
                ? ImageDecoders.acceptHeader(for: configuration.decoders) : nil,
            previewGate: configuration.isProgressiveDecodingEnabled
                ? ProgressivePreviewGate(
                    interval: configuration.progressiveDecodingInterval,
                    maximumPreviews: configuration.maximumPreviewsPerImage
                ) : nil,
            maximumPixelCount: configuration.maximumPixelCount
        )
    }
}

extension ImagePipeline.Configuration {
    /// Whether requests with a thumbnail or processors keep their final images in the disk cache: only with
    /// ``DiskCachePolicy/cacheForever`` (under HTTP semantics the server decides freshness, and only the original
    /// data carries its headers).
    var storesFinalImages: Bool {
        diskCacheContent != .originalData && diskCachePolicy.kind == .cacheForever
    }
}
