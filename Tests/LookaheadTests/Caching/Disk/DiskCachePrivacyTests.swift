// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — DiskCache privacy: a 0700 folder, 0600 files, no key in any entry, and the migration that
// removes entries of the older format, which held their keys.

import Foundation
import Testing

@testable import Lookahead

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct DiskCachePrivacyTests {
    let folder = TemporaryDirectory("lookahead-disk-privacy")
    let secretKey = "https://user:secret@images.example.com/photo.jpg?token=abc123xyz"

    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }

    private func files(in path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    @Test func aNewFolderIs0700AndEveryFileInIt0600() async throws {
        let path = folder.path + "/nested/cache"
        let cache = DiskCache(directory: URL(fileURLWithPath: path))
        cache.storeData(Data(repeating: 7, count: 300), for: secretKey)
        await cache.flush()
        #expect(mode(path) == 0o700)
        let names = files(in: path)
        #expect(names.contains(DiskCacheLedger.fileName))
        #expect(names.contains(DiskCacheFile.formatMarkerName))
        #expect(names.contains { DiskCacheFile.isEntryName($0) })
        for name in names {
            #expect(mode(path + "/" + name) == 0o600, "\(name) is \(String(mode(path + "/" + name) ?? 0, radix: 8))")
        }
    }

    @Test func anExistingFolderAndLedgerAreTightened() throws {
        let path = folder.path + "/loose"
        #expect(mkdir(path, 0o755) == 0)
        #expect(chmod(path, 0o755) == 0)
        #expect(FileManager.default.createFile(atPath: path + "/" + DiskCacheLedger.fileName, contents: nil))
        #expect(chmod(path + "/" + DiskCacheLedger.fileName, 0o644) == 0)
        let cache = DiskCache(directory: URL(fileURLWithPath: path))
        cache.flush()
        #expect(!cache.isReadOnly)
        #expect(mode(path) == 0o700)
        #expect(mode(path + "/" + DiskCacheLedger.fileName) == 0o600)
    }

    @Test func noEntryFileHoldsTheKey() async throws {
        let cache = DiskCache(directory: folder.url)
        let data = Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        cache.storeData(data, for: secretKey)
        await cache.flush()
        #expect(cache.cachedData(for: secretKey) == data)
        let entry = try Data(contentsOf: URL(fileURLWithPath: cache.filePath(for: secretKey)))
        #expect(entry.count == DiskCacheFile.fileSize(dataCount: data.count))
        for secret in [secretKey, "secret", "token=abc123xyz", "user:", "images.example.com"] {
            #expect(entry.range(of: Data(secret.utf8)) == nil, "the entry holds \(secret)")
        }
        // Nothing else in the folder names it either.
        for name in files(in: folder.path) {
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent(name))
            #expect(bytes.range(of: Data("secret".utf8)) == nil, "\(name) holds the password")
            #expect(!name.contains("secret"))
        }
    }

    /// An entry in the format-1 layout: magic, version 1, key length, data length, checksum, then the key in plain
    /// text and the data.
    private func writeVersion1Entry(key: String, data: Data) throws {
        var bytes = Data("LKHD".utf8) + [1, 0, 0, 0]
        let keyBytes = Data(key.utf8)
        bytes += withUnsafeBytes(of: UInt32(keyBytes.count).littleEndian) { Data($0) }
        bytes += withUnsafeBytes(of: UInt64(data.count).littleEndian) { Data($0) }
        bytes += Data(repeating: 0, count: 32)
        bytes += keyBytes + data
        try bytes.write(to: folder.url.appendingPathComponent(DiskCacheFile.name(for: key)))
    }

    @Test func entriesOfTheOldFormatAreRemovedAtOpenLoggedOnceAndNeverServed() async throws {
        for n in 0..<3 { try writeVersion1Entry(key: "\(secretKey)&n=\(n)", data: Data(repeating: 1, count: 100)) }
        let recorder = LogRecorder()
        do {
            let cache = DiskCache(directory: folder.url, logger: recorder.logger())
            await cache.flush()
            for n in 0..<3 { #expect(cache.cachedData(for: "\(secretKey)&n=\(n)") == nil) }
            #expect(cache.totalCount == 0)
            #expect(!files(in: folder.path).contains { DiskCacheFile.isEntryName($0) })
        }
        let notices = recorder.all.filter { $0.level == .notice }
        #expect(notices.count == 1)
        #expect(notices.first?.message.contains("Removed 3 disk cache entries of an older format") == true)

        // Reopened: nothing left to migrate, nothing logged.
        let quiet = LogRecorder()
        let second = DiskCache(directory: folder.url, logger: quiet.logger())
        await second.flush()
        #expect(!second.isReadOnly)
        #expect(quiet.all.filter { $0.level >= .notice }.isEmpty)
    }

    @Test func anOldEntryFoundAfterTheMigrationIsAMissAndIsRemoved() async throws {
        do {
            let cache = DiskCache(directory: folder.url)
            await cache.flush()  // migrated: the marker is written
        }
        // An older program, holding the lock for a while, added an entry in the old format.
        try writeVersion1Entry(key: secretKey, data: Data(repeating: 2, count: 100))
        let cache = DiskCache(directory: folder.url)
        await cache.flush()
        let path = cache.filePath(for: secretKey)
        #expect(FileManager.default.fileExists(atPath: path))  // the marker says migrated: no scan of headers
        #expect(cache.cachedData(for: secretKey) == nil)
        await cache.flush()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(cache.totalCount == 0)
    }

    @Test func aFlushedEntryIsSeenByAFreshCacheOnTheFolder() async throws {
        do {
            let first = DiskCache(directory: folder.url)
            first.storeData(Data(repeating: 9, count: 5000), for: secretKey)
            await first.flush()
        }  // released: its lock is gone
        let fresh = DiskCache(directory: folder.url)
        #expect(!fresh.isReadOnly)
        #expect(fresh.cachedData(for: secretKey) == Data(repeating: 9, count: 5000))
    }

    @Test func thePipelineFlushWaitsForTheDiskCache() async throws {
        let key = "https://example.com/flushed.jpg"
        do {
            let disk = DiskCache(directory: folder.url)
            let pipeline = ImagePipeline {
                $0.dataLoader = GatedDataLoader(isGated: false)
                $0.diskCache = disk
            }
            _ = try await pipeline.image(for: URL(string: key)!)
            await pipeline.flush()
        }
        let fresh = DiskCache(directory: folder.url)
        #expect(!fresh.isReadOnly)
        #expect(fresh.cachedData(for: key) == TestImages.jpeg)
    }

    @Test func aCustomCacheCompilesWithoutFlushAndFlushingItReturns() async {
        struct NoopCache: DataCaching {
            func cachedData(for key: String) -> Data? { nil }
            func storeData(_ data: Data, for key: String) {}
            func removeData(for key: String) {}
            func removeAll() {}
        }
        let pipeline = ImagePipeline { $0.diskCache = NoopCache() }
        await pipeline.flush()
        #expect(pipeline.configuration.diskCache is NoopCache)
    }
}
