// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// Identifies a prepared image: the image's identity (``ImageRequest/imageID``, else its URL), the thumbnail
/// options, the processors applied, and whether every frame of an animation was decoded.
///
/// Priority and cache options are not part of the key: they change how an image is loaded, not which image.
public struct ImageCacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The image's identity: ``ImageRequest/imageID``, else the absolute string of its URL.
    public let imageID: String
    /// The thumbnail options the image was decoded with.
    public var thumbnail: ThumbnailOptions? { variant?.thumbnail }
    /// The identifiers of the processors applied, in order.
    public var processors: [String] { variant?.processors ?? [] }
    /// Whether the entry holds every frame of an animation (``ImageRequest/isAnimated``), not just the first.
    public var isAnimated: Bool { variant?.isAnimated ?? false }
    /// Everything but the ID, absent from a plain URL's key (most keys), which then copies with one retain.
    private let variant: Variant?
    /// Computed once: `cachedImage(for:)` hashes a key for every cell on every frame.
    private let precomputedHash: Int

    /// Creates a key.
    public init(
        imageID: String,
        thumbnail: ThumbnailOptions? = nil,
        processors: [String] = [],
        isAnimated: Bool = false
    ) {
        let variant = Variant(thumbnail: thumbnail, processors: processors, isAnimated: isAnimated)
        self.init(imageID: imageID, variant: variant, precomputedHash: Self.hash(imageID: imageID, variant: variant))
    }

    /// A key from its parts, the hash being ``hash(imageID:variant:)`` of them.
    init(imageID: String, variant: Variant?, precomputedHash: Int) {
        self.imageID = imageID
        self.variant = variant
        self.precomputedHash = precomputedHash
    }

    /// The seeded hash of a key's parts, 32 bits of it: enough to spread the entries of any cache, and what a
    /// request keeps in half a word.
    static func hash(imageID: String, variant: Variant?) -> Int {
        var hasher = variant?.hasher ?? Hasher()
        hasher.combine(imageID)
        return Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: hasher.finalize()))
    }

    /// Everything in a key but the ID; a key has none when all of it is at its default.
    final class Variant: Sendable {
        let thumbnail: ThumbnailOptions?
        let processors: [String]
        let isAnimated: Bool
        /// A hasher fed with the parts, the ID still to come: the keys that share a variant (the requests for one
        /// thumbnail size) hash only their ID.
        let hasher: Hasher

        /// `nil` when every part is at its default.
        init?(thumbnail: ThumbnailOptions?, processors: [String], isAnimated: Bool) {
            guard thumbnail != nil || !processors.isEmpty || isAnimated else { return nil }
            self.thumbnail = thumbnail
            self.processors = processors
            self.isAnimated = isAnimated
            var hasher = Hasher()
            hasher.combine(thumbnail)
            hasher.combine(processors)
            hasher.combine(isAnimated)
            self.hasher = hasher
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.precomputedHash == rhs.precomputedHash, lhs.imageID == rhs.imageID else { return false }
        switch (lhs.variant, rhs.variant) {
        case (nil, nil): return true
        case let (left?, right?):
            return left === right
                || (left.thumbnail == right.thumbnail && left.processors == right.processors
                    && left.isAnimated == right.isAnimated)
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(precomputedHash)
    }

    /// What a dictionary of keys buckets by: the precomputed hash — already a seeded SipHash of every field —
    /// mixed with the table's seed, without running the hasher a second time on each lookup.
    public func _rawHashValue(seed: Int) -> Int {
        precomputedHash ^ seed
    }

    public var description: String {
        var parts = [imageID]
        if let thumbnail { parts.append("thumbnail=\(thumbnail)") }
        if !processors.isEmpty { parts.append("processors=\(processors.joined(separator: ","))") }
        if isAnimated { parts.append("animated") }
        return parts.joined(separator: " ")
    }
}
