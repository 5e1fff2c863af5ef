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

    func run() throws {
        let cache = DiskCache(directory: URL(fileURLWithPath: directory), sizeLimit: sizeLimit)
        guard !cache.isReadOnly else {
            emit("locked")
            throw ExitCode(2)
        }
        emit("ready")
        var number = first
        while true {
            cache.storeData(CrashTestEntries.payload(number), for: CrashTestEntries.key(number))
            if number % 4 == 0 {
                cache.flush()
                emit("stored \(number)")
            }
            number += 1
        }
    }

    /// Writes a line straight to standard output, unbuffered, so the test sees it before the kill.
    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
