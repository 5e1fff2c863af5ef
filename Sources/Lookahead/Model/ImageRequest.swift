// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// A request for an image: where it comes from, how it is prepared and how urgently it is needed.
///
/// Requests are values. Two requests for the same image (the same URL, or the same ``imageID``) share one
/// download, and two that also agree on ``thumbnail`` and ``processors`` share one decode and one memory-cache
/// entry.
///
/// ```swift
/// let request = ImageRequest(url: URL(string: "https://example.com/a.jpg"), priority: .high)
/// let response = try await ImagePipeline.shared.image(for: request)
/// ```
public struct ImageRequest: Sendable {
    /// The URL of the image data. `nil` fails with ``ImagePipelineError/invalidURL(_:)``.
    public var url: URL? {
        get { packed & Self.hasURL != 0 ? storedURL : nil }
        set {
            storedURL = newValue ?? Self.noURL
            packed = newValue != nil ? packed | Self.hasURL : packed & ~Self.hasURL
            updateKey()
        }
    }

    /// What identifies the image in the memory cache, the disk cache and coalescing, when the URL does not: an
    /// image behind a presigned or token-carrying URL (`?token=…`, an S3 or CloudFront signature) keeps one
    /// identity however often its URL is signed again. `nil` (the default): the URL's absolute string, or what
    /// ``ImagePipeline/Configuration/imageIDFilter`` derives from it.
    public var imageID: String? {
        get { extras?.fields.imageID }
        set { change { $0.imageID = newValue } }
    }

    /// Header fields sent with this request's download (an `Authorization` token, a `Cookie`), on top of the
    /// loader's. Requests whose headers differ never share a download; the images they load share the caches.
    public var headers: [String: String] {
        get { extras?.fields.headers ?? [:] }
        set { change { $0.headers = newValue } }
    }

    /// Whatever the app carries with the request (for its ``ImagePipeline/Configuration/requestModifier``, or its
    /// logs). Not part of any key.
    public var userInfo: [String: any Sendable] {
        get { extras?.fields.userInfo ?? [:] }
        set { change { $0.userInfo = newValue } }
    }

    /// How urgently the image is needed. Shared work runs at the highest priority of its subscribers.
    public var priority: Priority {
        get { Priority(rawValue: Int(truncatingIfNeeded: (packed >> 32) & 0xFF)) ?? .normal }
        set { packed = packed & ~(0xFF << 32) | UInt64(UInt8(truncatingIfNeeded: newValue.rawValue)) << 32 }
    }

    /// Decode at a reduced size, the way `prepareThumbnail(of:)` does. Part of the cache and coalescing keys.
    public var thumbnail: ThumbnailOptions? {
        get { extras?.fields.thumbnail }
        set { change { $0.thumbnail = newValue } }
    }

    /// Processing applied to the decoded image, in order. Part of the cache and coalescing keys.
    public var processors: [any ImageProcessing] {
        get { extras?.fields.processors ?? [] }
        set { change { $0.processors = newValue } }
    }

    /// Whether an animated GIF or WebP decodes to every frame, in ``ImageResponse/animation``; otherwise (the
    /// default) only its first frame is decoded, which is what a still thumbnail in a list needs. Part of the cache
    /// and coalescing keys. Frames are bounded by ``ImagePipeline/Configuration/maximumAnimationFrameCount`` and
    /// ``ImagePipeline/Configuration/maximumAnimationPixelCount``.
    public var isAnimated: Bool {
        get { extras?.fields.isAnimated ?? false }
        set { change { $0.isAnimated = newValue } }
    }

    /// Cache policy and similar flags.
    public var options: Options {
        get { Options(rawValue: UInt16(truncatingIfNeeded: packed >> 40)) }
        set { packed = packed & ~(0xFFFF << 40) | UInt64(newValue.rawValue) << 40 }
    }

    /// The key of the final image in the memory cache (URL, thumbnail and processors), kept up to date as fields
    /// change. Two requests with the same key share one decode, one processing pass and one cache entry.
    public var imageKey: ImageCacheKey {
        ImageCacheKey(imageID: identity, variant: extras?.keyVariant, precomputedHash: keyHash)
    }

    /// The hash of ``imageKey``, computed once with ``identity``.
    private var keyHash: Int {
        get { Int(truncatingIfNeeded: packed & 0xFFFF_FFFF) }
        set { packed = packed & ~0xFFFF_FFFF | UInt64(UInt32(truncatingIfNeeded: newValue)) }
    }

    // The stored fields make six machine words (a URL is two). Swift builds a request of more aside and copies it
    // out of its initializer: three retains and three releases that every cell would pay on every frame. The image
    // key is therefore kept in parts, and its hash shares a word with the priority and the options.

    /// ``url``'s storage, ``noURL`` when there is none. Not optional: Swift copies an optional URL inside a request
    /// held in memory through the runtime's generic value witnesses, and a URL directly. A plain stored property,
    /// not one with an observer: the initializer then builds the request in place.
    private var storedURL: URL

    /// ``imageKey``'s hash in the low 32 bits, computed once with ``identity``; ``priority`` in the next 8,
    /// ``options`` in the 16 above; ``hasURL`` in the top bit.
    private var packed: UInt64

    /// The bit of ``packed`` that says whether ``storedURL`` is the request's URL.
    private static let hasURL: UInt64 = 1 << 63
    /// What ``storedURL`` holds for a request without a URL; never read as one.
    private static let noURL = URL(fileURLWithPath: "/", isDirectory: true)

    /// Every field but the URL, the priority and the options, behind one immutable reference that a plain request
    /// (a URL and nothing else, what a list builds for every cell on every frame) does without: building it costs
    /// no allocation and copying it a retain or two. A change makes a new one.
    private var extras: Extras?

    /// ``imageID``, else the URL's absolute string, computed once: the cache key is built on every frame for every
    /// cell.
    package private(set) var identity: String

    /// Creates a request for the image at a URL, every other field at its default: what a list builds for every
    /// cell on every frame, so it hashes the URL's string once and copies nothing else.
    public init(url: URL?) {
        let identity = Self.identity(of: url)
        packed = Self.pack(
            hash: ImageCacheKey.hash(imageID: identity, variant: nil),
            priority: .normal,
            options: [],
            hasURL: url != nil
        )
        self.identity = identity
        storedURL = url ?? Self.noURL
        extras = nil
    }

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - url: The location of the image data.
    ///   - priority: The initial priority; ``ImageTask/priority`` can change it later.
    ///   - thumbnail: Decode at reduced size.
    ///   - processors: Processing applied after decoding (to every frame of an animation).
    ///   - isAnimated: Decode every frame of an animated image, not only the first.
    ///   - options: Cache policy flags.
    public init(
        url: URL?,
        priority: Priority = .normal,
        thumbnail: ThumbnailOptions? = nil,
        processors: [any ImageProcessing] = [],
        isAnimated: Bool = false,
        options: Options = []
    ) {
        let identity = Self.identity(of: url)
        let extras =
            thumbnail == nil && processors.isEmpty && !isAnimated
            ? nil : Extras.make(thumbnail: thumbnail, processors: processors, isAnimated: isAnimated)
        storedURL = url ?? Self.noURL
        packed = Self.pack(
            hash: ImageCacheKey.hash(imageID: identity, variant: extras?.keyVariant),
            priority: priority,
            options: options,
            hasURL: url != nil
        )
        self.extras = extras
        self.identity = identity
    }

    /// A URL's absolute string, or the empty string. Without a base URL it is the string the URL was made from,
    /// which Foundation returns without assembling it again. Borrowing the optional (rather than `url.map`) spares
    /// the URL a copy.
    private static func identity(of url: borrowing URL?) -> String {
        switch url {
        case .some(let url): url.baseURL == nil ? url.relativeString : url.absoluteString
        case .none: ""
        }
    }

    /// Whether two requests share the storage of their fields beyond the URL, the priority and the options (for
    /// tests: requests for one thumbnail size do).
    package func sharesExtras(with other: ImageRequest) -> Bool {
        extras != nil && extras === other.extras
    }

    /// The word ``packed`` stores.
    private static func pack(hash: Int, priority: Priority, options: Options, hasURL: Bool) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: hash)) | UInt64(UInt8(truncatingIfNeeded: priority.rawValue)) << 32
            | UInt64(options.rawValue) << 40 | (hasURL ? Self.hasURL : 0)
    }

    private mutating func change(_ body: (inout Extras.Fields) -> Void) {
        var fields = extras?.fields ?? Extras.Fields()
        body(&fields)
        extras = fields.isEmpty ? nil : Extras.make(fields)
        updateKey()
    }

    private mutating func updateKey() {
        identity = imageID ?? Self.identity(of: url)
        keyHash = ImageCacheKey.hash(imageID: identity, variant: extras?.keyVariant)
    }
}

extension ImageRequest {
    private final class Extras: Sendable {
        struct Fields: Sendable {
            var imageID: String?
            var headers: [String: String] = [:]
            var userInfo: [String: any Sendable] = [:]
            var thumbnail: ThumbnailOptions?
            var processors: [any ImageProcessing] = []
            var isAnimated = false

            var isEmpty: Bool {
                imageID == nil && headers.isEmpty && userInfo.isEmpty && thumbnail == nil && processors.isEmpty
                    && !isAnimated
            }
        }

        let fields: Fields
        /// The part of the image key the fields give (thumbnail, processors, animation), made once.
        let keyVariant: ImageCacheKey.Variant?

        init(_ fields: Fields) {
            self.fields = fields
            keyVariant = ImageCacheKey.Variant(
                thumbnail: fields.thumbnail,
                processors: fields.processors.map(\.identifier),
                isAnimated: fields.isAnimated
            )
        }

        /// The extras of these fields: shared ones when a thumbnail is all they hold.
        static func make(_ fields: Fields) -> Extras {
            guard let thumbnail = fields.thumbnail, fields.processors.isEmpty, !fields.isAnimated,
                fields.imageID == nil, fields.headers.isEmpty, fields.userInfo.isEmpty
            else { return Extras(fields) }
            return thumbnailOnly(thumbnail)
        }

        /// The extras of a thumbnail, processors and animation, and no other field.
        static func make(thumbnail: ThumbnailOptions?, processors: [any ImageProcessing], isAnimated: Bool) -> Extras {
            if let thumbnail, processors.isEmpty, !isAnimated { return thumbnailOnly(thumbnail) }
            var fields = Fields()
            fields.thumbnail = thumbnail
            fields.processors = processors
            fields.isAnimated = isAnimated
            return Extras(fields)
        }

        /// The extras of requests whose only extra is a thumbnail, one per thumbnail size, shared: a list that asks
        /// for thumbnails builds a request for every cell on every frame, and sharing spares each two allocations
        /// and the hash of the options (see ``ImageCacheKey/Variant``). An app uses a few sizes at a time; the
        /// last ``SharedThumbnails/limit`` sizes asked for are kept, a new one taking the place of the oldest.
        private static func thumbnailOnly(_ thumbnail: ThumbnailOptions) -> Extras {
            if let shared = sharedThumbnails.withLock({ $0.extras.first { $0.fields.thumbnail == thumbnail } }) {
                return shared
            }
            var fields = Fields()
            fields.thumbnail = thumbnail
            let extras = Extras(fields)
            sharedThumbnails.withLock { $0.keep(extras) }
            return extras
        }

        private struct SharedThumbnails {
            static let limit = 8
            var extras: [Extras] = []
            /// Where the next size goes once ``limit`` are kept: the oldest.
            var next = 0

            mutating func keep(_ new: Extras) {
                guard !extras.contains(where: { $0.fields.thumbnail == new.fields.thumbnail }) else { return }
                if extras.count < Self.limit {
                    extras.append(new)
                } else {
                    extras[next] = new
                    next = (next + 1) % Self.limit
                }
            }
        }

        private static let sharedThumbnails = Locked(SharedThumbnails())
    }
}

// MARK: - Priority

extension ImageRequest {
    /// The priority of a request. Queued work is started highest first, first come first served within a level.
    public enum Priority: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        case veryLow = 0
        case low
        case normal
        case high
        case veryHigh

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String {
            switch self {
            case .veryLow: "veryLow"
            case .low: "low"
            case .normal: "normal"
            case .high: "high"
            case .veryHigh: "veryHigh"
            }
        }
    }
}

// MARK: - Options

extension ImageRequest {
    /// Flags that change how the pipeline uses its caches.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: UInt16

        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Ignore cached images and data: always load from the original source. Results are still stored.
        public static let reloadIgnoringCachedData = Options(rawValue: 1 << 0)
        /// Answer from the caches only; fail with ``ImagePipelineError/dataMissingInCache`` rather than load.
        public static let returnCacheDataDontLoad = Options(rawValue: 1 << 1)
        /// Do not read from the memory cache.
        public static let disableMemoryCacheReads = Options(rawValue: 1 << 2)
        /// Do not store the result in the memory cache.
        public static let disableMemoryCacheWrites = Options(rawValue: 1 << 3)
        /// Do not read from the disk cache.
        public static let disableDiskCacheReads = Options(rawValue: 1 << 4)
        /// Do not store downloaded data in the disk cache.
        public static let disableDiskCacheWrites = Options(rawValue: 1 << 5)
        /// Load even if the URL failed recently and waits before automatic attempts
        /// (``ImagePipeline/Configuration/failureBackoff``): for a user's explicit retry.
        public static let skipFailureBackoff = Options(rawValue: 1 << 6)
    }
}

// MARK: - Keys

extension ImageRequest {
    /// How the data stage may use the disk cache and the network; part of every stage's coalescing key, so a
    /// cache-only request never joins work that loads from the network.
    package var dataPolicy: DataPolicy {
        DataPolicy(
            readsDiskCache: !options.contains(.disableDiskCacheReads) && !options.contains(.reloadIgnoringCachedData),
            writesDiskCache: !options.contains(.disableDiskCacheWrites),
            loadsFromNetwork: !options.contains(.returnCacheDataDontLoad),
            skipsFailureBackoff: options.contains(.skipFailureBackoff)
        )
    }

    /// The key of the decoded image before processing: the decoding stage. The image key itself (hashed once,
    /// at init) when there are no processors.
    package var decodeKey: ImageCacheKey {
        processors.isEmpty
            ? imageKey : ImageCacheKey(imageID: identity, thumbnail: thumbnail, processors: [], isAnimated: isAnimated)
    }

    /// The `Accept` header the request carries itself, if any (header names are case-insensitive).
    package var acceptHeader: String? {
        guard let headers = extras?.fields.headers, !headers.isEmpty else { return nil }
        return headers.first { $0.key.caseInsensitiveCompare("Accept") == .orderedSame }?.value
    }

    /// The disk-cache key of the request's data: ``identity``, apart for a request that asks for formats of its
    /// own (an `Accept` header), since a server that negotiates may answer it with other bytes.
    package var dataIdentity: String {
        guard let accept = acceptHeader else { return identity }
        return identity + "\u{1F}Accept: " + accept
    }

    /// The key of the data stage: the URL alone. The image key itself when there is nothing else in it.
    package var dataKey: ImageCacheKey {
        thumbnail == nil && processors.isEmpty && !isAnimated ? imageKey : ImageCacheKey(imageID: identity)
    }
}

// MARK: - Hashable

extension ImageRequest: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.imageKey == rhs.imageKey && lhs.priority == rhs.priority && lhs.options == rhs.options
            && lhs.headers == rhs.headers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(imageKey)
        hasher.combine(priority)
        hasher.combine(options)
        if !headers.isEmpty { hasher.combine(headers) }
    }
}

// MARK: - Convenience

extension ImageRequest: ExpressibleByStringLiteral {
    /// Creates a request from a URL string literal.
    public init(stringLiteral value: String) {
        self.init(url: URL(string: value))
    }
}

/// How a request's data may be obtained.
package struct DataPolicy: Hashable, Sendable {
    package var readsDiskCache: Bool
    package var writesDiskCache: Bool
    package var loadsFromNetwork: Bool
    /// An explicit retry: the download does not wait for the URL's failure backoff (and is not shared with one
    /// that does).
    package var skipsFailureBackoff = false
}
