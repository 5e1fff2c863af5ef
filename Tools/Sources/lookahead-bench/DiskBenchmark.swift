// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench disk`: disk-cache hits and writes against raw file reads and writes.

import ArgumentParser
import Foundation
import Lookahead

#if canImport(Glibc)
import Glibc
#endif

struct DiskBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disk",
        abstract:
            "A 30 KB disk-cache hit against open + read + close of a file of the same size, and a write against temp file + rename."
    )

    @Option(help: "Measured runs per scenario (the median and p95 are reported).")
    var runs = 15

    @Option(help: "Entry size in bytes.")
    var size = 30 * 1024

    func run() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lookahead-bench-disk-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let setup = try Setup(root: root, size: size)
        print(
            "lookahead-bench disk — \(size / 1024) KiB entries, \(setup.keys.count) files, median and p95 of \(runs) runs"
        )
        print("load before: \(uptimeLine())")
        print("")
        // A hit reads an entry stored before: a cache trusts an entry whose checksum it verified only once the
        // file has been unchanged for over a second, so the entries get two seconds' age first.
        Thread.sleep(forTimeInterval: 2)

        let firstRead = Measurement(
            name: "first hit of an entry in a process",
            secondsPerOperation: firstReadPass(setup)
        )
        let (hit, raw) = readPass(setup)
        print("Reads (page cache warm)")
        print(row(hit, unit: "µs/op", scale: 1e6))
        print(row(firstRead, unit: "µs/op", scale: 1e6))
        print(row(raw, unit: "µs/op", scale: 1e6))
        print(
            String(
                format:
                    "  → a hit takes %.2f× a raw read; the first of an entry in a process (checksum verified) %.2f×",
                hit.median / raw.median,
                firstRead.median / raw.median
            )
        )
        print("")
        writePass(setup)
        print("load after: \(uptimeLine())")
        report(hit: hit, firstRead: firstRead, raw: raw)
    }

    /// The entries: 200 of them in a disk cache, and the same bytes in plain files.
    private struct Setup {
        var cacheFolder: URL
        var rawFolder: URL
        var payload: Data
        var keys: [String]
        var rawPaths: [String]
        var cache: DiskCache

        init(root: URL, size: Int) throws {
            cacheFolder = root.appendingPathComponent("cache")
            rawFolder = root.appendingPathComponent("raw")
            try FileManager.default.createDirectory(at: rawFolder, withIntermediateDirectories: true)
            let count = 200
            payload = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            keys = (0..<count).map { "https://example.com/images/\($0).jpg?w=200&h=200" }
            let rawFolder = rawFolder
            rawPaths = (0..<count).map { rawFolder.appendingPathComponent("\($0)").path }
            cache = DiskCache(directory: cacheFolder, sizeLimit: 500 << 20)
            for key in keys { cache.storeData(payload, for: key) }
            cache.flush()
            for path in rawPaths { precondition(FileManager.default.createFile(atPath: path, contents: payload)) }
        }
    }

    /// First reads in a process: every entry verified (a new cache on the folder for each run). Seconds per read.
    private func firstReadPass(_ setup: Setup) -> [Double] {
        var samples: [Double] = []
        for _ in 0..<runs {
            let fresh = DiskCache(directory: setup.cacheFolder, sizeLimit: 500 << 20)
            fresh.flush()
            let clock = ContinuousClock()
            let time = clock.measure {
                var bytes = 0
                for key in setup.keys { bytes += fresh.cachedData(for: key)!.count }
                blackHole(bytes)
            }
            samples.append(time.seconds / Double(setup.keys.count))
        }
        return samples
    }

    /// Hits against raw reads of the same sizes, then the CPU of each (printed).
    private func readPass(_ setup: Setup) -> (hit: Measurement, raw: Measurement) {
        let (cache, keys, rawPaths, count) = (setup.cache, setup.keys, setup.rawPaths, setup.keys.count)
        let operations = 2000
        // Hits and raw reads alternate run by run, so both see the same load.
        var hitSamples: [Double] = []
        var rawSamples: [Double] = []
        var buffer = [UInt8](repeating: 0, count: size)
        let clock = ContinuousClock()
        for run in 0..<(runs + 3) {
            let hitTime = clock.measure {
                var bytes = 0
                for index in 0..<operations { bytes += cache.cachedData(for: keys[index % count])!.count }
                blackHole(bytes)
            }
            let rawTime = clock.measure {
                var bytes = 0
                for index in 0..<operations { bytes += readFile(rawPaths[index % count], into: &buffer) }
                blackHole(bytes)
            }
            guard run >= 3 else { continue }  // warm-up
            hitSamples.append(hitTime.seconds / Double(operations))
            rawSamples.append(rawTime.seconds / Double(operations))
        }
        // Where the time goes: user and system CPU of 20,000 of each.
        func cpu(_ body: () -> Void) -> ProcessUsage {
            let before = ProcessUsage.now()
            body()
            return ProcessUsage.now() - before
        }
        let hitCPU = cpu { for index in 0..<20_000 { blackHole(cache.cachedData(for: keys[index % count])!.count) } }
        let rawCPU = cpu { for index in 0..<20_000 { blackHole(readFile(rawPaths[index % count], into: &buffer)) } }
        print(
            String(
                format: "CPU per read: hit %.2f µs user + %.2f µs system; raw %.2f µs user + %.2f µs system",
                hitCPU.user / 0.02,
                hitCPU.system / 0.02,
                rawCPU.user / 0.02,
                rawCPU.system / 0.02
            )
        )
        return (
            Measurement(name: "DiskCache.cachedData(for:) hit", secondsPerOperation: hitSamples),
            Measurement(name: "open + read + close", secondsPerOperation: rawSamples)
        )
    }

    /// Cache writes against temp file + rename; prints both.
    private func writePass(_ setup: Setup) {
        let (cache, payload, rawFolder) = (setup.cache, setup.payload, setup.rawFolder)
        let writes = 300
        var generation = 0
        let store = measure("DiskCache.storeData + flush", operations: writes, runs: runs, warmUp: 1) {
            generation += 1
            for index in 0..<writes { cache.storeData(payload, for: "w\(generation)-\(index)") }
            cache.flush()
        }
        var rawGeneration = 0
        let rawWrite = measure("temp file write + rename", operations: writes, runs: runs, warmUp: 1) {
            rawGeneration += 1
            for index in 0..<writes {
                writeFile(
                    payload,
                    temporary: rawFolder.path + "/.tmp",
                    final: rawFolder.path + "/w\(rawGeneration)-\(index)"
                )
            }
        }
        print("Writes (no fsync in either)")
        print(row(store, unit: "µs/op", scale: 1e6))
        print(row(rawWrite, unit: "µs/op", scale: 1e6))
        print(String(format: "  → a cache write takes %.2f× a raw temp file + rename", store.median / rawWrite.median))
    }

    private func report(hit: Measurement, firstRead: Measurement, raw: Measurement) {
        BenchFigure(
            id: "disk-hit",
            title: "Disk-cache hit, \(size / 1024) KiB",
            unit: "µs",
            lookahead: hit.median * 1e6,
            peers: [.init(name: "raw open + read + close", value: raw.median * 1e6)],
            goal: "≤ 1.3× the raw read",
            goalMet: hit.median <= 1.3 * raw.median,
            note: String(
                format: "page cache warm; an entry's first hit in a process, checksum verified: %.2f µs (%.2f×); ",
                firstRead.median * 1e6,
                firstRead.median / raw.median
            ) + "median of \(runs) runs; " + loadNote()
        ).print()
    }
}

private func readFile(_ path: String, into buffer: inout [UInt8]) -> Int {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    precondition(descriptor >= 0)
    defer { close(descriptor) }
    return buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
}

private func writeFile(_ data: Data, temporary: String, final: String) {
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    precondition(descriptor >= 0)
    _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    rename(temporary, final)
}

/// The output of `uptime`, for the load the figures were taken under.
func uptimeLine() -> String {
    (try? capture("/usr/bin/uptime", []))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "uptime unavailable"
}
