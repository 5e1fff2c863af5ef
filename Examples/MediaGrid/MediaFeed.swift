// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Example (not built here): the media API's pages, and the grid's prefetching.

import Combine
import Foundation
import Lookahead
import LookaheadUI

/// The items of `media-coverages`, loaded 100 at a time as the grid scrolls to its end.
@MainActor
final class MediaFeed: ObservableObject {
    struct Item: Decodable, Identifiable {
        struct Thumbnail: Decodable {
            var domain: String
            var basePath: String
            var key: String
            var qualities: [Int]?
        }
        var title: String
        var thumbnail: Thumbnail
        /// The image's key: what the grid and the prefetcher know the item by.
        var id: String { thumbnail.key }

        /// `domain/basePath/quality/key`, at the smallest quality at least 240 px wide (0, the original, if none),
        /// decoded to a thumbnail.
        var request: ImageRequest {
            let quality = (thumbnail.qualities ?? []).sorted().first { $0 >= 240 } ?? 0
            return ImageRequest(url: url(quality: quality), thumbnail: ThumbnailOptions(maximumPixelSize: 240))
        }

        /// The original picture, for the detail view.
        var originalURL: URL? { url(quality: 0) }

        private func url(quality: Int) -> URL? {
            URL(string: "\(thumbnail.domain)/\(thumbnail.basePath)/\(quality)/\(thumbnail.key)")
        }
    }

    @Published private(set) var items: [Item] = []
    @Published private(set) var error: String?
    private var isLoading = false
    private var isComplete = false
    private let endpoint = URL(string: "https://acharyaprashant.org/api/v2/content/misc/media-coverages")!

    private var requests: [Item.ID: ImageRequest] = [:]
    private(set) lazy var prefetcher = ListPrefetcher<Item.ID> { [weak self] id in self?.requests[id] }

    /// Loads the next page when the grid shows its last item.
    func loadMore(ifShowing item: Item) {
        guard item.id == items.last?.id else { return }
        Task { await loadMore() }
    }

    /// Loads the next page.
    func loadMore() async {
        guard !isLoading, !isComplete else { return }
        isLoading = true
        defer { isLoading = false }
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "limit", value: "100"), URLQueryItem(name: "offset", value: String(items.count)),
        ]
        do {
            let (data, _) = try await URLSession.shared.data(from: components.url!)
            let page = try JSONDecoder().decode([Item].self, from: data)
            isComplete = page.isEmpty
            show(items + page)
            error = nil
        } catch {
            self.error = error.localizedDescription
        }
    }

    /// Pull to refresh: lists the items again from the first page.
    func refresh() async {
        show([])
        isComplete = false
        await loadMore()
    }

    /// The grid and the prefetcher show these items: the loads of items still near the screen go on.
    private func show(_ items: [Item]) {
        self.items = items
        requests = Dictionary(items.map { ($0.id, $0.request) }) { first, _ in first }
        prefetcher.apply(ListSnapshot(items.map(\.id)))
    }
}
