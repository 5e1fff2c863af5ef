// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench scroll`: every strategy on every trajectory, at 60 and 120 Hz, in simulated
// time; a table, JSON and an SVG chart.

import ArgumentParser
import Foundation
import LookaheadSimulation

struct ScrollBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll",
        abstract:
            "Simulated scrolling over the real library: placeholder time, first-shown-with-image share, wasted bytes, "
            + "restarts, cancellations, hitches per strategy.",
        discussion: """
            Each strategy drives the real ImagePipeline, ImagePrefetcher and ImageSlot (Lookahead's, \
            ListImageSlots) in virtual time over a modelled network; see LookaheadSimulation. Figures other than \
            hitches are deterministic per seed; hitches add the measured main-thread cost of the real calls.
            """
    )

    @Option(help: "Rows in the list.")
    var rows = 200

    @Option(help: "Seed of the latency draws (the first, with --seeds).")
    var seed: UInt64 = 1

    @Option(help: "Run this many seeds (seed, seed+1, …): each seed's figures, then the mean.")
    var seeds = 1

    @Option(help: "Latency per request in milliseconds, MIN-MAX, drawn uniformly per row and attempt.")
    var latency = "100-300"

    @Option(help: "Bandwidth per connection, bytes per second.")
    var bandwidth = 4_000_000.0

    @Option(help: "Frame rates to run, comma-separated.")
    var frameRates = "60,120"

    @Option(
        help: ArgumentHelp(
            "Trajectories to run, comma-separated; all by default.",
            discussion: "Values: \(ScrollScenario.Trajectory.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "trajectory,…"
        ),
        transform: ScrollBenchmark.parseTrajectories
    )
    var trajectories: [ScrollScenario.Trajectory]?

    @Option(
        help: ArgumentHelp(
            "How the list's items change while it scrolls, drawn from each seed; the list never changes by default.",
            discussion: "Values: \(ScrollFeed.Kind.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "feed"
        ),
        transform: ScrollBenchmark.parseFeed
    )
    var feed = ScrollFeed.Kind.fixed

    @Option(help: "Write the reports (every seed) as JSON to this file.")
    var json: String?

    @Flag(help: "Do not tell the loader when the list coasts (isDecelerating): it infers flings from the speed.")
    var speedOnly = false

    @Option(help: "Write an SVG chart of placeholder time per strategy and trajectory to this file.")
    var svg: String?

    func run() throws {
        guard let range = Self.parseRange(latency) else {
            throw ValidationError("--latency takes MIN-MAX in milliseconds, e.g. 100-300")
        }
        let rates = frameRates.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        var everyRun: [ScrollReport] = []
        var means: [ScrollReport] = []
        let seedList = (0..<UInt64(max(1, seeds))).map { seed &+ $0 }
        let seedText = seedList.count == 1 ? "seed \(seed)" : "seeds \(seed)…\(seedList.last ?? seed)"
        print(
            "lookahead-bench scroll — \(rows) rows, 8 visible, latency \(latency) ms, "
                + "\(Int(bandwidth / 1000)) kB/s per connection, 6 connections, \(seedText)"
                + (speedOnly ? "; flings inferred from the speed alone" : "; the list reports when it coasts")
                + (feed == .fixed ? "" : "; feed: \(feed.rawValue)")
        )
        print("placeholder ms per shown row (p50/p95/total), rows first shown with their image, bytes never shown,")
        print("downloads started, restarted (same URL again), cancelled, hitch ratio (ms of missed deadlines per s)")
        for frameRate in rates {
            for trajectory in trajectories ?? ScrollScenario.Trajectory.allCases {
                let runs = simulate(trajectory, frameRate: frameRate, latency: range, seeds: seedList)
                everyRun += runs.flatMap { $0 }
                means += report(trajectory, frameRate: frameRate, runs: runs)
            }
        }
        try writeFiles(everyRun: everyRun, means: means.filter { $0.frameRate == rates.first }, seeds: seedList.count)
        try Self.checkItems(everyRun)
    }

    /// Prints how many frames, of every strategy's runs whose cells show images, had a cell on screen showing
    /// another item's image; fails unless none did.
    static func checkItems(_ runs: [ScrollReport]) throws {
        let wrong = runs.reduce(0) { $0 + $1.wrongItemFrames }
        print("\nfeed: wrong-item frames \(wrong) of \(runs.reduce(0) { $0 + $1.framesChecked })")
        if wrong > 0 { throw ExitCode.failure }
    }

    /// Parses `--feed`.
    static func parseFeed(_ text: String) throws -> ScrollFeed.Kind {
        guard let kind = ScrollFeed.Kind(rawValue: text) else {
            let known = ScrollFeed.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("unknown feed \(text); the feeds are \(known)")
        }
        return kind
    }

    /// Parses `--trajectories`: names separated by commas.
    static func parseTrajectories(_ text: String) throws -> [ScrollScenario.Trajectory] {
        try text.split(separator: ",").map { name in
            guard let trajectory = ScrollScenario.Trajectory(rawValue: String(name)) else {
                let known = ScrollScenario.Trajectory.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("unknown trajectory \(name); the trajectories are \(known)")
            }
            return trajectory
        }
    }

    /// Every strategy on one trajectory at one frame rate, once per seed: each seed's reports.
    private func simulate(
        _ trajectory: ScrollScenario.Trajectory,
        frameRate: Int,
        latency range: ClosedRange<Double>,
        seeds: [UInt64]
    ) -> [[ScrollReport]] {
        seeds.map { seed in
            var scenario = ScrollScenario()
            scenario.rows = rows
            scenario.seed = seed
            scenario.frameRate = frameRate
            scenario.trajectory = trajectory
            scenario.latencyMilliseconds = range
            scenario.bytesPerSecond = bandwidth
            scenario.reportsDeceleration = !speedOnly
            scenario.feed = ScrollFeed(feed, for: scenario)
            return ScrollSimulator.compare(scenario)
        }
    }

    /// Prints the table of one trajectory and frame rate (the mean of the seeds), Lookahead against the oracles,
    /// and each seed's ratios with several seeds. Returns the means.
    private func report(_ trajectory: ScrollScenario.Trajectory, frameRate: Int, runs: [[ScrollReport]])
        -> [ScrollReport]
    {
        let results = ScrollStrategy.allCases.compactMap { strategy in
            ScrollReport.mean(of: runs.flatMap { $0.filter { $0.strategy == strategy } })
        }
        print("")
        print(
            "\(trajectory.rawValue) @ \(frameRate) Hz\(runs.count > 1 ? ", mean of \(runs.count) seeds" : "")"
                + (feed == .fixed ? "" : ", feed: \(feed.rawValue)")
        )
        print(
            "  strategy          p50     p95     total   first-image  never-shown  started restarted cancels  hitch"
        )
        for report in results { print("  " + Self.row(report)) }
        if let ours = results.first(where: { $0.strategy == .lookahead }),
            let oracle = results.first(where: { $0.strategy == .oracle }),
            let uikit = results.first(where: { $0.strategy == .uikit }),
            let atRelease = results.first(where: { $0.strategy == .oracleAtRelease })
        {
            reportLookahead(
                ours,
                oracle: oracle,
                atRelease: atRelease,
                uikit: uikit,
                figureID: "scroll-\(trajectory.rawValue)-\(frameRate)",
                title: "Simulated \(trajectory.rawValue) at \(frameRate) Hz",
                seeds: runs.count
            )
        }
        if runs.count > 1 { Self.printPerSeed(runs) }
        return results
    }

    /// Lookahead's placeholder time against the oracles' and UIKit's, its bytes never shown, and the figure.
    private func reportLookahead(
        _ ours: ScrollReport,
        oracle: ScrollReport,
        atRelease: ScrollReport,
        uikit: ScrollReport,
        figureID: String,
        title: String,
        seeds: Int
    ) {
        print(
            String(
                format: "  → lookahead placeholder total: %.2f× the oracle's, %.2f× oracle@lift's "
                    + "(told the trajectory when the fling begins), %.2f× uikit-2's",
                ours.placeholderTotal / max(1, oracle.placeholderTotal),
                ours.placeholderTotal / max(1, atRelease.placeholderTotal),
                ours.placeholderTotal / max(1, uikit.placeholderTotal)
            )
        )
        print(
            String(
                format: "  → lookahead bytes never shown: %.1f%%, %.1f%% leaving out the rows prefetched"
                    + " ahead of the list at rest at the end",
                ours.neverShownShare * 100,
                ours.neverShownDuringScrollShare * 100
            )
        )
        // The default regime keeps its old id; others and the speed-only run are told apart.
        let regime =
            (latency == "100-300" ? "" : "-\(latency)ms") + (speedOnly ? "-speed-only" : "")
            + (feed == .fixed ? "" : "-feed-\(feed.rawValue)")
        let regimeTitle =
            (latency == "100-300" ? "" : ", \(latency) ms") + (speedOnly ? ", speed only" : "")
            + (feed == .fixed ? "" : ", feed: \(feed.rawValue)")
        BenchFigure(
            id: figureID + regime,
            title: title + regimeTitle + ": placeholder time on screen",
            unit: "ms",
            lookahead: ours.placeholderTotal,
            peers: [
                .init(name: "oracle (knows every latency)", value: oracle.placeholderTotal),
                .init(name: "oracle told the trajectory when the fling begins", value: atRelease.placeholderTotal),
                .init(name: "UIKit prefetching, 2 rows", value: uikit.placeholderTotal),
            ],
            goal: "close to the oracle",
            note: "mean of \(seeds) seeds from \(seed); the real pipeline in virtual time"
        ).print()
    }

    /// `--json` (every run) and `--svg` (the means at the first frame rate).
    private func writeFiles(everyRun: [ScrollReport], means: [ScrollReport], seeds: Int) throws {
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(everyRun).write(to: URL(fileURLWithPath: json))
            print("\nJSON: \(json)")
        }
        if let svg {
            try ScrollChart.svg(means, seeds: seeds).write(toFile: svg, atomically: true, encoding: .utf8)
            print("SVG: \(svg)")
        }
    }

    private static func row(_ report: ScrollReport) -> String {
        report.strategy.label.padding(toLength: 14, withPad: " ", startingAt: 0)
            + String(
                format: "%7.0f %7.0f %9.0f   %5.1f%%      %5.1f%%      %5d  %5d  %5d   %6.1f",
                report.placeholderP50,
                report.placeholderP95,
                report.placeholderTotal,
                report.firstShownWithImageShare * 100,
                report.neverShownShare * 100,
                report.downloadsStarted,
                report.restarts,
                report.cancellations,
                report.hitchRatio
            )
    }

    /// Lookahead against the oracle on every seed: the ratio of placeholder time, and Lookahead's wasted share.
    private static func printPerSeed(_ runs: [[ScrollReport]]) {
        var ratios: [Double] = []
        var releaseRatios: [Double] = []
        var line = "  per seed (lookahead ÷ oracle placeholder, ÷ oracle@lift, never-shown %):"
        for reports in runs {
            guard let ours = reports.first(where: { $0.strategy == .lookahead }),
                let oracle = reports.first(where: { $0.strategy == .oracle }),
                let atRelease = reports.first(where: { $0.strategy == .oracleAtRelease })
            else { continue }
            let ratio = ours.placeholderTotal / max(1, oracle.placeholderTotal)
            let releaseRatio = ours.placeholderTotal / max(1, atRelease.placeholderTotal)
            ratios.append(ratio)
            releaseRatios.append(releaseRatio)
            line += String(format: " %llu:%.2f/%.2f/%.0f", ours.seed, ratio, releaseRatio, ours.neverShownShare * 100)
        }
        print(line)
        if let worst = ratios.max(), let releaseWorst = releaseRatios.max() {
            let mean = ratios.reduce(0, +) / Double(ratios.count)
            let releaseMean = releaseRatios.reduce(0, +) / Double(releaseRatios.count)
            print(
                String(
                    format: "  ratio per seed: mean %.2f, worst %.2f; to oracle@lift: mean %.2f, worst %.2f",
                    mean,
                    worst,
                    releaseMean,
                    releaseWorst
                )
            )
        }
    }

    static func parseRange(_ text: String) -> ClosedRange<Double>? {
        let parts = text.split(separator: "-").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, parts[0] >= 0, parts[0] <= parts[1] else { return nil }
        return parts[0]...parts[1]
    }
}

/// A grouped bar chart: placeholder time (total, per trajectory) for each strategy.
enum ScrollChart {
    static func svg(_ reports: [ScrollReport], seeds: Int) -> String {
        let trajectories = ScrollScenario.Trajectory.allCases
        let strategies = ScrollStrategy.allCases
        let colors = ["#9e9e9e", "#bcaaa4", "#90caf9", "#ffb74d", "#43a047", "#5e35b1", "#b39ddb"]
        let width = 900.0
        let height = 420.0
        let left = 70.0
        let bottom = 60.0
        let top = 40.0
        let maximum = max(1, reports.map(\.placeholderTotal).max() ?? 1)
        let groupWidth = (width - left - 20) / Double(trajectories.count)
        let barWidth = groupWidth / Double(strategies.count + 1)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="22" font-size="15">Placeholder time on screen, all rows, ms (60 Hz, mean of \(seeds) seed\(seeds == 1 ? "" : "s"); lower is better)</text>

            """
        for step in 0...4 {
            let value = maximum * Double(step) / 4
            let y = height - bottom - (height - bottom - top) * Double(step) / 4
            svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(width - 20)\" y2=\"\(y)\" stroke=\"#eee\"/>"
            svg += "<text x=\"\(left - 8)\" y=\"\(y + 4)\" text-anchor=\"end\">\(Int(value))</text>\n"
        }
        for (group, trajectory) in trajectories.enumerated() {
            let x0 = left + Double(group) * groupWidth
            for (index, strategy) in strategies.enumerated() {
                guard let report = reports.first(where: { $0.trajectory == trajectory && $0.strategy == strategy })
                else {
                    continue
                }
                let barHeight = (height - bottom - top) * report.placeholderTotal / maximum
                let x = x0 + barWidth * (Double(index) + 0.5)
                svg +=
                    "<rect x=\"\(x)\" y=\"\(height - bottom - barHeight)\" width=\"\(barWidth - 2)\" height=\"\(barHeight)\" fill=\"\(colors[index])\"/>\n"
            }
            svg +=
                "<text x=\"\(x0 + groupWidth / 2)\" y=\"\(height - bottom + 18)\" text-anchor=\"middle\">\(trajectory.rawValue)</text>\n"
        }
        for (index, strategy) in strategies.enumerated() {
            let x = left + Double(index) * 130
            svg += "<rect x=\"\(x)\" y=\"\(height - 24)\" width=\"12\" height=\"12\" fill=\"\(colors[index])\"/>"
            svg += "<text x=\"\(x + 16)\" y=\"\(height - 14)\">\(strategy.label)</text>\n"
        }
        return svg + "</svg>\n"
    }
}
