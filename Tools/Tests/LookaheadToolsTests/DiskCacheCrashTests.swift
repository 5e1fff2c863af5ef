// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — a process writing to the disk cache is killed with SIGKILL again and again; every
// entry that survives holds exactly the bytes that were written.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite(.timeLimit(.minutes(3))) struct DiskCacheCrashTests {
    /// The `lookahead` executable built next to this test bundle.
    static let writer = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("lookahead")

    @Test func entriesSurviveSIGKILLIntact() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.writer.path),
            "build the tools first (swift build --build-tests): \(Self.writer.path) is missing"
        )
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lookahead-crash-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SystemRandomNumberGenerator()
        var highestByRound: [Int] = []
        var verified = 0
        let rounds = 24
        for round in 0..<rounds {
            let first = round * 100_000
            // Kill it after a random number of progress lines: sometimes at once, sometimes after many writes.
            let target = Int.random(in: 0...12, using: &generator)
            let run = try await onOwnThread { try Self.runWriterUntilKilled(folder, first: first, lines: target + 1) }
            #expect(run.wasKilled, "round \(round): the writer exited by itself")
            if round == 0 {
                #expect(run.secondCacheReadBack == true, "the second cache reads back what it wrote")
            }
            #expect(run.output.hasPrefix("ready"), "round \(round): \(run.output.prefix(80))")
            // Entries after the last reported one may be on disk too: the writer was mid-way through the next ones.
            let reported = run.output.split(separator: "\n").last { $0.hasPrefix("stored ") }
                .flatMap { Int($0.dropFirst(7)) }
            highestByRound.append((reported ?? first) + 8)

            // Reopen and check every entry this or an earlier round may have written.
            let ranges = highestByRound.indices.map { ($0 * 100_000)...highestByRound[$0] }
            let check = await onOwnThread { Self.reopen(folder, checking: ranges) }
            #expect(!check.isReadOnly)
            #expect(check.totalSize <= 3 << 20)
            #expect(check.wrongEntries.isEmpty, "entries holding other bytes: \(check.wrongEntries)")
            verified += check.verified
            #expect(check.leftovers.isEmpty, "temporary files left after reopening: \(check.leftovers)")
            // Whether the index was saved before the kill or counted after it, it knows exactly the files there.
            #expect(check.totalCount == check.entryFiles, "round \(round)")
        }
        #expect(verified > rounds, "too few entries survived to prove anything (\(verified))")
        print("disk cache crash test: \(rounds) SIGKILLs, \(verified) surviving entries verified byte for byte")
    }

    /// How a writer ended: its output up to the kill, and whether the kill ended it.
    struct WriterRun: Sendable {
        var output: String
        var wasKilled: Bool
        /// In round 0: whether a second cache in this process read back what it wrote while the writer ran.
        var secondCacheReadBack: Bool?
    }

    /// Starts a writer numbering its entries from `first`, kills it with SIGKILL once it printed `lines` lines and
    /// waits for it. Blocks: call on a thread of its own.
    static func runWriterUntilKilled(_ folder: URL, first: Int, lines target: Int) throws -> WriterRun {
        let process = Process()
        process.executableURL = writer
        process.arguments = [
            "disk-writer", "--directory", folder.path, "--first", String(first), "--size-limit", String(3 << 20),
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var lines = 0
        var buffer = Data()
        let reader = output.fileHandleForReading
        while lines < target {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            lines = buffer.split(separator: UInt8(ascii: "\n")).count
        }
        var secondCacheReadBack: Bool?
        if first == 0 {
            // While the writer runs, a second cache on the folder, in this process, writes too.
            let second = DiskCache(directory: folder, sizeLimit: 3 << 20)
            second.storeData(Data([1, 2, 3]), for: "from-the-second-cache")
            second.flush()
            secondCacheReadBack = second.cachedData(for: "from-the-second-cache") == Data([1, 2, 3])
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return WriterRun(
            output: String(decoding: buffer, as: UTF8.self),
            wasKilled: process.terminationReason == .uncaughtSignal,
            secondCacheReadBack: secondCacheReadBack
        )
    }

    /// What a cache reopened on the folder finds.
    struct Reopened: Sendable {
        var isReadOnly: Bool
        var totalSize: Int
        var totalCount: Int
        /// The entry files in the folder.
        var entryFiles: Int
        /// Temporary files left in the folder.
        var leftovers: [String]
        /// Entries whose bytes are not what their writer wrote.
        var wrongEntries: [Int]
        /// Entries read back byte for byte.
        var verified: Int
    }

    /// Reopens a cache on the folder and reads every entry numbered in `ranges` it holds. Blocks: call on a thread of
    /// its own.
    static func reopen(_ folder: URL, checking ranges: [ClosedRange<Int>]) -> Reopened {
        let cache = DiskCache(directory: folder, sizeLimit: 3 << 20)
        cache.flush()
        var wrong: [Int] = []
        var verified = 0
        for range in ranges {
            for number in range {
                let key = CrashTestEntries.key(number)
                guard cache.containsData(for: key), let data = cache.cachedData(for: key) else { continue }
                if data == CrashTestEntries.payload(number) { verified += 1 } else { wrong.append(number) }
            }
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return Reopened(
            isReadOnly: cache.isReadOnly,
            totalSize: cache.totalSize,
            totalCount: cache.totalCount,
            entryFiles: names.filter { $0.count == 64 && !$0.hasPrefix(".") }.count,
            leftovers: names.filter { $0.hasPrefix(".tmp-") },
            wrongEntries: wrong,
            verified: verified
        )
    }
}
