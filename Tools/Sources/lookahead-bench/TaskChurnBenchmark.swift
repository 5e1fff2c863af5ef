// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import ArgumentParser
import Foundation
import Lookahead
import LookaheadFixtures

/// `lookahead-bench soak --tasks N`: N image tasks under churn (``TaskChurn``) over an in-process fixture server:
/// every task must end, and the process's memory must come back to its baseline once the memory cache is emptied.
enum TaskChurnBenchmark {
    static func run(tasks: Int, cacheMb: Int) async throws {
        print("lookahead-bench soak --tasks \(tasks) — memory cache \(cacheMb) MiB, load \(loadAverage())")
        let server = try await FixtureServer.start()
        let pipeline = ImagePipeline {
            $0.diskCache = nil
            $0.memoryCache = MemoryCache(costLimit: cacheMb << 20)
        }
        // A warm-up, so the baseline holds the server's and the loader's one-time allocations.
        _ = await TaskChurn.run(pipeline: pipeline, server: server, tasks: 500, distinctImages: 100, seed: 99)
        pipeline.removeAllCachedImages(from: .memory)
        let baseline = ResidentMemory.anonymousBytes() ?? 0
        let start = ContinuousClock.now
        let report = await TaskChurn.run(
            pipeline: pipeline,
            server: server,
            tasks: tasks,
            distinctImages: max(1, tasks / 10),
            seed: 1
        )
        let elapsed = ContinuousClock.now - start
        let peak = ResidentMemory.anonymousBytes() ?? 0
        pipeline.removeAllCachedImages(from: .memory)
        let after = ResidentMemory.anonymousBytes() ?? 0
        ResidentMemory.trim()
        let trimmed = ResidentMemory.anonymousBytes() ?? 0
        await server.stop()
        let mib = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        print(
            "  \(report), in \(String(format: "%.2f", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)) s"
        )
        print("  ended / started: \(report.ended) / \(report.started)")
        print(
            "  memory not file-backed: baseline \(mib(baseline)), at the end \(mib(peak)), cache emptied \(mib(after)) "
                + "(\(mib(after - baseline)) over), after malloc_trim \(mib(trimmed)) (\(mib(trimmed - baseline)) over)"
        )
        guard report.ended == report.started, report.wrongImages == 0 else { throw ExitCode(1) }
    }
}
