// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Example (not built here): 200 rows with prefetching and the console log, over Lookahead. iOS 16+.

import Lookahead
import LookaheadUI
import UIKit

/// "Hello 1" … "Hello 200", each with its own picture.
final class PhotosViewController: UITableViewController {
    private let urls = (1...200).map { URL(string: "https://picsum.photos/200?random=\($0)")! }
    private let pipeline = ImagePipeline {
        $0.eventHandler = { event in
            switch event {
            case .dataLoadStarted(let url): print("⬇️ Starting download: \(url.absoluteString)")
            case .dataLoadFinished(let url, _): print("✅ Image downloaded and cached: \(url.absoluteString)")
            default: break
            }
        }
    }
    /// The rows are the items: item n is row n.
    private lazy var prefetcher = ListPrefetcher(ListSnapshot(urls.indices), pipeline: pipeline) { [urls] row in
        ImageRequest(url: urls[row], thumbnail: ThumbnailOptions(maximumPixelSize: 240))
    }
    private lazy var adapter = ListPrefetchingAdapter(prefetcher)  // kept here: prefetchDataSource is weak

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Prefetching"
        tableView.register(PhotoCell.self, forCellReuseIdentifier: PhotoCell.reuseIdentifier)
        tableView.rowHeight = 96
        tableView.prefetchDataSource = adapter
        prefetcher.onUpdate = { prefetching, cancelled in
            if !prefetching.isEmpty { print("🚀 Prefetching images for rows: \(prefetching.map { $0 + 1 })") }
            if !cancelled.isEmpty { print("🚫 Cancelling prefetch for rows: \(cancelled.map { $0 + 1 })") }
        }
        print("✨ TableView setup complete with prefetching enabled")
        print("📊 Total items: \(urls.count)")
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        urls.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: PhotoCell.reuseIdentifier, for: indexPath)
        guard let cell = cell as? PhotoCell else { return cell }
        cell.title.text = "Hello \(indexPath.row + 1)"
        // The previous row's load stops; a memory hit shows now; a prefetch already running is joined.
        prefetcher.bind(cell.photo, item: indexPath.row)
        if case .loaded(_, _, .memory) = cell.photo.lookahead.state {
            print("📦 Image loaded from cache: \(urls[indexPath.row].absoluteString)")
        }
        print("🔄 Cell configured for row \(indexPath.row + 1)")
        return cell
    }

    override func tableView(
        _ tableView: UITableView,
        didEndDisplaying cell: UITableViewCell,
        forRowAt indexPath: IndexPath
    ) {
        guard let cell = cell as? PhotoCell else { return }
        prefetcher.unbind(cell.photo)  // the load goes on as a prefetch while the row is near
    }

    override func scrollViewDidScroll(_ scrollView: UIScrollView) {
        adapter.scrollViewDidScroll(scrollView)
    }
}
