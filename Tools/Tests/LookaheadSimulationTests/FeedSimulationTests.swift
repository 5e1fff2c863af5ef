// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — a feed that changes while it scrolls: new posts at the top, pages at the end, deletes; the loader
// stops exactly the loads of items gone, keeps the others, and no cell shows another item's image.

import Lookahead
import Testing

@testable import LookaheadSimulation

@Suite struct FeedSimulationTests {
    private typealias Event = SimulatedNetwork.Event

    /// The frame's time in a scenario's virtual time.
    private func time(_ frame: Int, _ scenario: ScrollScenario) -> Duration {
        .seconds(1) / scenario.frameRate * frame
    }

    private func events(_ trace: ScrollTrace, at time: Duration, _ kind: Event.Kind) -> Set<Int> {
        Set(trace.network.filter { $0.time == time && $0.kind == kind }.map(\.item))
    }

    @Test(arguments: [ScrollScenario.Trajectory.slowDrag, .fling])
    func postsInsertedAtTheTopMidScrollChangeNoLoad(trajectory: ScrollScenario.Trajectory) throws {
        var plain = ScrollScenario()
        plain.trajectory = trajectory
        let (_, before) = ScrollSimulator.trace(plain, strategy: .lookahead)
        // Mid-scroll: the list moves, well past the top (a fling coasts).
        let frames = FeedTimeline(plain).frames
        let frame = try #require(frames.indices.first { frames[$0].moved > 0 && frames[$0].position > 10 })
        var refreshed = plain
        refreshed.feed.insertions = [ScrollFeed.Insertion(frame: frame, count: 6)]
        let (report, after) = ScrollSimulator.trace(refreshed, strategy: .lookahead)

        // The viewport stays on its items, six rows further down.
        #expect(after.frames[frame].visible == before.frames[frame].visible)
        #expect(after.frames[frame].list == 1)
        // Item by item, the loader starts and cancels exactly what it did without the new posts, at the same
        // instants: a loader keyed by position would see every row move by six.
        #expect(after.network == before.network)
        #expect(!after.network.contains { $0.item >= plain.rows })
        #expect(report.framesChecked == frames.count)
        #expect(report.wrongItemFrames == 0)
    }

    @Test func pagesAppendedAsTheEndNearsLoadWhatTheWholeListWould() {
        // A slow drag: the window ahead is shorter than the page threshold, so each page is there before it is needed.
        var plain = ScrollScenario()
        plain.trajectory = .slowDrag
        var paged = plain
        paged.feed.pageSize = 12
        paged.feed.pageThreshold = 8
        let (_, before) = ScrollSimulator.trace(plain, strategy: .lookahead)
        let (report, after) = ScrollSimulator.trace(paged, strategy: .lookahead)

        let timeline = FeedTimeline(paged)
        #expect(timeline.lists.map(\.count) == [12, 24, 36, 48])
        #expect(after.network == before.network)
        // Nothing is cancelled as a page arrives.
        for frame in timeline.frames.indices.dropFirst()
        where timeline.frames[frame].list != timeline.frames[frame - 1].list {
            #expect(events(after, at: time(frame, paged), .cancelled).isEmpty)
        }
        #expect(report.wrongItemFrames == 0)
    }

    @Test func pagesAppendedDuringAFlingStopNothingAndLoadAheadOfTheScreen() {
        var paged = ScrollScenario()
        paged.feed.pageSize = 30
        let (report, trace) = ScrollSimulator.trace(paged, strategy: .lookahead)
        let timeline = FeedTimeline(paged)
        let arrivals = timeline.frames.indices.dropFirst().filter {
            timeline.frames[$0].list != timeline.frames[$0 - 1].list
        }
        #expect(arrivals.count == 5)
        for frame in arrivals {
            #expect(events(trace, at: time(frame, paged), .cancelled).isEmpty)
        }
        // The items of the pages that arrived while the fling coasted: some load before they come on screen.
        let firstShown = Dictionary(
            trace.frames.flatMap { frame in frame.visible.map { ($0, frame.time) } }
        ) { first, _ in first }
        let aheadOfTheScreen = trace.network.filter { event in
            event.kind == .started && event.item >= 30 && event.time < firstShown[event.item] ?? .zero
        }
        #expect(aheadOfTheScreen.count >= 10)
        #expect(report.wrongItemFrames == 0)
    }

    @Test func aDeletedItemOnScreenStopsItsLoadAndNoOther() throws {
        // Slow loads, so an item on screen is still loading.
        var plain = ScrollScenario()
        plain.latencyMilliseconds = 300...1200
        let (_, before) = ScrollSimulator.trace(plain, strategy: .lookahead)
        // A frame after which an item on screen (not the top one) has a transfer in flight.
        func inFlight(_ item: Int, at time: Duration) -> Bool {
            let events = before.network.filter { $0.item == item && $0.time <= time }
            return events.last?.kind == .started
        }
        let (frame, index) = try #require(
            before.frames.indices.dropFirst(60).lazy.compactMap { frame in
                before.frames[frame].visible.indices.dropFirst().first { index in
                    inFlight(before.frames[frame].visible[index], at: before.frames[frame].time)
                }
                .map { (frame + 1, $0) }
            }
            .first
        )
        let deleted = before.frames[frame - 1].visible[index]
        var deleting = plain
        deleting.feed.deletions = [ScrollFeed.Deletion(frame: frame, visibleIndex: index)]
        let (report, after) = ScrollSimulator.trace(deleting, strategy: .lookahead)

        #expect(!after.frames[frame].visible.contains(deleted))
        let now = time(frame, plain)
        #expect(after.network.prefix { $0.time < now } == before.network.prefix { $0.time < now })
        // Its transfer stops in the frame of the delete, together with exactly those that stop without it.
        #expect(events(after, at: now, .cancelled) == events(before, at: now, .cancelled).union([deleted]))
        // Nothing starts for it again.
        #expect(!after.network.contains { $0.item == deleted && $0.time >= now && $0.kind == .started })
        #expect(report.wrongItemFrames == 0)
    }

    @Test(arguments: ScrollFeed.Kind.allCases) func noCellShowsAnotherItemsImage(kind: ScrollFeed.Kind) {
        var scenario = ScrollScenario()
        scenario.trajectory = .jumpToTop
        scenario.latencyMilliseconds = 50...600
        scenario.feed = ScrollFeed(kind, for: scenario)
        for report in ScrollSimulator.compare(scenario) {
            #expect(report.wrongItemFrames == 0, "\(report.strategy)")
            #expect(report.rowsShown > 0)
        }
    }

    @Test func theSameSeedDrawsTheSameFeed() {
        var scenario = ScrollScenario()
        let feed = ScrollFeed(.live, for: scenario)
        #expect(feed == ScrollFeed(.live, for: scenario))
        #expect(feed.insertions.count == 2 && feed.deletions.count == 3 && feed.pageSize == 30)
        scenario.seed = 2
        #expect(feed != ScrollFeed(.live, for: scenario))
        #expect(ScrollFeed(.fixed, for: scenario) == ScrollFeed())
    }
}
