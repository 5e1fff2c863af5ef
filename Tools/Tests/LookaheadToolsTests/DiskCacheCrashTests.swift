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

    @Test func entriesSurviveSIGKILLIntact() throws {
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
            let process = Process()
            process.executableURL = Self.writer
            process.arguments = [
                "disk-writer", "--directory", folder.path, "--first", String(first), "--size-limit", String(3 << 20),
            ]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Kill it after a random number of progress lines: sometimes at once, sometimes after many writes.
            let target = Int.random(in: 0...12, using: &generator)
            var lines = 0
            var buffer = Data()
            let reader = output.fileHandleForReading
            while lines <= target {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                lines = buffer.split(separator: UInt8(ascii: "\n")).count
            }
            if round == 0 {
                // While the writer runs, a second cache on the folder, in this process, writes too.
                let second = DiskCache(directory: folder, sizeLimit: 3 << 20)
                second.storeData(Data([1, 2, 3]), for: "from-the-second-cache")
                second.flush()
                #expect(second.cachedData(for: "from-the-second-cache") == Data([1, 2, 3]))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "round \(round): the writer exited by itself")
            let text = String(decoding: buffer, as: UTF8.self)
            #expect(text.hasPrefix("ready"), "round \(round): \(text.prefix(80))")
            // Entries after the last reported one may be on disk too: the writer was mid-way through the next ones.
            let reported = text.split(separator: "\n").last { $0.hasPrefix("stored ") }.flatMap { Int($0.dropFirst(7)) }
            highestByRound.append((reported ?? first) + 8)

            // Reopen and check every entry this or an earlier round may have written.
            let cache = DiskCache(directory: folder, sizeLimit: 3 << 20)
            cache.flush()
            #expect(!cache.isReadOnly)
            #expect(cache.totalSize <= 3 << 20)
            for earlier in 0...round {
                for number in (earlier * 100_000)...highestByRound[earlier] {
                    let key = CrashTestEntries.key(number)
                    guard cache.containsData(for: key) else { continue }
                    if let data = cache.cachedData(for: key) {
                        #expect(data == CrashTestEntries.payload(number), "entry \(number) holds other bytes")
                        verified += 1
                    }
                }
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let leftovers = names.filter { $0.hasPrefix(".tmp-") }
            #expect(leftovers.isEmpty, "temporary files left after reopening: \(leftovers)")
            // Whether the index was saved before the kill or counted after it, it knows exactly the files there.
            #expect(cache.totalCount == names.filter { $0.count == 64 && !$0.hasPrefix(".") }.count, "round \(round)")
        }
        #expect(verified > rounds, "too few entries survived to prove anything (\(verified))")
        print("disk cache crash test: \(rounds) SIGKILLs, \(verified) surviving entries verified byte for byte")
    }
}
