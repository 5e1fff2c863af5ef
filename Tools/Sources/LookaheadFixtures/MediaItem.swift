// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — MediaItem: the JSON items of the fixture server's paginated media API.

public import Foundation

/// One item of `GET /api/v2/content/misc/media-coverages`, shaped like a real app's media feed.
///
/// ```json
/// {"id": "media-3", "publishedAt": "2025-12-31T22:00:00Z", "title": "Hello 3",
///  "thumbnail": {"aspectRatio": 1.5, "basePath": "media", "domain": "http://127.0.0.1:8080",
///                "id": "thumb-3", "key": "cover-3.jpg", "qualities": [120, 240, 480], "version": 1}}
/// ```
///
/// Decode a page with a plain `JSONDecoder`: `try JSONDecoder().decode([MediaItem].self, from: data)`.
public struct MediaItem: Codable, Sendable, Hashable {
    /// `media-n` for item n (1-based).
    public var id: String
    /// `Hello n` for item n, or the name of its photo when the server shows photos (`Green Meadow`,
    /// `Green Meadow 2` on the next pass through the photos).
    public var title: String
    /// When the item was published, as ISO 8601 text in UTC (`2026-01-01T00:00:00Z`). Item 1 is
    /// the newest; each following item is one hour older.
    public var publishedAt: String
    /// The cover picture.
    public var thumbnail: MediaThumbnail

    /// Creates an item.
    public init(id: String, title: String, publishedAt: String, thumbnail: MediaThumbnail) {
        self.id = id
        self.title = title
        self.publishedAt = publishedAt
        self.thumbnail = thumbnail
    }
}

/// Where the cover picture of a ``MediaItem`` lives and in which sizes it is offered.
///
/// The picture at a given quality is `domain/basePath/quality/key`, see ``url(quality:)``.
public struct MediaThumbnail: Codable, Sendable, Hashable {
    /// The quality that asks for the original picture rather than a width: the photo file as it is
    /// when the server shows photos, else a generated picture 480 pixels wide.
    public static let originalQuality = 0

    /// `thumb-n` for item n.
    public var id: String
    /// The revision of the picture; always 1 on the fixture server.
    public var version: Int
    /// The scheme, host and port serving the picture, with no trailing slash, e.g.
    /// `http://127.0.0.1:8080`.
    public var domain: String
    /// The first path component of the picture URLs, without slashes (`media`).
    public var basePath: String
    /// The file name of the picture, `cover-n.jpg` for item n.
    public var key: String
    /// The widths in pixels the API advertises (`[120, 240, 480]`). The server renders any width
    /// in `16...2048`, and ``originalQuality`` for the original.
    public var qualities: [Int]
    /// Width divided by height, fixed per item: the photo's (upright) when the server shows photos,
    /// else 1.0, 1.5 or 0.75.
    public var aspectRatio: Double

    /// Creates a thumbnail description.
    public init(
        id: String,
        version: Int,
        domain: String,
        basePath: String,
        key: String,
        qualities: [Int],
        aspectRatio: Double
    ) {
        self.id = id
        self.version = version
        self.domain = domain
        self.basePath = basePath
        self.key = key
        self.qualities = qualities
        self.aspectRatio = aspectRatio
    }

    /// The URL of the picture at `quality`: a width in pixels, or ``originalQuality``. Returns
    /// `nil` if the parts do not form a valid URL.
    public func url(quality: Int) -> URL? {
        URL(string: domain + "/" + basePath + "/" + String(quality) + "/" + key)
    }
}
