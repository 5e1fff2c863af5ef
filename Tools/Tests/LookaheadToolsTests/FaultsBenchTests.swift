// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — memory bounds measured in child processes by `lookahead-bench faults`.

import Foundation
import LookaheadFixtures
import Testing

@Suite(.timeLimit(.minutes(3))) struct FaultsBenchTests {
    /// The `lookahead-bench` executable built next to this test bundle.
    private static let bench = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("lookahead-bench")

    /// Runs the bench for `cases` with a 16 MiB limit; rows of `case, result, ms, rss before KiB, peak KiB, entries`.
    private func run(_ cases: [String], extra: [String] = []) async throws -> [String: [String]] {
        try #require(FileManager.default.isExecutableFile(atPath: Self.bench.path), "build the tools first")
        let bench = try await runProgram(
            Self.bench,
            arguments: ["faults", "--tsv", "--limit-mb", "16", "--cases", cases.joined(separator: ",")] + extra
        )
        #expect(bench.status == 0, "lookahead-bench faults: \(bench.errors)")
        let output = bench.standardOutput
        var rows: [String: [String]] = [:]
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.count == 6 { rows[fields[0]] = fields }
        }
        return rows
    }

    @Test func hostileBodiesCostNoMoreThanTheLimitPlus32MB() async throws {
        let cases = ["endless", "gzip-bomb", "declared-huge"]
        let rows = try await run(cases)
        for name in cases {
            guard let row = rows[name] else {
                Issue.record("no row for \(name): \(rows)")
                continue
            }
            #expect(row[1] == "Response is larger than the limit of 16777216 bytes", "\(name): \(row[1])")
            let grown = (Int(row[4]) ?? .max) - (Int(row[3]) ?? 0)
            #expect(grown <= (16 + 32) << 10, "\(name) grew by \(grown) KiB")
            #expect(row[5] == "0", "\(name) left \(row[5]) cache entries")
        }
        // The baseline stores its one image: the disk cache works in the same set-up.
        #expect(try await run(["baseline"])["baseline"]?[5] == "1")
    }

    @Test func stallsAndTricklesFailWithinTheirTimeouts() async throws {
        let rows = try await run(
            ["stall-headers", "trickle", "steady-trickle"],
            extra: ["--timeout", "3", "--idle-timeout", "1"]
        )
        for name in ["stall-headers", "trickle"] {
            #expect(rows[name]?[1].contains("no data arrived for 1.0 seconds") == true, "\(rows[name] ?? [])")
            // Not early: the idle timeout counts a second of silence. How late depends on the machine's load.
            #expect((Int(rows[name]?[2] ?? "") ?? 0) >= 900, "\(name) failed after \(rows[name]?[2] ?? "?") ms")
        }
        #expect(rows["steady-trickle"]?[1].contains("took longer than 3.0 seconds") == true, "\(rows)")
    }
}
