// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead simulation — a feed whose items change while the user scrolls: new posts at the top, pages at the end,
// deleted items.

/// How the list's items change during a scroll, as a real feed's do. The list holds item identifiers: the rows of
/// the scenario are items `0..<rows` in order, and each post inserted later gets the next free identifier. Every
/// change reaches the loader as a new snapshot, through the same call an app makes.
public struct ScrollFeed: Sendable, Hashable {
    /// The families of feed events `lookahead-bench scroll --feed` runs.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The list never changes.
        case fixed
        /// New posts inserted at the top while the list scrolls (a refresh); the viewport stays on its items.
        case newPosts
        /// The list arrives a page at a time: the next page is appended when the user nears the bottom.
        case pages
        /// Items on screen deleted.
        case deletes
        /// New posts, pages and deletes together.
        case live
    }

    /// Posts inserted at the top of the list at the start of a frame.
    public struct Insertion: Sendable, Hashable {
        /// The frame.
        public var frame: Int
        /// How many posts.
        public var count: Int

        /// `count` posts at the top at `frame`.
        public init(frame: Int, count: Int) {
            self.frame = frame
            self.count = count
        }
    }

    /// An item on screen deleted at the start of a frame.
    public struct Deletion: Sendable, Hashable {
        /// The frame.
        public var frame: Int
        /// Which of the visible items, from the top (clamped to those on screen).
        public var visibleIndex: Int

        /// The `visibleIndex`th item on screen deleted at `frame`.
        public init(frame: Int, visibleIndex: Int) {
            self.frame = frame
            self.visibleIndex = visibleIndex
        }
    }

    /// Posts inserted at the top.
    public var insertions: [Insertion] = []
    /// Items on screen deleted.
    public var deletions: [Deletion] = []
    /// Items per page; `nil`: every row is in the list from the start.
    public var pageSize: Int?
    /// The next page is appended once the bottom of the viewport is this many rows from the end; it is there at
    /// once (a feed whose next page is fetched in time).
    public var pageThreshold = 15

    /// A list that never changes.
    public init() {}

    /// The events of `kind` along `scenario`'s trajectory, drawn from its seed: two refreshes of 3–12 posts while
    /// the list moves, pages of 30 rows, three deletes of an item on screen.
    public init(_ kind: Kind, for scenario: ScrollScenario) {
        self.init()
        var random = SplitMix(seed: scenario.seed ^ 0xFEED)
        let offsets = scenario.frames().map(\.offset)
        // Frames at which the list moves away from the top: a refresh lands mid-scroll.
        let moving = offsets.indices.dropFirst().filter { offsets[$0] != offsets[$0 - 1] && offsets[$0] > 0 }
        let settled = Array(offsets.indices.dropFirst(scenario.frameRate / 2))
        if kind == .newPosts || kind == .live, !moving.isEmpty {
            let halves = [moving[..<(moving.count / 2)], moving[(moving.count / 2)...]]
            insertions = halves.filter { !$0.isEmpty }.map { half in
                Insertion(frame: half[random.next(half.count) + half.startIndex], count: 3 + random.next(10))
            }
        }
        if kind == .pages || kind == .live { pageSize = 30 }
        if kind == .deletes || kind == .live, !settled.isEmpty {
            let viewport = Int(scenario.viewportRows)
            deletions = (0..<3).map { _ in
                Deletion(frame: settled[random.next(settled.count)], visibleIndex: random.next(viewport))
            }
            .sorted { $0.frame < $1.frame }
        }
    }
}

/// A seeded generator (SplitMix64): the same seed draws the same feed.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(max(1, bound)))
    }
}
