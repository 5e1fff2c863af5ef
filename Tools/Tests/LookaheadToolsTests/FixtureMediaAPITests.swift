// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — the fixture server's paginated media API and its cover pictures, over real HTTP.

import Foundation
import Lookahead
import Testing

@testable import LookaheadFixtures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite(.timeLimit(.minutes(1)))
struct FixtureMediaAPITests {
    // MARK: - Pages

    @Test func pagesCoverTheCatalogExactlyOnce() async throws {
        try await withFixtureServer(.init { $0.mediaCount = 45 }) { server, client in
            var items: [MediaItem] = []
            var pageSizes: [Int] = []
            for offset in stride(from: 0, to: 45, by: 20) {
                let page = try await fetchPage(server.mediaPageURL(limit: 20, offset: offset), client)
                pageSizes.append(page.count)
                items += page
            }
            #expect(pageSizes == [20, 20, 5])
            #expect(items.map(\.title) == (1...45).map { "Hello \($0)" })
            #expect(items.map(\.id) == (1...45).map { "media-\($0)" })
            #expect(Set(items.map(\.id)).count == 45)
            #expect(Set(items.map(\.thumbnail.key)).count == 45)

            #expect(try await fetchPage(server.mediaPageURL(limit: 20, offset: 45), client).isEmpty)
            #expect(try await fetchPage(server.mediaPageURL(offset: 1_000_000), client).isEmpty)
            let lastPage = try await fetchPage(server.mediaPageURL(limit: 10, offset: 40), client)
            #expect(lastPage.map(\.title) == ["Hello 41", "Hello 42", "Hello 43", "Hello 44", "Hello 45"])
        }
    }

    @Test func defaultCatalogPagesInHundreds() async throws {
        try await withFixtureServer { server, client in
            var ids: [String] = []
            var offset = 0
            while true {
                let page = try await fetchPage(server.mediaPageURL(limit: 100, offset: offset), client)
                if page.isEmpty { break }
                ids += page.map(\.id)
                offset += page.count
            }
            #expect(ids == (1...240).map { "media-\($0)" })
        }
    }

    @Test func limitDefaultsToTwentyAndIsClamped() async throws {
        try await withFixtureServer { server, client in
            let first = try await fetchPage(server.mediaPageURL(), client)
            #expect(first.map(\.title) == (1...20).map { "Hello \($0)" })
            #expect(try await fetchPage(server.mediaPageURL(offset: 7), client).first?.title == "Hello 8")
            #expect(try await fetchPage(server.mediaPageURL(limit: 500), client).count == 100)
            #expect(try await fetchPage(server.mediaPageURL(limit: 0), client).map(\.title) == ["Hello 1"])
            #expect(try await fetchPage(server.mediaPageURL(limit: -5, offset: 2), client).map(\.title) == ["Hello 3"])
        }
    }

    @Test(arguments: ["limit=abc", "limit=", "limit=2.5", "offset=-1", "offset=x", "limit=5&offset=1e3"])
    func malformedParametersAreBadRequests(query: String) async throws {
        try await withFixtureServer { server, client in
            let (data, response) = try await client.get(server.url(MediaCatalog.pagePath + "?" + query))
            #expect(response.statusCode == 400)
            #expect(response.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/plain") == true)
            #expect(!data.isEmpty)
        }
    }

    // MARK: - Items

    @Test func itemsDecodeWithThePublicTypesAndNameTheServer() async throws {
        try await withFixtureServer { server, client in
            let (data, response) = try await client.get(server.mediaPageURL(limit: 3))
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
            let items = try JSONDecoder().decode([MediaItem].self, from: data)
            let first = try #require(items.first)
            #expect(first.id == "media-1")
            #expect(first.title == "Hello 1")
            #expect(first.publishedAt == "2026-01-01T00:00:00Z")
            #expect(first.thumbnail.id == "thumb-1")
            #expect(first.thumbnail.version == 1)
            #expect(first.thumbnail.domain == server.baseURL.absoluteString)
            #expect(first.thumbnail.domain == "http://127.0.0.1:\(server.port)")
            #expect(first.thumbnail.basePath == "media")
            #expect(first.thumbnail.key == "cover-1.jpg")
            #expect(first.thumbnail.qualities == [120, 240, 480])
            #expect(items[2].thumbnail.key == "cover-3.jpg")
            #expect(Set(items.map(\.publishedAt)).count == 3)

            // Sorted keys, unescaped slashes: the text is stable and readable.
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.hasPrefix(#"[{"id":"media-1","publishedAt":"2026-01-01T00:00:00Z","thumbnail":{"#))
            #expect(text.contains(#""thumbnail":{"aspectRatio":"#))
            #expect(text.contains(#""domain":"http://127.0.0.1:\#(server.port)""#))
        }
    }

    @Test func aspectRatiosAreFixedPerItemAndVaried() async throws {
        try await withFixtureServer { server, client in
            let page = try await fetchPage(server.mediaPageURL(limit: 100), client)
            let again = try await fetchPage(server.mediaPageURL(limit: 100), client)
            #expect(page == again)
            let ratios = page.map(\.thumbnail.aspectRatio)
            #expect(Set(ratios) == [1.0, 1.5, 0.75])
            #expect(ratios == (1...100).map { MediaCatalog.aspectRatio(number: $0) })
        }
    }

    // MARK: - Cover pictures

    @Test func coverURLsServeJPEGsOfTheAdvertisedShape() async throws {
        try await withFixtureServer { server, client in
            let page = try await fetchPage(server.mediaPageURL(limit: 20), client)
            // One item of each aspect ratio.
            var samples: [Double: MediaItem] = [:]
            for item in page where samples[item.thumbnail.aspectRatio] == nil {
                samples[item.thumbnail.aspectRatio] = item
            }
            #expect(samples.count == 3)
            for item in samples.values {
                let thumbnail = item.thumbnail
                let number = try #require(Int(item.id.dropFirst("media-".count)))
                for (quality, width) in [(0, 480), (120, 120), (240, 240)] {
                    let url = try #require(thumbnail.url(quality: quality))
                    #expect(url == server.mediaImageURL(thumbnail, quality: quality))
                    #expect(url.path == "/media/\(quality)/cover-\(number).jpg")
                    let (data, response) = try await client.get(url)
                    #expect(response.statusCode == 200)
                    #expect(response.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")

                    let height = Int((Double(width) / thumbnail.aspectRatio).rounded())
                    let bitmap = try ImageDecoders.decode(data, context: .init()).get().image
                    #expect(bitmap.width == width)
                    #expect(bitmap.height == height)
                    #expect(Array(data) == (try FixtureImages.jpeg(number: number, width: width, height: height)))
                    #expect(server.requestCount(forPath: url.path) == 1)
                }
            }
        }
    }

    @Test(arguments: ["cover-0.jpg", "cover-46.jpg", "cover-01.jpg", "cover-abc.jpg", "cover-1.png", "1.jpg"])
    func unknownKeysAreNotFound(key: String) async throws {
        try await withFixtureServer(.init { $0.mediaCount = 45 }) { server, client in
            let (_, known) = try await client.get(server.url("/media/120/cover-45.jpg"))
            #expect(known.statusCode == 200)
            let (_, response) = try await client.get(server.url("/media/120/\(key)"))
            #expect(response.statusCode == 404)
        }
    }

    @Test(arguments: ["15", "2049", "-120", "abc", "1", "120.5"])
    func unsupportedQualitiesAreBadRequests(quality: String) async throws {
        try await withFixtureServer { server, client in
            let (_, response) = try await client.get(server.url("/media/\(quality)/cover-1.jpg"))
            #expect(response.statusCode == 400)
        }
    }

    @Test func qualityBoundsAreServed() async throws {
        try await withFixtureServer { server, client in
            for width in [16, 2048] {
                let (data, response) = try await client.get(server.url("/media/\(width)/cover-2.jpg"))
                #expect(response.statusCode == 200)
                let bitmap = try ImageDecoders.decode(data, context: .init()).get().image
                #expect(bitmap.width == width)
                #expect(bitmap.height == MediaCatalog.size(number: 2, width: width).height)
            }
        }
    }

    // MARK: - Helpers

    private func fetchPage(_ url: URL, _ client: FixtureClient) async throws -> [MediaItem] {
        let (data, response) = try await client.get(url)
        #expect(response.statusCode == 200)
        return try JSONDecoder().decode([MediaItem].self, from: data)
    }
}
