// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Example (not built here): the adaptive SwiftUI grid over the media API, with retry and pull to refresh. iOS 16+.

import Lookahead
import LookaheadUI
import SwiftUI

@main
struct MediaGridApp: App {
    var body: some Scene {
        WindowGroup { MediaGrid() }
    }
}

struct MediaGrid: View {
    @StateObject private var feed = MediaFeed()

    var body: some View {
        NavigationStack {
            ScrollView {
                LazyVGrid(columns: [GridItem(.adaptive(minimum: 110), spacing: 4)], spacing: 4) {
                    ForEach(feed.items) { item in
                        NavigationLink {
                            MediaDetail(item: item)
                        } label: {
                            MediaCell(item: item)
                        }
                        .prefetching(item.id, in: feed.prefetcher)
                        .onAppear { feed.loadMore(ifShowing: item) }
                    }
                }
                if let error = feed.error {
                    Button("Could not load the list (\(error)). Retry") { Task { await feed.loadMore() } }
                }
            }
            .refreshable { await feed.refresh() }
            .navigationTitle("Media")
            .task { await feed.loadMore() }
        }
    }
}

/// A square cell: a spinner, the picture fading in, or a button that retries it.
struct MediaCell: View {
    let item: MediaFeed.Item

    var body: some View {
        Color.clear
            .aspectRatio(1, contentMode: .fit)
            .overlay {
                LazyImage(request: item.request) { phase, retry in
                    switch phase {
                    case .success(let image): image.resizable().scaledToFill()
                    case .failure: Button(action: retry) { Image(systemName: "arrow.clockwise") }
                    case .empty: ProgressView()
                    }
                }
            }
            .clipped()
            .accessibilityLabel(item.title)
    }
}

/// The original picture: its download's progress, then its progressive previews, then the image.
struct MediaDetail: View {
    let item: MediaFeed.Item

    var body: some View {
        LazyImage(url: item.originalURL) { state in
            if let image = state.image {
                image.resizable().scaledToFit()
            } else if state.isLoading {
                ProgressView(value: state.progress.fraction)
            } else if state.error != nil {
                Image(systemName: "exclamationmark.triangle")
            }
        }
        .priority(.veryHigh)
        .onStart { request in print("⬇️ Starting download: \(request.url?.absoluteString ?? "")") }
        .navigationTitle(item.title)
    }
}
