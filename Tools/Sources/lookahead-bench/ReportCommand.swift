// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench report`: one Markdown table and one SVG chart per figure, from the logs
// of a `scripts/bench` run.

import ArgumentParser
import Foundation

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Collects the bench-figure lines of benchmark logs into README.md and one SVG chart per figure."
    )

    @Argument(
        help: "The folder holding the benchmark logs (*.log) and, optionally, meta.txt; the report goes there too."
    )
    var folder: String

    func run() throws {
        let directory = URL(fileURLWithPath: folder)
        let logs = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".log") }
            .sorted()
        var figures: [(log: String, figure: BenchFigure)] = []
        for log in logs {
            let text = try String(contentsOf: directory.appendingPathComponent(log), encoding: .utf8)
            figures += BenchFigure.parse(text).map { (log, $0) }
        }
        let meta = (try? String(contentsOf: directory.appendingPathComponent("meta.txt"), encoding: .utf8)) ?? ""
        let markdown = BenchReport.markdown(figures: figures, meta: meta)
        try markdown.write(to: directory.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        for (_, figure) in figures {
            try FigureChart.svg(figure).write(
                to: directory.appendingPathComponent("\(figure.id).svg"),
                atomically: true,
                encoding: .utf8
            )
        }
        print("report: \(figures.count) figures from \(logs.count) logs → \(directory.path)/README.md")
    }
}

/// The Markdown of a benchmark report.
enum BenchReport {
    static func markdown(figures: [(log: String, figure: BenchFigure)], meta: String) -> String {
        var text = "# Lookahead benchmarks\n\n"
        if !meta.isEmpty {
            text += meta.split(separator: "\n").map { "- \($0)" }.joined(separator: "\n") + "\n\n"
        }
        text += "Each figure is measured against its peers in the same run. Ratio = Lookahead ÷ the first peer.\n\n"
        text += "| figure | Lookahead | peers, same run | ratio | goal | met | notes | log |\n"
        text += "|---|---|---|---|---|---|---|---|\n"
        for (log, figure) in figures {
            let peers = figure.peers.map { "\($0.name): \(format($0.value)) \(figure.unit)" }.joined(separator: "; ")
            let ratio = figure.ratio.map { String(format: "%.2f×", $0) } ?? "—"
            let met = figure.goalMet.map { $0 ? "yes" : "**no**" } ?? "—"
            text += "| [\(escape(figure.title))](\(figure.id).svg) | \(format(figure.lookahead)) \(figure.unit) | "
            text +=
                "\(escape(peers)) | \(ratio) | \(escape(figure.goal)) | \(met) | \(escape(figure.note ?? "")) | \(log) |\n"
        }
        return text
    }

    /// A value with three significant figures at most, no exponent.
    static func format(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        if magnitude >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.3f", value)
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}

/// A horizontal bar chart of one figure: Lookahead first, then its peers.
enum FigureChart {
    static func svg(_ figure: BenchFigure) -> String {
        let bars = [BenchFigure.Peer(name: "Lookahead", value: figure.lookahead)] + figure.peers
        let width = 720.0
        let left = 230.0
        let right = 110.0
        let top = 58.0
        let barHeight = 24.0
        let gap = 10.0
        let height = top + Double(bars.count) * (barHeight + gap) + 30
        let maximum = max(bars.map(\.value).max() ?? 1, .leastNonzeroMagnitude)
        let direction = figure.lowerIsBetter ? "lower is better" : "higher is better"
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="12" y="22" font-size="15">\(xml(figure.title))</text>
            <text x="12" y="42" fill="#555">\(xml(figure.unit)), \(direction); goal: \(xml(figure.goal))</text>

            """
        for (index, bar) in bars.enumerated() {
            let y = top + Double(index) * (barHeight + gap)
            let length = max(1, (width - left - right) * bar.value / maximum)
            let color = index == 0 ? "#43a047" : "#90a4ae"
            svg += "<text x=\"\(left - 8)\" y=\"\(y + barHeight * 0.68)\" text-anchor=\"end\">\(xml(bar.name))</text>"
            svg += "<rect x=\"\(left)\" y=\"\(y)\" width=\"\(length)\" height=\"\(barHeight)\" fill=\"\(color)\"/>"
            svg += "<text x=\"\(left + length + 6)\" y=\"\(y + barHeight * 0.68)\">"
            svg += "\(BenchReport.format(bar.value)) \(xml(figure.unit))</text>\n"
        }
        if let note = figure.note {
            svg += "<text x=\"12\" y=\"\(height - 10)\" fill=\"#777\">\(xml(note))</text>\n"
        }
        return svg + "</svg>\n"
    }

    private static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
