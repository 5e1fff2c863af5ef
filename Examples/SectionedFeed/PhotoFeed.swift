// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Example (not built here): the feed's model — picsum.photos' paginated list, and the photos in sections.

import Foundation
import Lookahead
import UIKit

/// One photo of picsum.photos' list (`/v2/list?page=&limit=`).
struct Photo: Decodable, Identifiable, Sendable {
    let id: String
    let author: String

    /// A 300 px square of the photo, decoded to the cell's size.
    var request: ImageRequest {
        ImageRequest(
            url: URL(string: "https://picsum.photos/id/\(id)/300/300"),
            thumbnail: ThumbnailOptions(maximumPixelSize: 300)
        )
    }
}

/// A section of the feed: one page of the list, or the photos a refresh found.
enum FeedSection: Hashable, Sendable {
    case newest(refresh: Int)
    case page(Int)

    var title: String {
        switch self {
        case .newest: "New"
        case .page(let number): "Page \(number)"
        }
    }
}

/// The photos the feed shows, section by section, each photo once.
struct PhotoFeed {
    private var sections: [(id: FeedSection, photos: [Photo.ID])] = []
    private var photos: [Photo.ID: Photo] = [:]
    private var refreshes = 0
    private(set) var nextPage = 1
    private(set) var isComplete = false

    func photo(_ id: Photo.ID) -> Photo? { photos[id] }

    var lastID: Photo.ID? { sections.last?.photos.last }

    /// Adds a page at the end (the list's older photos); an empty page ends the list.
    mutating func append(_ page: [Photo], number: Int) {
        let new = remember(page)
        isComplete = page.isEmpty
        nextPage = number + 1
        if !new.isEmpty { sections.append((.page(number), new)) }
    }

    /// Adds the photos of a fresh first page that the feed does not show yet, in a section at the top; `false` when
    /// there are none.
    mutating func insertNewest(_ page: [Photo]) -> Bool {
        let new = remember(page)
        guard !new.isEmpty else { return false }
        refreshes += 1
        sections.insert((.newest(refresh: refreshes), new), at: 0)
        return true
    }

    /// The sections as a diffable data source shows them.
    func snapshot() -> NSDiffableDataSourceSnapshot<FeedSection, Photo.ID> {
        var snapshot = NSDiffableDataSourceSnapshot<FeedSection, Photo.ID>()
        for section in sections {
            snapshot.appendSections([section.id])
            snapshot.appendItems(section.photos, toSection: section.id)
        }
        return snapshot
    }

    /// Keeps the photos not seen before and returns their identifiers, in order.
    private mutating func remember(_ page: [Photo]) -> [Photo.ID] {
        page.compactMap { photo in
            guard photos[photo.id] == nil else { return nil }
            photos[photo.id] = photo
            return photo.id
        }
    }
}

/// picsum.photos' list, 30 photos a page.
struct PhotoFeedAPI: Sendable {
    func page(_ number: Int) async throws -> [Photo] {
        let url = URL(string: "https://picsum.photos/v2/list?page=\(number)&limit=30")!
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONDecoder().decode([Photo].self, from: data)
    }
}
