// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tools tests — two processes share one disk cache folder (an app and its extension in an app group),
// writing, reading each other's entries and sweeping, while one or the other is killed with SIGKILL again and again.

import Foundation
import Lookahead
import LookaheadFixtures
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite(.timeLimit(.minutes(3))) struct DiskCacheSharingTests {
    static let limit = 2 << 20
    /// The largest entry `CrashTestEntries` makes, header included: a kill between a write and its sweep may leave the
    /// folder this much over the limit until the next change.
    static let largestEntry = 56 + 41_000

    @Test func twoProcessesShareAFolderThroughKills() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: DiskCacheCrashTests.writer.path),
            "build the tools first (swift build --build-tests): \(DiskCacheCrashTests.writer.path) is missing"
        )
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lookahead-shared-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SystemRandomNumberGenerator()
        // Writer 0 stores the even entry numbers, writer 1 the odd ones; each reads recent entries of both.
        var writers = try [0, 1].map { try WriterProcess(folder: folder, first: $0) }
        var othersRead = 0
        var highest = 0
        let kills = 16
        for round in 0..<kills {
            let victim = Int.random(in: 0...1, using: &generator)
            let writer = writers[victim]
            let lines = writer.lines.count + Int.random(in: 1...10, using: &generator)
            let printed = await writer.waitForLines(lines)
            try #require(printed, "round \(round): writer \(victim) stopped: \(writer.lines.suffix(2))")
            let killed = await writer.killAndWait()
            #expect(killed, "round \(round): the writer exited by itself")
            #expect(!writer.lines.contains { $0.hasPrefix("wrong bytes") }, "round \(round): \(writer.lines.suffix(1))")
            othersRead += writer.othersRead
            highest = max(highest, writer.highestStored ?? 0, writers[1 - victim].highestStored ?? 0)

            // What the folder holds at a moment no writer is changing it.
            let size = await onOwnThread { Self.entryBytesUnderTheFolderLock(folder) }
            #expect(size <= Self.limit + Self.largestEntry, "round \(round): \(size) bytes in the folder")

            // Start it again next to the other writer's numbers, so each keeps reading the other's entries.
            let next = (writers[1 - victim].highestStored ?? 0) + 1
            writers[victim] = try WriterProcess(folder: folder, first: next + (next % 2 == victim ? 0 : 1))
        }
        for writer in writers {
            let printed = await writer.waitForLines(writer.lines.count + 2)
            try #require(printed)
            _ = await writer.killAndWait()
            #expect(!writer.lines.contains { $0.hasPrefix("wrong bytes") })
            othersRead += writer.othersRead
            highest = max(highest, writer.highestStored ?? 0)
        }

        // Reopened, the cache knows exactly what the folder holds, within the limit, and every entry is intact.
        let numbers = 0...(highest + 64)
        let check = await onOwnThread { Self.reopen(folder, checking: numbers) }
        #expect(check.totalCount == check.files.count)
        #expect(check.totalSize == check.files.reduce(0) { $0 + $1.size })
        #expect(check.totalSize <= Self.limit)
        #expect(check.wrongEntries.isEmpty, "entries holding other bytes: \(check.wrongEntries)")
        let verified = check.entries
        #expect(verified == check.files.count, "every entry file is an entry of a writer")
        #expect(verified > 10, "too few entries survived to prove anything (\(verified))")
        #expect(othersRead > 0, "neither writer read an entry the other wrote")
        print(
            "disk cache sharing test: \(kills) SIGKILLs of one of two writers, \(othersRead) reads of the other's"
                + " entries, \(verified) surviving entries verified byte for byte"
        )
    }

    /// What a cache reopened on the folder finds.
    struct Reopened: Sendable {
        var totalSize: Int
        var totalCount: Int
        var files: [EntryFile]
        /// The entries the cache holds among those numbered.
        var entries: Int
        /// Entries whose bytes are not what their writer wrote.
        var wrongEntries: [Int]
    }

    /// Reopens a cache on the folder and reads every entry numbered in `numbers` it holds. Blocks: call on a thread
    /// of its own.
    static func reopen(_ folder: URL, checking numbers: ClosedRange<Int>) -> Reopened {
        let cache = DiskCache(directory: folder, sizeLimit: limit)
        cache.flush()
        var entries = 0
        var wrong: [Int] = []
        for number in numbers where cache.containsData(for: CrashTestEntries.key(number)) {
            entries += 1
            if cache.cachedData(for: CrashTestEntries.key(number)) != CrashTestEntries.payload(number) {
                wrong.append(number)
            }
        }
        return Reopened(
            totalSize: cache.totalSize,
            totalCount: cache.totalCount,
            files: entryFiles(folder),
            entries: entries,
            wrongEntries: wrong
        )
    }

    /// The bytes the entry files take, counted holding the folder's lock as a cache does. Blocks while a writer
    /// holds the lock.
    static func entryBytesUnderTheFolderLock(_ folder: URL) -> Int {
        let descriptor = open(folder.path + "/.ledger", O_RDWR)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        _ = flock(descriptor, LOCK_EX)
        return entryFiles(folder).reduce(0) { $0 + $1.size }
    }

    struct EntryFile: Sendable {
        var name: String
        var size: Int
    }

    static func entryFiles(_ folder: URL) -> [EntryFile] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.count == 64 }.compactMap { name in
            var info = stat()
            guard stat(folder.path + "/" + name, &info) == 0 else { return nil }
            return EntryFile(name: name, size: Int(info.st_size))
        }
    }
}

/// A `lookahead disk-writer` process writing every other entry number and reading recent entries of both writers;
/// its output lines are collected as they come.
private final class WriterProcess: @unchecked Sendable {
    // SAFETY: `collected` is only touched holding `lock`; the rest is set in `init`.
    let process = Process()
    private let lock = NSCondition()
    private var collected: [String] = []
    private var partial = Data()
    private var ended = false

    init(folder: URL, first: Int) throws {
        process.executableURL = DiskCacheCrashTests.writer
        process.arguments = [
            "disk-writer", "--directory", folder.path, "--first", String(first), "--stride", "2", "--reads", "4",
            "--size-limit", String(DiskCacheSharingTests.limit),
        ]
        let output = Pipe()
        process.standardOutput = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.receive(handle.availableData)
        }
        try process.run()
    }

    private func receive(_ chunk: Data) {
        lock.lock()
        defer {
            lock.broadcast()
            lock.unlock()
        }
        guard !chunk.isEmpty else {
            ended = true
            return
        }
        partial.append(chunk)
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
            collected.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial = Data(partial[(newline + 1)...])
        }
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }

    /// Waits until the writer has printed `count` lines; `false` if it ended first or printed nothing for a minute
    /// (a hang, not a slow machine: a line comes every four stores).
    func waitForLines(_ count: Int) async -> Bool {
        await onOwnThread { self.blockingWaitForLines(count) }
    }

    /// Kills the writer with SIGKILL and waits for it to end; whether the signal ended it.
    func killAndWait() async -> Bool {
        await onOwnThread {
            _ = kill(self.process.processIdentifier, SIGKILL)
            self.process.waitUntilExit()
            return self.process.terminationReason == .uncaughtSignal
        }
    }

    private func blockingWaitForLines(_ count: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        while collected.count < count {
            guard !ended, lock.wait(until: Date().addingTimeInterval(60)) else { return false }
        }
        return true
    }

    /// The last entry number it reported stored.
    var highestStored: Int? {
        lines.last { $0.hasPrefix("stored ") }.flatMap { Int($0.split(separator: " ")[1]) }
    }

    /// How many entries of the other writer it read, as it last reported.
    var othersRead: Int {
        lines.last { $0.hasPrefix("stored ") }.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }
}
