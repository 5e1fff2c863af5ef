// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Example (not built here): a sectioned photo feed in a collection view — a diffable data source keyed by item
// identity, a compositional grid with a header per section, older pages appended as the user nears the end, newer
// photos inserted at the top by pull to refresh — prefetching through Lookahead over every section. iOS 16+.

import Lookahead
import LookaheadUI
import UIKit

final class FeedViewController: UIViewController, UICollectionViewDelegate {
    private let api = PhotoFeedAPI()
    private var feed = PhotoFeed()
    private lazy var collectionView = UICollectionView(frame: .zero, collectionViewLayout: Self.layout())
    private var dataSource: UICollectionViewDiffableDataSource<FeedSection, Photo.ID>!
    /// Knows the items by identity: after an insert at the top, every load still wanted goes on.
    private lazy var prefetcher = ListPrefetcher<Photo.ID> { [weak self] id in self?.feed.photo(id)?.request }
    /// Kept here: `prefetchDataSource` is weak. Index paths of any section become items through the data source.
    private lazy var adapter = ListPrefetchingAdapter(prefetcher) { [weak self] in
        self?.dataSource.itemIdentifier(for: $0)
    }
    private var isLoadingPage = false

    override func loadView() { view = collectionView }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Photos"
        let cells = UICollectionView.CellRegistration<FeedPhotoCell, Photo.ID> { [weak self] cell, _, id in
            guard let self, let photo = feed.photo(id) else { return }
            cell.caption.text = photo.author
            // The previous item's load stops; a memory hit shows now; a prefetch already running is joined.
            prefetcher.bind(cell.photo, item: id)
        }
        let headers = UICollectionView.SupplementaryRegistration<FeedSectionHeader>(
            elementKind: UICollectionView.elementKindSectionHeader
        ) { [weak self] header, _, indexPath in
            header.title.text = self?.dataSource.sectionIdentifier(for: indexPath.section)?.title
        }
        dataSource = UICollectionViewDiffableDataSource(collectionView: collectionView) { view, indexPath, id in
            view.dequeueConfiguredReusableCell(using: cells, for: indexPath, item: id)
        }
        dataSource.supplementaryViewProvider = { view, _, indexPath in
            view.dequeueConfiguredReusableSupplementary(using: headers, for: indexPath)
        }
        collectionView.delegate = self
        collectionView.prefetchDataSource = adapter
        collectionView.refreshControl = UIRefreshControl(
            frame: .zero,
            primaryAction: UIAction { [weak self] _ in Task { await self?.refresh() } }
        )
        Task { await loadNextPage() }
    }

    // MARK: - The feed's changes, applied to the view and the prefetcher alike

    /// Shows the feed: the data source animates the difference; the prefetcher keeps the loads of items still near
    /// the screen, cancels those of items that left, and starts nothing for items that are gone.
    private func showFeed() {
        let snapshot = feed.snapshot()
        dataSource.apply(snapshot, animatingDifferences: true)
        prefetcher.apply(ListSnapshot(snapshot))
    }

    /// Pagination: the next page becomes a new section at the end.
    private func loadNextPage() async {
        guard !isLoadingPage, !feed.isComplete else { return }
        isLoadingPage = true
        defer { isLoadingPage = false }
        guard let page = try? await api.page(feed.nextPage) else { return }
        feed.append(page, number: feed.nextPage)
        showFeed()
    }

    /// Pull to refresh: photos the first page lists and the feed does not yet show go into a section at the top,
    /// while the user may be scrolled anywhere below.
    private func refresh() async {
        defer { collectionView.refreshControl?.endRefreshing() }
        guard let page = try? await api.page(1) else { return }
        if feed.insertNewest(page) { showFeed() }
    }

    // MARK: - UICollectionViewDelegate

    func collectionView(_ view: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt path: IndexPath) {
        if dataSource.itemIdentifier(for: path) == feed.lastID { Task { await loadNextPage() } }
    }

    func collectionView(
        _ view: UICollectionView,
        didEndDisplaying cell: UICollectionViewCell,
        forItemAt indexPath: IndexPath
    ) {
        guard let cell = cell as? FeedPhotoCell else { return }
        prefetcher.unbind(cell.photo)  // the load goes on as a prefetch while the item is near
    }

    func scrollViewDidScroll(_ scrollView: UIScrollView) {
        adapter.scrollViewDidScroll(scrollView)
    }

    /// Three square photos a row, a header above each section.
    private static func layout() -> UICollectionViewCompositionalLayout {
        let item = NSCollectionLayoutItem(
            layoutSize: NSCollectionLayoutSize(
                widthDimension: .fractionalWidth(1 / 3),
                heightDimension: .fractionalHeight(1)
            )
        )
        let group = NSCollectionLayoutGroup.horizontal(
            layoutSize: NSCollectionLayoutSize(
                widthDimension: .fractionalWidth(1),
                heightDimension: .fractionalWidth(1 / 3)
            ),
            subitems: [item]
        )
        let section = NSCollectionLayoutSection(group: group)
        section.boundarySupplementaryItems = [
            NSCollectionLayoutBoundarySupplementaryItem(
                layoutSize: NSCollectionLayoutSize(
                    widthDimension: .fractionalWidth(1),
                    heightDimension: .estimated(32)
                ),
                elementKind: UICollectionView.elementKindSectionHeader,
                alignment: .top
            )
        ]
        return UICollectionViewCompositionalLayout(section: section)
    }
}
