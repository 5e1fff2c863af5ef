// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — where the items come from: a server of the media API's shape (the embedded fixture server
// by default), picsum.photos, or a folder of image files.

import Foundation
import Lookahead

/// One item of the gallery.
public struct GalleryItem: Sendable, Equatable {
    public var title: String
    /// The image, given the width in pixels the gallery wants to show it at.
    public var imageURL: @Sendable (_ width: Int) -> URL

    public init(title: String, imageURL: @escaping @Sendable (_ width: Int) -> URL) {
        self.title = title
        self.imageURL = imageURL
    }

    public static func == (lhs: GalleryItem, rhs: GalleryItem) -> Bool {
        lhs.title == rhs.title && lhs.imageURL(0) == rhs.imageURL(0)
    }
}

/// Where the gallery's items come from.
public enum GallerySource: Sendable, Equatable {
    /// A server answering `GET URL?limit=&offset=` with a JSON array of media items (the shape of the fixture
    /// server's `/api/v2/content/misc/media-coverages`), paged until a short page.
    case api(URL)
    /// `https://picsum.photos/200?random=N`, as the classic prefetching demo does (needs the internet).
    case picsum(count: Int)
    /// The image files of a folder, by name.
    case directory(URL)

    /// Why items could not be listed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses `--source`: `picsum`, `api URL`-style strings (`api=URL` or a bare `http(s)://` URL), or a folder.
    public static func parse(_ argument: String, itemCount: Int) throws(Failure) -> GallerySource {
        if argument == "picsum" { return .picsum(count: itemCount) }
        var text = argument
        if text.hasPrefix("api=") || text.hasPrefix("api:") { text.removeFirst(4) }
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            guard let url = URL(string: text) else { throw Failure(description: "not a URL: \(text)") }
            return .api(url)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: text, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure(description: "--source \(argument): not picsum, an http(s) URL of the media API, or a folder")
        }
        return .directory(URL(fileURLWithPath: text, isDirectory: true))
    }

    /// Lists the items: every page of an API (at most `limit` items), the picsum rows, or the folder's images.
    public func items(limit: Int = 1000, pageSize: Int = 50) async throws(Failure) -> [GalleryItem] {
        switch self {
        case .picsum(let count):
            try await Self.checkReachable(URL(string: "https://picsum.photos/200?random=1")!)
            return (1...max(1, count)).map { number in
                GalleryItem(title: "Hello \(number)") { _ in URL(string: "https://picsum.photos/200?random=\(number)")!
                }
            }
        case .directory(let folder):
            return try Self.files(in: folder).prefix(limit).map { url in
                GalleryItem(title: url.deletingPathExtension().lastPathComponent) { _ in url }
            }
        case .api(let url):
            var items: [GalleryItem] = []
            while items.count < limit {
                let page = try await Self.page(of: url, limit: pageSize, offset: items.count)
                items += page
                if page.count < pageSize { break }
            }
            return Array(items.prefix(limit))
        }
    }

    /// Fails with a clear message when the first image cannot be fetched (no network, a proxy, DNS).
    static func checkReachable(_ url: URL) async throws(Failure) {
        _ = try await get(url, timeout: 8) { error in
            "\(url.host ?? url.absoluteString) is unreachable (\(error)); "
                + "without the internet, leave out --source (the embedded server) or give a folder of images"
        }
    }

    /// One page of a media API.
    static func page(of url: URL, limit: Int, offset: Int) async throws(Failure) -> [GalleryItem] {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw Failure(description: "not a URL: \(url)")
        }
        components.queryItems =
            (components.queryItems ?? []).filter { $0.name != "limit" && $0.name != "offset" } + [
                URLQueryItem(name: "limit", value: String(limit)), URLQueryItem(name: "offset", value: String(offset)),
            ]
        guard let pageURL = components.url else { throw Failure(description: "not a URL: \(url)") }
        let data = try await get(pageURL, timeout: 15) { error in
            "could not load \(pageURL.absoluteString): \(error)"
        }
        do {
            return try JSONDecoder().decode([MediaCoverage].self, from: data).map(\.item)
        } catch {
            throw Failure(description: "\(pageURL.absoluteString) did not return a JSON array of media items: \(error)")
        }
    }

    /// The most a page of the media API may weigh: a server sending more is refused, not buffered.
    static let maximumPageSize = 8 << 20

    /// Fetches JSON pages with the library's default loader: its size limit, deadlines and redirect policy.
    private static let loader = DefaultDataLoader()

    /// The body of a GET that answered 2xx; a failure says `unreachable(error)` when no answer came at all.
    private static func get(
        _ url: URL,
        timeout: TimeInterval,
        unreachable: (any Error) -> String
    ) async throws(Failure) -> Data {
        let request = DataLoadRequest(
            url: url,
            maximumResponseSize: maximumPageSize,
            timeout: .seconds(timeout),
            idleTimeout: .seconds(timeout)
        )
        do {
            return try await loader.loadData(for: request).data
        } catch DataLoadingError.statusCodeUnacceptable(let code, _) {
            throw Failure(
                description: "\(url.host ?? url.absoluteString) answered HTTP \(code) for \(url.absoluteString)"
            )
        } catch DataLoadingError.responseTooLarge(let limit) {
            throw Failure(
                description: "\(url.absoluteString) sent more than \(limit >> 20) MiB; not a page of media items"
            )
        } catch {
            throw Failure(description: unreachable(error))
        }
    }

    private static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "gif"]

    private static func files(in folder: URL) throws(Failure) -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw Failure(description: "cannot list \(folder.path): \(error.localizedDescription)")
        }
        let images = names.filter { imageExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        guard !images.isEmpty else {
            throw Failure(description: "\(folder.path) holds no .jpg, .png, .webp or .gif files")
        }
        return images.map { folder.appendingPathComponent($0) }
    }
}

/// A media item as the API returns it; only what the gallery needs is decoded.
struct MediaCoverage: Decodable {
    struct Thumbnail: Decodable {
        var domain: String
        var basePath: String
        var key: String
        var qualities: [Int]?
    }

    var title: String
    var thumbnail: Thumbnail

    /// The item, its image at the smallest quality at least as wide as asked (0, the original, when none is).
    var item: GalleryItem {
        let thumbnail = thumbnail
        let qualities = (thumbnail.qualities ?? []).sorted()
        return GalleryItem(title: title) { width in
            let quality = qualities.first { $0 >= width } ?? 0
            let base = thumbnail.domain.hasSuffix("/") ? String(thumbnail.domain.dropLast()) : thumbnail.domain
            let path = thumbnail.basePath.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            return URL(string: "\(base)/\(path)/\(quality)/\(thumbnail.key)")
                ?? URL(string: "invalid:")!
        }
    }
}
