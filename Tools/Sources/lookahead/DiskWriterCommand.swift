// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead CLI — `lookahead disk-writer`: writes disk-cache entries until killed (for crash-consistency tests).

import ArgumentParser
import Foundation
import Lookahead
import LookaheadFixtures

/// Opens a disk cache and stores deterministic entries in a loop, printing how many it stored, until it is
/// killed. The crash-consistency test kills it with SIGKILL at random moments and checks what survived.
struct DiskWriterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disk-writer",
        abstract: "Store deterministic disk-cache entries in a loop until killed (a test helper).",
        shouldDisplay: false
    )

    @Option(help: "The cache folder.")
    var directory: String

    @Option(help: "The first entry number.")
    var first = 0

    @Option(help: "The cache size limit in bytes.")
    var sizeLimit = 2 << 20

    @Option(help: "The step between entry numbers: two writers with a stride of 2 take the even and the odd ones.")
    var stride = 1

    @Option(help: "After each store, read this many entries among the 128 numbers below it, of any writer.")
    var reads = 0

    func run() throws {
        let cache = DiskCache(directory: URL(fileURLWithPath: directory), sizeLimit: sizeLimit)
        guard !cache.isReadOnly else {
            emit("unwritable")
            throw ExitCode(2)
        }
        emit("ready")
        // A test helper: it stops when the test that started it is gone rather than outlive it.
        let parent = getppid()
        var number = first
        var stored = 0
        var othersRead = 0
        var generator = SystemRandomNumberGenerator()
        while getppid() == parent {
            cache.storeData(CrashTestEntries.payload(number), for: CrashTestEntries.key(number))
            for _ in 0..<reads {
                let other = number - Int.random(in: 1...128, using: &generator)
                guard other >= 0, let data = cache.cachedData(for: CrashTestEntries.key(other)) else { continue }
                guard data == CrashTestEntries.payload(other) else {
                    emit("wrong bytes for entry \(other)")
                    throw ExitCode(3)
                }
                if (other - first) % stride != 0 { othersRead += 1 }
            }
            stored += 1
            if stored % 4 == 0 {
                cache.flush()
                emit(reads > 0 ? "stored \(number) others-read \(othersRead)" : "stored \(number)")
            }
            number += stride
        }
        throw ExitCode(4)
    }

    /// Writes a line straight to standard output, unbuffered, so the test sees it before the kill. A reader gone
    /// (the test ended) ends the writer.
    private func emit(_ line: String) {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            Foundation.exit(4)
        }
    }
}
