// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — the command line.

import ArgumentParser

@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookahead-bench",
        abstract: "Measures Lookahead against baselines and peers, side by side in one run.",
        subcommands: [
            EngineBenchmark.self, DiskBenchmark.self, DiskScaleBenchmark.self, DecodeBenchmark.self, HEIFBenchmark.self,
            ScrollBenchmark.self,
            FaultsBenchmark.self, DiskContentBenchmark.self,
            ReportCommand.self,
            EndToEndBenchmark.self, SoakBenchmark.self, FixtureServerChildCommand.self,
            WebBenchmark.self, LinkRelayCommand.self, AnimationBenchmark.self,
        ]
    )
}
