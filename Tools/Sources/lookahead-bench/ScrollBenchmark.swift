// Lookahead bench — `lookahead-bench scroll`: every strategy on every trajectory, at 60 and 120 Hz, in simulated
// time; a table, JSON and an SVG chart.

import ArgumentParser
import Foundation
import LookaheadSimulation

struct ScrollBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll",
        abstract:
            "Simulated scrolling: placeholder time, first-shown-with-image share, wasted bytes, hitches per strategy."
    )

    @Option(help: "Rows in the list.")
    var rows = 200

    @Option(help: "Seed of the latency draws (the first, with --seeds).")
    var seed: UInt64 = 1

    @Option(help: "Run this many seeds (seed, seed+1, …) and report the mean of each figure.")
    var seeds = 1

    @Option(help: "Write the reports as JSON to this file.")
    var json: String?

    @Option(help: "Write an SVG chart of placeholder time per strategy and trajectory to this file.")
    var svg: String?

    func run() throws {
        var reports: [ScrollReport] = []
        let seedList = (0..<UInt64(max(1, seeds))).map { seed &+ $0 }
        let seedText = seedList.count == 1 ? "seed \(seed)" : "mean of seeds \(seed)…\(seedList.last ?? seed)"
        print("lookahead-bench scroll — \(rows) rows, 8 visible, latency 100–300 ms, 6 connections, \(seedText)")
        print("placeholder ms per shown row (p50/p95/total), rows first shown with their image, bytes never shown,")
        print("cancelled downloads, hitch ratio (ms of missed deadlines per s; < 5 good, > 10 critical)")
        for frameRate in [60, 120] {
            for trajectory in ScrollScenario.Trajectory.allCases {
                let runs = seedList.map { seed in
                    var scenario = ScrollScenario()
                    scenario.rows = rows
                    scenario.seed = seed
                    scenario.frameRate = frameRate
                    scenario.trajectory = trajectory
                    return ScrollSimulator.compare(scenario)
                }
                let results = ScrollStrategy.allCases.compactMap { strategy in
                    ScrollReport.mean(of: runs.flatMap { $0.filter { $0.strategy == strategy } })
                }
                reports += results
                print("")
                print("\(trajectory.rawValue) @ \(frameRate) Hz")
                print("  strategy          p50     p95     total   first-image  never-shown  cancels  hitch")
                for report in results {
                    print(
                        "  " + report.strategy.label.padding(toLength: 14, withPad: " ", startingAt: 0)
                            + String(
                                format: "%7.0f %7.0f %9.0f   %5.1f%%      %5.1f%%      %5d   %6.1f",
                                report.placeholderP50,
                                report.placeholderP95,
                                report.placeholderTotal,
                                report.firstShownWithImageShare * 100,
                                report.neverShownShare * 100,
                                report.cancellations,
                                report.hitchRatio
                            )
                    )
                }
                if let ours = results.first(where: { $0.strategy == .lookahead }),
                    let oracle = results.first(where: { $0.strategy == .oracle }),
                    let uikit = results.first(where: { $0.strategy == .uikit })
                {
                    print(
                        String(
                            format: "  → lookahead placeholder total: %.2f× the oracle's, %.2f× uikit-2's",
                            ours.placeholderTotal / max(1, oracle.placeholderTotal),
                            ours.placeholderTotal / max(1, uikit.placeholderTotal)
                        )
                    )
                }
            }
        }
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(reports).write(to: URL(fileURLWithPath: json))
            print("\nJSON: \(json)")
        }
        if let svg {
            try ScrollChart.svg(reports.filter { $0.frameRate == 60 }, seeds: seedList.count).write(
                toFile: svg,
                atomically: true,
                encoding: .utf8
            )
            print("SVG: \(svg)")
        }
    }
}

/// A grouped bar chart: placeholder time (total, per trajectory) for each strategy.
enum ScrollChart {
    static func svg(_ reports: [ScrollReport], seeds: Int) -> String {
        let trajectories = ScrollScenario.Trajectory.allCases
        let strategies = ScrollStrategy.allCases
        let colors = ["#9e9e9e", "#bcaaa4", "#90caf9", "#ffb74d", "#43a047", "#5e35b1"]
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
