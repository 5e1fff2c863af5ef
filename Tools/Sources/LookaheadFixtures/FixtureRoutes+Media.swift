// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureRoutes+Media: the paginated media API and its cover pictures.

import Foundation
import Hummingbird

extension FixtureRoutes {
    /// Adds the media routes:
    ///
    /// - `/api/v2/content/misc/media-coverages?limit=&offset=`: a JSON array of ``MediaItem``,
    ///   items `offset + 1` to `offset + limit` of the catalog (fewer at its end, `[]` past it).
    ///   `offset` defaults to 0 and must not be negative; `limit` defaults to 20 and is clamped
    ///   to `1...100`. A value that is not an integer gets 400.
    /// - `/media/{quality}/{key}`: the cover of item n for key `cover-n.jpg` (404 for any other
    ///   key), 480 pixels wide for quality 0, `quality` pixels wide for `16...2048` (400 for any
    ///   other quality), as tall as the item's aspect ratio makes it. It is generated JPEG n, with
    ///   the latency, bandwidth and fault injection of `/images/{n}.jpg`. With photos it is the
    ///   item's photo instead, resized and re-encoded on first use as an image CDN does, and for
    ///   quality 0 the photo file's bytes unchanged.
    func registerMedia(on router: Router<FixtureRequestContext>) {
        router.get(RouterPath(MediaCatalog.pagePath)) { request, _ in
            try mediaPage(request)
        }
        router.get(RouterPath("/\(MediaCatalog.basePath)/{quality}/{key}")) { request, context in
            try await mediaImage(request, context: context)
        }
    }

    private func mediaPage(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        guard let offset = Self.integer(query.get("offset"), default: 0, in: 0...Int.max) else {
            return Self.text(.badRequest, "offset must be a non-negative integer\n")
        }
        guard let limit = query.get("limit").map({ Int($0) }) ?? MediaCatalog.defaultLimit else {
            return Self.text(.badRequest, "limit must be an integer\n")
        }
        guard let domain = boundAddress.baseURL else {
            return Self.text(.serviceUnavailable, "the server is not listening yet\n")
        }
        let clampedLimit = min(max(limit, MediaCatalog.limitRange.lowerBound), MediaCatalog.limitRange.upperBound)
        let items = catalog.page(offset: offset, limit: clampedLimit, domain: domain)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(items)))
        )
    }

    private func mediaImage(_ request: Request, context: FixtureRequestContext) async throws -> Response {
        let arrival = ContinuousClock.now
        guard
            let quality = context.parameters.get("quality", as: Int.self),
            let width = MediaCatalog.width(quality: quality)
        else {
            return Self.text(
                .badRequest,
                "quality must be \(MediaThumbnail.originalQuality) or a width in \(MediaCatalog.renderableWidths)\n"
            )
        }
        guard let key = context.parameters.get("key"), let number = catalog.number(forKey: key) else {
            return Self.text(.notFound, "no such media: \(request.uri.path)\n")
        }
        let picture: Picture
        if let photos = catalog.photos {
            if quality == MediaThumbnail.originalQuality {
                picture = .bytes(photos.photo(number: number).original)
            } else {
                let size = photos.size(number: number, width: width)
                let source = EncodedImageCache.Key.Source.photo(index: photos.index(number: number))
                picture = .encoded(
                    .init(source: source, width: width, height: size.height, quality: configuration.jpegQuality)
                )
            }
        } else {
            let size = MediaCatalog.size(number: number, width: width)
            let key = EncodedImageCache.Key(
                number: number,
                width: size.width,
                height: size.height,
                quality: configuration.jpegQuality
            )
            picture = .encoded(key)
        }
        return try await imageResponse(picture, request: request, context: context, arrival: arrival)
    }
}
