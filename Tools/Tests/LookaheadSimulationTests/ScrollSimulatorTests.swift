// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the scroll simulation: deterministic, driven by the real library, and the strategies rank as
// they should.

import Lookahead
import Testing

@testable import LookaheadSimulation

@Suite struct ScrollSimulatorTests {
    /// The figures that do not depend on this machine's speed: all but the hitch ratio, which adds measured time.
    private func deterministic(_ reports: [ScrollReport]) -> [ScrollReport] {
        reports.map { report in
            var report = report
            report.hitchRatio = 0
            return report
        }
    }

    @Test(arguments: ScrollScenario.Trajectory.allCases) func theSameSeedGivesTheSameFigures(
        trajectory: ScrollScenario.Trajectory
    ) {
        var scenario = ScrollScenario()
        scenario.trajectory = trajectory
        #expect(deterministic(ScrollSimulator.compare(scenario)) == deterministic(ScrollSimulator.compare(scenario)))
        var other = scenario
        other.seed = 99
        #expect(
            deterministic([ScrollSimulator.run(other, strategy: .lookahead)])
                != deterministic([ScrollSimulator.run(scenario, strategy: .lookahead)])
        )
    }

    @Test func theLoaderUnderTestIsTheLibrarysOwn() {
        // A change to ListImageSlots's configuration changes what the simulation measures: it runs that object,
        // not a model of it.
        var scenario = ScrollScenario()
        let standard = ScrollSimulator.run(scenario, strategy: .lookahead)
        scenario.loaderConfiguration.maximumConcurrentPrefetches = 1
        let narrow = ScrollSimulator.run(scenario, strategy: .lookahead)
        #expect(narrow.placeholderTotal > standard.placeholderTotal)
        #expect(narrow.downloadsStarted != standard.downloadsStarted)
    }

    @Test(arguments: [60, 120]) func onAFlingLookaheadBeatsTheFixedWindowsWithoutThrash(frameRate: Int) {
        var scenario = ScrollScenario()
        scenario.frameRate = frameRate
        let reports = Dictionary(uniqueKeysWithValues: ScrollSimulator.compare(scenario).map { ($0.strategy, $0) })
        let lookahead = reports[.lookahead]!
        let uikit = reports[.uikit]!
        let oracle = reports[.oracle]!
        #expect(lookahead.placeholderTotal < uikit.placeholderTotal)
        #expect(lookahead.placeholderTotal < reports[.prefetchLazy]!.placeholderTotal)
        #expect(lookahead.placeholderTotal <= oracle.placeholderTotal * 1.25)
        #expect(lookahead.bytesNeverShown < uikit.bytesNeverShown)
        #expect(lookahead.rowsFirstShownWithImage > uikit.rowsFirstShownWithImage)
        // No download of a URL is started twice, and few are cancelled once started.
        #expect(lookahead.restarts == 0)
        #expect(lookahead.cancellations * 4 <= lookahead.downloadsStarted)
        #expect(uikit.cancellations * 2 > uikit.downloadsStarted, "the fixed window thrashes, as measured before")
    }

    @Test func onAFastNetworkTheOraclesLeadComesFromKnowingTheFlingBeforeItBegins() {
        var scenario = ScrollScenario()
        scenario.latencyMilliseconds = 50...150
        scenario.frameRate = 60
        let reports = Dictionary(uniqueKeysWithValues: ScrollSimulator.compare(scenario).map { ($0.strategy, $0) })
        let lookahead = reports[.lookahead]!
        let oracle = reports[.oracle]!
        let atRelease = reports[.oracleAtRelease]!
        // Told the trajectory only when the finger lifts, the oracle loses the rows the fling flies past first,
        // and with them its lead over the loader, which learns of the fling at the same moment.
        #expect(oracle.placeholderTotal < lookahead.placeholderTotal)
        #expect(oracle.placeholderTotal < atRelease.placeholderTotal)
        #expect(oracle.downloadsStarted > atRelease.downloadsStarted)
        #expect(lookahead.placeholderTotal < atRelease.placeholderTotal)
    }

    @Test func synchronousLoadingFreezes() {
        var slow = ScrollScenario()
        slow.trajectory = .slowDrag
        let reports = Dictionary(uniqueKeysWithValues: ScrollSimulator.compare(slow).map { ($0.strategy, $0) })
        // The classic demo's table, as numbers: the synchronous strategies block the main thread for whole loads
        // (virtual time, so this holds on any machine); a frozen screen shows no placeholders.
        #expect(reports[.synchronous]!.hitchRatio > 10)
        #expect(reports[.prefetchSynchronous]!.hitchRatio < reports[.synchronous]!.hitchRatio)
        #expect(reports[.synchronous]!.placeholderTotal == 0)
    }

    @Test func everyRowOnTheTrajectoryIsCountedAndTheBytesAddUp() {
        let report = ScrollSimulator.run(ScrollScenario(), strategy: .uikit)
        #expect(report.rowsShown > 150 && report.rowsShown <= 200)
        #expect(report.bytesDownloaded > 0)
        #expect(report.bytesNeverShown <= report.bytesDownloaded)
        #expect(report.distinctURLsStarted + report.restarts == report.downloadsStarted)
    }

    @Test func theModelledNetworkTakesItsLatencyAndBandwidth() {
        // A list no longer than the screen, so nothing scrolls, with a connection per row: each image arrives after
        // the latency plus its bytes over the bandwidth plus one decode, and the placeholder time says so.
        var scenario = ScrollScenario()
        scenario.rows = 8
        scenario.connectionLimit = 8
        scenario.latencyMilliseconds = 500...500
        scenario.bytesPerSecond = 30_000  // 1 s per 30 kB image
        let report = ScrollSimulator.run(scenario, strategy: .uikit)
        // 1.5 s + 3 ms of decoding, counted in whole 60 Hz frames: 91 frames.
        #expect(report.rowsShown == 8)
        #expect(abs(report.placeholderP50 - 91 * 1000 / 60) < 1)
        #expect(abs(report.placeholderP95 - 91 * 1000 / 60) < 1)
    }
}
