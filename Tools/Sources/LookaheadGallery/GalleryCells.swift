// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the interactive gallery's cells: which image slots show which items, bound through a
// ListImageSlots that prefetches around them, and each cell's image drawn with chafa off the frame loop.

@_spi(Simulation) import Lookahead

/// The reusable cells of the interactive gallery and the loads behind them, as a table view keeps them: told the
/// visible items each frame, the ``ListImageSlots`` moves its prefetch window, the cells of items that left are
/// unbound (their loads go on as prefetches while near the screen) and free cells are bound to the items that came
/// (an ``ImageSlot`` each; a memory hit shows in the same frame). What the slots report and the art drawn for them
/// come back as ``Event``s through the gallery's inbox, and count only while the cell still shows their request.
///
/// Owned by the gallery and used only by the thread that runs its frame loop.
struct GalleryCells {
    /// A cell of the pool: its slot, the item it is bound to, and what it shows of it.
    struct Cell {
        /// The cell's place in the pool, which names it in ``Event``s.
        let index: Int
        let slot: ImageSlot
        var item: Int?
        var request: ImageRequest?
        var display = Display.loading
        /// The download's bytes received and expected, while loading.
        var progress: (received: Int64, expected: Int64?)?
        /// Whether the cell shows a preview: the image is still sharpening.
        var isPreview = false

        /// Back to the placeholder, as a cell shows before its image.
        mutating func showPlaceholder() {
            display = .loading
            progress = nil
            isPreview = false
        }
    }

    /// What a cell's slot reports, and the art drawn for a cell, as messages to the frame loop.
    enum Event: Sendable {
        case slot(cell: Int, ImageSlot.State)
        case progress(cell: Int, key: ImageCacheKey, received: Int64, expected: Int64?)
        /// The art of a cell's image, or of a preview of it (a progressive JPEG's scans so far).
        case art(cell: Int, key: ImageCacheKey, art: TerminalArt?, graphics: String?, isPreview: Bool)
    }

    let loader: ListImageSlots<Int>
    private let pipeline: ImagePipeline
    private let log: GalleryLog
    private let options: InteractiveGallery.Options
    private let chafa: ChafaRenderer.Queue
    private let post: @Sendable (Event) -> Void
    /// The items and the layout the requests are built for.
    private(set) var items: [GalleryItem]
    private(set) var layout: GalleryLayout
    /// Images bound from the memory cache, and loads that failed.
    private(set) var memoryHits = 0
    private(set) var failures = 0
    private var cells: [Cell] = []
    private var boundCells: [Int: Int] = [:]  // item → cell
    private var requests: [Int: ImageRequest] = [:]
    private var artCache: [ImageCacheKey: (art: TerminalArt?, graphics: String?)] = [:]
    private var artOrder: [ImageCacheKey] = []

    /// Cells for `items` in `layout`; `post` hands their events to the frame loop, from any thread.
    init(
        pipeline: ImagePipeline,
        items: [GalleryItem],
        layout: GalleryLayout,
        options: InteractiveGallery.Options,
        log: GalleryLog,
        chafa: ChafaRenderer.Queue,
        post: @escaping @Sendable (Event) -> Void
    ) {
        self.loader = ListImageSlots(pipeline: pipeline, snapshot: ListSnapshot(items.indices))
        self.pipeline = pipeline
        self.log = log
        self.options = options
        self.chafa = chafa
        self.post = post
        self.items = items
        self.layout = layout
    }

    /// The cell bound to `item`, if any.
    func cell(showing item: Int) -> Cell? { boundCells[item].map { cells[$0] } }

    /// Whether every one of `items` shows its image, drawn (a progressive JPEG's preview counts).
    func isShowingImages(of items: Range<Int>) -> Bool {
        items.allSatisfy { item in
            guard let cell = boundCells[item], case .image(let art, let graphics, _) = cells[cell].display else {
                return false
            }
            return art != nil || graphics != nil
        }
    }

    /// Whether one of `items` still shows its placeholder (a spinner to turn).
    func isWaiting(for items: Range<Int>) -> Bool {
        items.contains { item in
            guard let cell = boundCells[item] else { return true }
            if case .loading = cells[cell].display { return true }
            return false
        }
    }

    // MARK: - Binding

    /// As UIKit calls them: the scroll (the loader moves its window, prefetches, and starts the loads a fling held
    /// back), then the cells that ended displaying, then the ones that will display. Returns whether a cell was
    /// bound or unbound, and the cells unbound.
    mutating func bindVisibleItems(of navigator: GalleryNavigator) -> (changed: Bool, unbound: [Int]) {
        let visible = navigator.visibleItems
        // The scroll position in items, fractional: the loader's speed estimate then follows the scroll smoothly.
        let position = navigator.offset / Double(max(1, layout.itemHeight)) * Double(layout.itemsPerRow)
        let update = loader.visibleRowsChanged(visible, position: position) { request(for: $0) }
        for line in update.logMessages { log.line(line) }
        var unbound: [Int] = []
        for (item, cell) in boundCells where !visible.contains(item) {
            unbind(item, cell: cell)
            unbound.append(cell)
        }
        var changed = !unbound.isEmpty
        for item in visible where boundCells[item] == nil {
            bind(item)
            changed = true
        }
        return (changed, unbound)
    }

    /// A new layout: every cell is unbound, and the requests are built again at the new size.
    mutating func relayout(_ layout: GalleryLayout) {
        unbindAll()
        requests.removeAll()
        self.layout = layout
    }

    /// The items of a refresh, loaded anew: the memory cache is emptied before the cells bind again, and failures
    /// are forgotten, since a refresh is an explicit retry of every row, not held back by the backoff. Every cell is
    /// unbound, and the loader learns the new count.
    mutating func reload(_ newItems: [GalleryItem]) {
        pipeline.configuration.memoryCache?.removeAll()
        pipeline.forgetAllFailures()
        artCache.removeAll()
        artOrder.removeAll()
        unbindAll()
        items = newItems
        requests.removeAll()
        let update = loader.apply(ListSnapshot(newItems.indices)) { request(for: $0) }
        for line in update.logMessages { log.line(line) }
    }

    /// Loads the item's image again at once, past the pipeline's failure backoff.
    mutating func retry(_ item: Int) {
        guard let cell = boundCells[item] else { return }
        cells[cell].showPlaceholder()
        cells[cell].slot.retry()
    }

    private mutating func bind(_ item: Int) {
        let cell = cells.indices.first { cells[$0].item == nil } ?? makeCell()
        let request = request(for: item)
        cells[cell].item = item
        cells[cell].request = request
        cells[cell].showPlaceholder()
        boundCells[item] = cell
        log.line("🔄 Cell configured for row \(item + 1)")
        // A memory hit changes the state inside bind; its message is applied on the next frame, but the art cache
        // lets the image show at once. A miss loads at once, or once a fling slows down.
        loader.bind(item, request: request, to: cells[cell].slot)
        if case .loaded(_, _, let cache) = cells[cell].slot.state, let cached = artCache[request.imageKey] {
            cells[cell].display = .image(cached.art, graphics: cached.graphics, cache: cache)
        }
    }

    private mutating func unbind(_ item: Int, cell: Int) {
        boundCells[item] = nil
        cells[cell].item = nil
        cells[cell].request = nil
        cells[cell].showPlaceholder()
        // A running load goes on as a prefetch; the loader's window decides when to give it up.
        loader.unbind(item)
    }

    private mutating func unbindAll() {
        for (item, cell) in boundCells { unbind(item, cell: cell) }
    }

    private mutating func makeCell() -> Int {
        let index = cells.count
        let post = post
        let slot = ImageSlot(
            pipeline: pipeline,
            onProgress: { request, received, expected in
                post(.progress(cell: index, key: request.imageKey, received: received, expected: expected))
            }
        ) { state in post(.slot(cell: index, state)) }
        cells.append(Cell(index: index, slot: slot))
        return index
    }

    /// The request of an item at the current layout, built once: the prefetch wish list asks for every row in
    /// the window on every frame. Emptied when the layout or the items change.
    private mutating func request(for item: Int) -> ImageRequest {
        if let request = requests[item] { return request }
        // Chafa resolves a symbol cell from about 8×8 pixels; terminal cells are twice as tall as wide.
        let width = layout.imageColumns * 8
        let height = layout.imageLines * 16
        var processors: [any ImageProcessing] = []
        if options.graphics != .symbols { processors.append(ImageProcessors.RoundedCorners(radius: 12)) }
        let request = ImageRequest(
            url: items[item].imageURL(width),
            thumbnail: ThumbnailOptions(width: width, height: height, contentMode: .aspectFill),
            processors: processors
        )
        requests[item] = request
        return request
    }

    // MARK: - Events

    /// Applies what a slot reported or chafa drew; an event for an earlier request of a reused cell is dropped.
    mutating func apply(_ event: Event) {
        switch event {
        case .progress(let cell, let key, let received, let expected):
            guard cells[cell].request?.imageKey == key, case .loading = cells[cell].display else { return }
            cells[cell].progress = (received, expected)
        case .slot(let cell, let state):
            apply(state, to: cell)
        case .art(let cell, let key, let art, let graphics, let isPreview):
            // A preview's art is never kept: the final image replaces it.
            if !isPreview { remember(art: art, graphics: graphics, for: key) }
            guard cells[cell].request?.imageKey == key, cells[cell].isPreview == isPreview,
                case .image(_, _, let cache) = cells[cell].display
            else {
                return
            }
            cells[cell].display = .image(art, graphics: graphics, cache: cache)
        }
    }

    private mutating func apply(_ state: ImageSlot.State, to cell: Int) {
        guard let request = cells[cell].request, state.request?.imageKey == request.imageKey else { return }
        switch state {
        case .loading:
            cells[cell].showPlaceholder()
        case .preview(let image, _):
            // A progressive JPEG's scans so far: drawn like the image, the earlier preview kept until this one is.
            var showsPreview = false
            if case .image = cells[cell].display { showsPreview = cells[cell].isPreview }
            if !showsPreview { cells[cell].display = .image(nil, graphics: nil, cache: nil) }
            cells[cell].isPreview = true
            render(image, key: request.imageKey, cell: cell, isPreview: true)
        case .loaded(let image, _, let cache):
            cells[cell].isPreview = false
            if cache == .memory { memoryHits += 1 }
            if let cached = artCache[request.imageKey] {
                cells[cell].display = .image(cached.art, graphics: cached.graphics, cache: cache)
            } else {
                cells[cell].display = .image(nil, graphics: nil, cache: cache)
                render(image, key: request.imageKey, cell: cell)
            }
        case .failed(let error, _):
            failures += 1
            cells[cell].display = .failure(error)
            log.line("❌ Row \((cells[cell].item ?? 0) + 1) failed: \(error)")
        case .empty:
            break
        }
    }

    /// Draws an image with chafa off the frame loop; the art comes back as an ``Event`` to the cell.
    private func render(_ image: Bitmap, key: ImageCacheKey, cell: Int, isPreview: Bool = false) {
        let post = post
        chafa.draw(image, columns: layout.imageColumns, rows: layout.imageLines) { art, graphics in
            post(.art(cell: cell, key: key, art: art, graphics: graphics, isPreview: isPreview))
        }
    }

    private mutating func remember(art: TerminalArt?, graphics: String?, for key: ImageCacheKey) {
        if artCache.updateValue((art, graphics), forKey: key) == nil { artOrder.append(key) }
        if artOrder.count > 400 {
            for old in artOrder.prefix(100) { artCache[old] = nil }
            artOrder.removeFirst(100)
        }
    }
}
