// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — BenchFigure: one headline figure of a benchmark, against its peers in the same run.

import Foundation

/// One headline figure: Lookahead's value and its peers' (or limits') values, measured in the same run.
///
/// Every benchmark prints its headline figures as lines `bench-figure {JSON}` after its human-readable
/// output; `lookahead-bench report` collects them from the logs `scripts/bench` writes and turns them into
/// one Markdown table and one SVG chart per figure.
struct BenchFigure: Codable, Equatable {
    /// A peer or a limit, measured in the same run.
    struct Peer: Codable, Equatable {
        /// What was measured, e.g. `NSCache` or `tjbench 1/8-scale decode`.
        var name: String
        /// Its value, in the figure's unit.
        var value: Double
    }

    /// The prefix of a figure's line in a benchmark's output.
    static let linePrefix = "bench-figure "

    /// A short, stable identifier (`memory-hit`), also the chart's file name.
    var id: String
    /// What is measured, e.g. `Memory-cache hit, request built from a URL`.
    var title: String
    /// The unit of every value (`ns`, `µs`, `ms`, `s`, `MiB`).
    var unit: String
    /// Lookahead's value.
    var lookahead: Double
    /// The peers and limits, the first being the one the ratio is taken against.
    var peers: [Peer]
    /// `true` when a smaller value is better (a time); `false` for a rate.
    var lowerIsBetter = true
    /// The goal in words, e.g. `≤ 100 ns`.
    var goal: String
    /// Whether the goal is met, when the benchmark can tell.
    var goalMet: Bool?
    /// What to know when reading the figure (load average, sample sizes, caveats).
    var note: String?

    /// Lookahead's value divided by the first peer's, or `nil` when there is none.
    var ratio: Double? {
        guard let first = peers.first, first.value > 0 else { return nil }
        return lookahead / first.value
    }

    /// Prints the figure's `bench-figure` line on standard output.
    func print() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self), let json = String(data: data, encoding: .utf8) else { return }
        Swift.print(Self.linePrefix + json)
    }

    /// The figures in `text`, one per `bench-figure` line; other lines are ignored.
    static func parse(_ text: String) -> [BenchFigure] {
        let decoder = JSONDecoder()
        return text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix(linePrefix) else { return nil }
            return try? decoder.decode(BenchFigure.self, from: Data(line.dropFirst(linePrefix.count).utf8))
        }
    }
}

/// The 1-, 5- and 15-minute load averages, as `/proc/loadavg` gives them (empty where there is none).
func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

/// "load 1.23 1.10 0.98" for a figure's note.
func loadNote() -> String {
    "load " + loadAverage()
}
