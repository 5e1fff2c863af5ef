// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — MediaCatalog: the items and picture sizes behind the fixture server's media API.

import Foundation

/// The media catalog: `count` items, each a pure function of its number and the server's
/// address, so nothing is stored.
///
/// Without photos, items are titled "Hello n" and their pictures are generated, with an aspect
/// ratio drawn from ``aspectRatios``. With photos, item n shows photo `(n - 1) mod photo count`:
/// its title and aspect ratio are the photo's.
struct MediaCatalog: Sendable {
    /// The path of the paginated list.
    static let pagePath = "/api/v2/content/misc/media-coverages"
    /// The first path component of the picture URLs.
    static let basePath = "media"
    /// The widths every thumbnail advertises.
    static let advertisedQualities = [120, 240, 480]
    /// The width of the original picture (quality 0).
    static let originalWidth = 480
    /// The widths the picture route renders, besides the original.
    static let renderableWidths = 16...2048
    /// The page size when the request gives none.
    static let defaultLimit = 20
    /// Page sizes are clamped to this range.
    static let limitRange = 1...100
    /// The aspect ratios (width / height) items are drawn from.
    static let aspectRatios = [1.0, 1.5, 0.75]

    /// How many items the catalog holds.
    let count: Int
    /// The photos the items show; `nil` for generated pictures.
    let photos: PhotoLibrary?

    init(count: Int, photos: PhotoLibrary? = nil) {
        self.count = max(count, 0)
        self.photos = photos
    }

    /// The items at `offset..<offset + limit`, cut off at the end of the catalog.
    func page(offset: Int, limit: Int, domain: String) -> [MediaItem] {
        guard offset < count else { return [] }
        let end = offset + min(limit, count - offset)
        return (offset..<end).map { item(number: $0 + 1, domain: domain) }
    }

    /// Item `number` (1-based): ``item(number:domain:)`` with the photo's title and aspect ratio
    /// when the catalog has photos.
    func item(number: Int, domain: String) -> MediaItem {
        var item = Self.item(number: number, domain: domain)
        if let photos {
            let photo = photos.photo(number: number)
            item.title = photos.title(number: number)
            item.thumbnail.aspectRatio = Double(photo.width) / Double(photo.height)
        }
        return item
    }

    /// The number n of the item whose picture is `key` (`cover-n.jpg`), or `nil` if there is none.
    func number(forKey key: String) -> Int? {
        guard key.hasPrefix("cover-"), key.hasSuffix(".jpg") else { return nil }
        let digits = key.dropFirst("cover-".count).dropLast(".jpg".count)
        // Comparing with the canonical key rejects spellings such as `cover-03.jpg` or `cover-+3.jpg`.
        guard let number = Int(digits), number >= 1, number <= count, key == Self.key(number: number) else {
            return nil
        }
        return number
    }

    /// Generated item `number` (1-based).
    static func item(number: Int, domain: String) -> MediaItem {
        MediaItem(
            id: "media-\(number)",
            title: "Hello \(number)",
            publishedAt: publishedAt(number: number),
            thumbnail: MediaThumbnail(
                id: "thumb-\(number)",
                version: 1,
                domain: domain,
                basePath: basePath,
                key: key(number: number),
                qualities: advertisedQualities,
                aspectRatio: aspectRatio(number: number)
            )
        )
    }

    /// The picture file name of item `number`.
    static func key(number: Int) -> String {
        "cover-\(number).jpg"
    }

    /// The aspect ratio of item `number`: one of ``aspectRatios``, picked by a hash of the number.
    static func aspectRatio(number: Int) -> Double {
        let hash = SplitMix64.mix(UInt64(bitPattern: Int64(number)) ^ 0x4D65_6469_6141_5049)
        return aspectRatios[Int(hash % UInt64(aspectRatios.count))]
    }

    /// The picture width for `quality` (a width in ``renderableWidths``, or 0 for the original),
    /// or `nil` if the quality is not served.
    static func width(quality: Int) -> Int? {
        if quality == MediaThumbnail.originalQuality { return originalWidth }
        return renderableWidths.contains(quality) ? quality : nil
    }

    /// The picture size of item `number` at `width`: the height follows its aspect ratio, rounded.
    static func size(number: Int, width: Int) -> FixtureServer.ImageSize {
        let height = (Double(width) / aspectRatio(number: number)).rounded()
        return .init(width: width, height: max(1, Int(height)))
    }

    /// 2026-01-01T00:00:00Z for item 1, one hour earlier for each following item.
    private static func publishedAt(number: Int) -> String {
        let newest: TimeInterval = 1_767_225_600
        return Date(timeIntervalSince1970: newest - TimeInterval(number - 1) * 3600).formatted(.iso8601)
    }
}
