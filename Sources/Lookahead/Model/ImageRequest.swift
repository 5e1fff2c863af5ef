// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// A request for an image: where it comes from, how it is prepared and how urgently it is needed. Requests for the
/// same image (URL or ``imageID``) share one download; those that also agree on ``thumbnail``, ``processors`` and
/// ``isAnimated`` share one decode and one memory-cache entry.
public struct ImageRequest: Sendable {
    /// The URL of the image data. `nil` fails with ``ImagePipeline/Error/invalidURL(_:)``.
    public var url: URL? {
        get { storage.fields.url }
        set { change { $0.url = newValue } }
    }

    /// What identifies the image in the caches and coalescing instead of its URL (one identity for every signing of
    /// a signed URL). `nil`: the URL, or what ``ImagePipeline/Configuration/imageIDFilter`` derives from it.
    public var imageID: String? {
        get { storage.fields.imageID }
        set { change { $0.imageID = newValue } }
    }

    /// Header fields sent with this request's download, on top of the loader's. Requests whose headers differ never
    /// share a download; their images share the caches.
    public var headers: [String: String] {
        get { storage.fields.headers }
        set { change { $0.headers = newValue } }
    }

    /// Whatever the app carries with the request, for its ``ImagePipeline/Configuration/requestModifier``; in no key.
    public var userInfo: [String: any Sendable] {
        get { storage.fields.userInfo }
        set { change { $0.userInfo = newValue } }
    }

    /// How urgently the image is needed. Shared work runs at the highest priority of its subscribers.
    public var priority: Priority

    /// Decode at a reduced size, the way `prepareThumbnail(of:)` does. Part of the cache and coalescing keys.
    public var thumbnail: ThumbnailOptions? {
        get { storage.fields.thumbnail }
        set { change { $0.thumbnail = newValue } }
    }

    /// Processing applied to the decoded image, in order. Part of the cache and coalescing keys.
    public var processors: [any ImageProcessing] {
        get { storage.fields.processors }
        set { change { $0.processors = newValue } }
    }

    /// Whether an animated GIF or WebP decodes to every frame, in ``ImageResponse/animation``; otherwise (the
    /// default) only its first frame. Part of the cache and coalescing keys.
    public var isAnimated: Bool {
        get { storage.fields.isAnimated }
        set { change { $0.isAnimated = newValue } }
    }

    /// Cache policy and similar flags.
    public var options: Options

    /// The key of the final image in the memory cache (identity, thumbnail, processors, animation).
    public var imageKey: ImageCacheKey { storage.imageKey }

    /// ``imageID``, else the URL's absolute string: what identifies the image in every cache and in coalescing.
    package var identity: String { storage.imageKey.imageID }

    /// Every field but the priority and the options, shared between copies; a change makes a new one.
    private var storage: Storage

    /// Creates a request.
    public init(
        url: URL?,
        priority: Priority = .normal,
        thumbnail: ThumbnailOptions? = nil,
        processors: [any ImageProcessing] = [],
        isAnimated: Bool = false,
        options: Options = []
    ) {
        storage = Storage(Fields(url: url, thumbnail: thumbnail, processors: processors, isAnimated: isAnimated))
        self.priority = priority
        self.options = options
    }

    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = Storage(fields)
    }

    private struct Fields: Sendable {
        var url: URL?
        var imageID: String?
        var headers: [String: String] = [:]
        var userInfo: [String: any Sendable] = [:]
        var thumbnail: ThumbnailOptions?
        var processors: [any ImageProcessing] = []
        var isAnimated = false
    }

    /// Immutable, so copies of a request share it safely; the image key is made once, when the fields are set.
    private final class Storage: Sendable {
        let fields: Fields
        let imageKey: ImageCacheKey

        init(_ fields: consuming Fields) {
            imageKey = ImageCacheKey(
                imageID: fields.imageID ?? fields.url?.absoluteString ?? "",
                thumbnail: fields.thumbnail,
                processors: fields.processors.map(\.identifier),
                isAnimated: fields.isAnimated
            )
            self.fields = fields
        }
    }
}

// MARK: - Priority and options

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

    /// Flags that change how the pipeline uses its caches.
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: UInt16

        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Ignore cached images and data: always load from the original source. Results are still stored.
        public static let reloadIgnoringCachedData = Options(rawValue: 1 << 0)
        /// Answer from the caches only; fail with ``ImagePipeline/Error/dataMissingInCache`` rather than load.
        public static let returnCacheDataDontLoad = Options(rawValue: 1 << 1)
        /// Do not read from the memory cache.
        public static let disableMemoryCacheReads = Options(rawValue: 1 << 2)
        /// Do not store the result in the memory cache.
        public static let disableMemoryCacheWrites = Options(rawValue: 1 << 3)
        /// Do not read from the disk cache.
        public static let disableDiskCacheReads = Options(rawValue: 1 << 4)
        /// Do not store downloaded data in the disk cache.
        public static let disableDiskCacheWrites = Options(rawValue: 1 << 5)
        /// Load even if the URL failed recently and waits (``ImagePipeline/Configuration/failureBackoff``): a retry.
        public static let skipFailureBackoff = Options(rawValue: 1 << 6)
        /// Under ``DiskCachePolicy/httpSemantics``, use data from the disk cache whatever its age or caching headers,
        /// loading from the original source only when there is none.
        public static let returnCacheDataElseLoad = Options(rawValue: 1 << 7)
    }
}

// MARK: - Keys

extension ImageRequest {
    /// How the data stage may use the disk cache and the network; part of every stage's coalescing key.
    package var dataPolicy: DataPolicy {
        DataPolicy(
            readsDiskCache: !options.contains(.disableDiskCacheReads) && !options.contains(.reloadIgnoringCachedData),
            writesDiskCache: !options.contains(.disableDiskCacheWrites),
            loadsFromNetwork: !options.contains(.returnCacheDataDontLoad),
            skipsFailureBackoff: options.contains(.skipFailureBackoff),
            usesDataOfAnyAge: options.contains(.returnCacheDataElseLoad)
        )
    }

    /// The key of the decoded image before processing: the decoding stage's.
    package var decodeKey: ImageCacheKey {
        ImageCacheKey(imageID: identity, thumbnail: thumbnail, isAnimated: isAnimated)
    }

    /// The `Accept` header the request carries itself, if any (header names are case-insensitive).
    package var acceptHeader: String? {
        headers.first { $0.key.caseInsensitiveCompare("Accept") == .orderedSame }?.value
    }

    /// The disk-cache key of the request's data: ``identity``, apart for a request that asks for formats of its
    /// own (an `Accept` header), since a server that negotiates may answer it with other bytes.
    package var dataIdentity: String {
        guard let accept = acceptHeader else { return identity }
        return identity + "\u{1F}Accept: " + accept
    }

    /// The key of the data stage: the image's identity alone.
    package var dataKey: ImageCacheKey { ImageCacheKey(imageID: identity) }
}

extension ImageRequest: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.imageKey == rhs.imageKey && lhs.priority == rhs.priority && lhs.options == rhs.options
            && lhs.headers == rhs.headers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(imageKey)
        hasher.combine(priority)
        hasher.combine(options)
        hasher.combine(headers)
    }
}

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
    /// An explicit retry: the download does not wait for the URL's failure backoff.
    package var skipsFailureBackoff = false
    /// Stale data in the disk cache answers without asking the server.
    package var usesDataOfAnyAge = false
}

/// Identifies a prepared image: the image's identity (``ImageRequest/imageID``, else its URL), the thumbnail
/// options, the processors applied, and whether every frame of an animation was decoded; not how it is loaded.
public struct ImageCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The image's identity: ``ImageRequest/imageID``, else the absolute string of its URL.
    public let imageID: String
    /// The thumbnail options the image was decoded with.
    public let thumbnail: ThumbnailOptions?
    /// The identifiers of the processors applied, in order.
    public let processors: [String]
    /// Whether the entry holds every frame of an animation (``ImageRequest/isAnimated``), not just the first.
    public let isAnimated: Bool

    /// Creates a key.
    public init(
        imageID: String,
        thumbnail: ThumbnailOptions? = nil,
        processors: [String] = [],
        isAnimated: Bool = false
    ) {
        self.imageID = imageID
        self.thumbnail = thumbnail
        self.processors = processors
        self.isAnimated = isAnimated
    }

    /// Hashes the identity and only the parts a key has: most keys are an identity alone.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(imageID)
        if let thumbnail { hasher.combine(thumbnail) }
        if !processors.isEmpty { hasher.combine(processors) }
        if isAnimated { hasher.combine(isAnimated) }
    }

    public var description: String {
        var parts = [imageID]
        if let thumbnail { parts.append("thumbnail=\(thumbnail)") }
        if !processors.isEmpty { parts.append("processors=\(processors.joined(separator: ","))") }
        if isAnimated { parts.append("animated") }
        return parts.joined(separator: " ")
    }
}
