// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — an entry file verified once is trusted while it is unchanged, and verified again once it changes.

import Foundation
import Testing

@testable import Lookahead

@Suite struct DiskCacheTrustTests {
    let folder = TemporaryDirectory("lookahead-trust")

    private func stamp(_ path: String) throws -> DiskCacheFile.Stamp {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return DiskCacheFile.Stamp(info)
    }

    /// Flips a byte of the data in place: same inode, same size.
    private func flipByte(_ path: String) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let offset = try handle.seekToEnd() - 10
        try handle.seek(toOffset: offset)
        let byte = try handle.read(upToCount: 1)![0]
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data([byte ^ 0x01]))
    }

    private func entry(_ cache: DiskCache, key: String) -> (path: String, digest: [UInt8]) {
        (cache.filePath(for: key), DiskCacheFile.keyDigest(for: key))
    }

    private func read(
        _ entry: (path: String, digest: [UInt8]),
        touch: Bool = false,
        trusted: DiskCacheFile.Stamp? = nil,
        now: Double = Date().timeIntervalSince1970
    ) -> (result: DiskCacheFile.ReadResult, verified: DiskCacheFile.Stamp?) {
        let descriptor = open(entry.path, O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        return DiskCacheFile.read(
            descriptor: descriptor,
            keyName: DiskCacheIndex.Name(digest: entry.digest),
            expectedFileSize: nil,
            touch: touch,
            trusted: trusted,
            now: now
        )
    }

    @Test func aTrustedStampSkipsTheChecksumAndAnyOtherStampDoesNot() throws {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(Data(repeating: 7, count: 4000), for: "key")
        cache.flush()
        let (path, digest) = entry(cache, key: "key")
        try flipByte(path)
        let current = try stamp(path)

        // The stamp of the file as it is now: trusted, so the flipped byte goes unnoticed. (The cache itself
        // never holds such a stamp: it records one only after verifying the file, and any write changes it.)
        let trusted = read((path, digest), trusted: current)
        guard case .hit = trusted.result else {
            Issue.record("expected the checksum to be skipped, got \(trusted.result)")
            return
        }
        var older = current
        older.changedNanoseconds += 1
        let checked = read((path, digest), trusted: older)
        guard case .corrupt = checked.result else {
            Issue.record("expected the checksum mismatch, got \(checked.result)")
            return
        }
        #expect(checked.verified == nil)
    }

    @Test func onlyAFileUnchangedForOverASecondIsTrusted() throws {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(Data(repeating: 3, count: 2000), for: "key")
        cache.flush()
        let (path, digest) = entry(cache, key: "key")
        let changed = Double(try stamp(path).changedSeconds)

        let fresh = read((path, digest), now: changed + 0.5)
        #expect(fresh.verified == nil, "a change in the same second could leave the same time")
        let settled = read((path, digest), now: changed + 5)
        #expect(settled.verified == (try stamp(path)))
        let touched = read((path, digest), touch: true, now: changed + 5)
        #expect(touched.verified == nil, "touching the file changes its stamp")
    }

    @Test func aFileChangedAfterAHitIsVerifiedAgain() throws {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(Data(repeating: 9, count: 5000), for: "key")
        cache.flush()
        #expect(cache.cachedData(for: "key") == Data(repeating: 9, count: 5000))
        #expect(cache.cachedData(for: "key") == Data(repeating: 9, count: 5000))
        try flipByte(cache.filePath(for: "key"))
        #expect(cache.cachedData(for: "key") == nil)
        cache.flush()
        #expect(!FileManager.default.fileExists(atPath: cache.filePath(for: "key")))
    }
}
