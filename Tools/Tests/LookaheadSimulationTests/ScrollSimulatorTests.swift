// Lookahead tests — the scroll simulator: deterministic, and the strategies rank as they should.

import Testing

@testable import LookaheadSimulation

@Suite struct ScrollSimulatorTests {
    @Test(arguments: ScrollScenario.Trajectory.allCases) func theSameSeedGivesTheSameFigures(
        trajectory: ScrollScenario.Trajectory
    ) {
        var scenario = ScrollScenario()
        scenario.trajectory = trajectory
        #expect(ScrollSimulator.compare(scenario) == ScrollSimulator.compare(scenario))
        var other = scenario
        other.seed = 99
        #expect(ScrollSimulator.run(other, strategy: .lookahead) != ScrollSimulator.run(scenario, strategy: .lookahead))
    }

    @Test(arguments: [60, 120]) func onAFlingLookaheadBeatsTheFixedWindowsAndTheOracleBeatsEveryone(frameRate: Int) {
        var scenario = ScrollScenario()
        scenario.frameRate = frameRate
        let reports = Dictionary(uniqueKeysWithValues: ScrollSimulator.compare(scenario).map { ($0.strategy, $0) })
        let lookahead = reports[.lookahead]!
        let uikit = reports[.uikit]!
        let oracle = reports[.oracle]!
        #expect(lookahead.placeholderTotal < uikit.placeholderTotal)
        #expect(lookahead.placeholderTotal < reports[.prefetchLazy]!.placeholderTotal)
        #expect(oracle.placeholderTotal <= lookahead.placeholderTotal)
        #expect(lookahead.placeholderTotal <= oracle.placeholderTotal * 1.4)
        #expect(lookahead.bytesNeverShown < uikit.bytesNeverShown)
        #expect(lookahead.rowsFirstShownWithImage > uikit.rowsFirstShownWithImage)
        #expect(lookahead.hitchRatio == 0)
    }

    @Test func synchronousLoadingFreezesAndPrefetchingOnlyHelpsWhenSlow() {
        var slow = ScrollScenario()
        slow.trajectory = .slowDrag
        let fling = ScrollScenario()
        let slowReports = Dictionary(uniqueKeysWithValues: ScrollSimulator.compare(slow).map { ($0.strategy, $0) })
        let flingReports = Dictionary(uniqueKeysWithValues: ScrollSimulator.compare(fling).map { ($0.strategy, $0) })
        // The classic demo's table, as numbers: synchronous freezes; prefetch + synchronous is smooth only when
        // slow (fewer hitches than synchronous, still far over 10 ms/s on a fling); lazy async never hitches.
        #expect(slowReports[.synchronous]!.hitchRatio > 10)
        #expect(slowReports[.prefetchSynchronous]!.hitchRatio < slowReports[.synchronous]!.hitchRatio)
        #expect(flingReports[.prefetchSynchronous]!.hitchRatio > 10)
        #expect(flingReports[.prefetchLazy]!.hitchRatio == 0)
        #expect(slowReports[.synchronous]!.placeholderTotal == 0, "a frozen screen shows no placeholders")
    }

    @Test func everyRowOnTheTrajectoryIsCounted() {
        let report = ScrollSimulator.run(ScrollScenario(), strategy: .uikit)
        #expect(report.rowsShown > 150 && report.rowsShown <= 200)
        #expect(report.bytesDownloaded > 0)
    }
}
