// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — the disk cache's entry format: the checksum kind in the header, entries of older versions or
// another checksum kind as misses, corruption and truncation caught, and a file of a size the index does not
// expect still read correctly.

import Foundation
import Testing

@testable import Lookahead

@Suite struct DiskCacheFormatTests {
    let folder = TemporaryDirectory("lookahead-disk-format")

    private func data(_ seed: Int, count: Int) -> Data {
        var generator = SplitMix64(seed: UInt64(seed))
        return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    }

    private func stored(_ key: String, _ value: Data) -> DiskCache {
        let cache = DiskCache(directory: folder.url)
        cache.storeData(value, for: key)
        cache.flush()
        return cache
    }

    private func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func theHeaderRecordsTheChecksumKindAndAChecksumOfTheData() throws {
        let value = data(1, count: 30 * 1024)
        let cache = stored("key", value)
        let file = try bytes(cache.filePath(for: "key"))
        #expect(file.count == 56 + value.count)
        #expect(Array(file.prefix(6)) == Array("LKHD".utf8) + [3, DiskCacheChecksum.kind.rawValue])
        #expect(Array(file[16..<48]) == Self.hex("2c70e12b7a0646f92279f427c7b38e7334d8e5389cff167a1dc30e73f826b683"))
        let stored = file[48..<56].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        #expect(stored == value.withUnsafeBytes { DiskCacheChecksum.checksum($0) })
        #expect(file.suffix(value.count) == value)
    }

    #if canImport(CXXHash)
    @Test func onLinuxTheChecksumIsXXH3() {
        // XXH3-64 (seed 0) of no bytes and of "abc".
        #expect(DiskCacheChecksum.kind == .xxh3)
        #expect(Data().withUnsafeBytes { DiskCacheChecksum.checksum($0) } == 0x2D06_8005_38D3_94C2)
        #expect(Data("abc".utf8).withUnsafeBytes { DiskCacheChecksum.checksum($0) } == 0x78AF_5F94_892F_3950)
    }

    /// Past 240 bytes XXH3 runs its vector loop, which the CPU's widest unit may compute: the values must be those
    /// entries were written with, at any length and alignment.
    @Test func theChecksumOfLongDataIsXXH3AtAnyAlignment() {
        let pattern = Data((0..<(30 * 1024 + 7)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        pattern.withUnsafeBytes { bytes in
            func checksum(_ range: Range<Int>) -> UInt64 {
                DiskCacheChecksum.checksum(UnsafeRawBufferPointer(rebasing: bytes[range]))
            }
            #expect(checksum(0..<bytes.count) == 0xCDCA_1B6D_6FA6_388D)
            #expect(checksum(1..<242) == 0x2E88_9DB7_2942_2CC4)
            #expect(checksum(3..<1027) == 0x78EB_ADE4_949B_9B9D)
        }
    }
    #endif

    @Test(arguments: [0, 100, 30 * 1024 - 1]) func aFlippedDataByteIsAMissAndTheEntryIsRemoved(offset: Int) throws {
        let value = data(2, count: 30 * 1024)
        let cache = stored("key", value)
        let path = cache.filePath(for: "key")
        var file = try bytes(path)
        file[56 + offset] ^= 0x10
        try file.write(to: URL(fileURLWithPath: path))
        #expect(cache.cachedData(for: "key") == nil)
        cache.flush()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!cache.containsData(for: "key"))
    }

    @Test func aFlippedChecksumByteIsAMiss() throws {
        let cache = stored("key", data(3, count: 2000))
        let path = cache.filePath(for: "key")
        var file = try bytes(path)
        file[50] ^= 0x01
        try file.write(to: URL(fileURLWithPath: path))
        #expect(cache.cachedData(for: "key") == nil)
    }

    /// A version-2 entry, valid in its own format: an 80-byte header with SHA-256s of the key and of the data.
    private func version2Entry(key: String, value: Data) -> Data {
        var header = Data("LKHD".utf8) + [2, 0, 0, 0]
        header += withUnsafeBytes(of: UInt64(value.count).littleEndian) { Data($0) }
        header += Data(key.utf8).withUnsafeBytes { Data(SHA256Digest.hash($0)) }
        header += value.withUnsafeBytes { Data(SHA256Digest.hash($0)) }
        return header + value
    }

    @Test func aVersion2EntryFoundAfterTheMigrationIsAMissAndIsRemoved() throws {
        do {
            _ = stored("other", data(4, count: 100))  // the folder is migrated: its marker says 3
        }
        // An older program added a version-2 entry; the marker spares the next open a scan of headers.
        let path = folder.path + "/" + DiskCacheFile.name(for: "key")
        try version2Entry(key: "key", value: data(5, count: 3000)).write(to: URL(fileURLWithPath: path))
        let cache = DiskCache(directory: folder.url)
        cache.flush()
        #expect(cache.containsData(for: "key"))  // indexed by the scan, by name and size
        #expect(cache.cachedData(for: "key") == nil)
        cache.flush()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!cache.containsData(for: "key"))
        #expect(cache.cachedData(for: "other") == data(4, count: 100))
    }

    @Test func version2EntriesAreRemovedWhenAFolderOfThatVersionIsOpened() async throws {
        try "2\n".write(
            to: folder.url.appendingPathComponent(DiskCacheFile.formatMarkerName),
            atomically: true,
            encoding: .utf8
        )
        for n in 0..<3 {
            try version2Entry(key: "key-\(n)", value: data(n, count: 500))
                .write(to: folder.url.appendingPathComponent(DiskCacheFile.name(for: "key-\(n)")))
        }
        let cache = DiskCache(directory: folder.url)
        await cache.flush()
        #expect(cache.totalCount == 0)
        for n in 0..<3 { #expect(cache.cachedData(for: "key-\(n)") == nil) }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter(DiskCacheFile.isEntryName)
        #expect(left.isEmpty)
        let marker = try String(
            contentsOf: folder.url.appendingPathComponent(DiskCacheFile.formatMarkerName),
            encoding: .utf8
        )
        #expect(marker == "3\n")
    }

    @Test func anEntryWithAnotherChecksumKindIsAMissAndIsRemoved() throws {
        let cache = stored("key", data(6, count: 2000))
        let path = cache.filePath(for: "key")
        var file = try bytes(path)
        file[5] = DiskCacheChecksum.kind == .xxh3 ? DiskCacheChecksum.Kind.truncatedSHA256.rawValue : 1
        try file.write(to: URL(fileURLWithPath: path))
        #expect(cache.cachedData(for: "key") == nil)
        cache.flush()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: [0, 4, 5, 55, 56, 57, 56 + 1999])
    func aTruncatedFileIsAMissAndIsRemoved(length: Int) throws {
        let cache = stored("key", data(7, count: 2000))
        let path = cache.filePath(for: "key")
        try bytes(path).prefix(length).write(to: URL(fileURLWithPath: path))
        #expect(cache.cachedData(for: "key") == nil)
        cache.flush()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFileWithBytesAfterItsDataIsAMiss() throws {
        let cache = stored("key", data(8, count: 2000))
        let path = cache.filePath(for: "key")
        try (bytes(path) + [0]).write(to: URL(fileURLWithPath: path))
        #expect(cache.cachedData(for: "key") == nil)
    }

    @Test func anEntryReplacedWithAValidOneOfAnotherSizeIsRead() throws {
        // The index expects 2000 bytes of data; the file now holds a valid 5000-byte entry for the same key (as
        // another program's cache on the folder would write): the one-read path misses, the measuring path reads it.
        let cache = stored("key", data(9, count: 2000))
        let replacement = data(10, count: 5000)
        let file = Data(DiskCacheFile.header(keyDigest: DiskCacheFile.keyDigest(for: "key"), data: replacement))
        try (file + replacement).write(to: URL(fileURLWithPath: cache.filePath(for: "key")))
        #expect(cache.cachedData(for: "key") == replacement)
    }

    @Test func aReaderReadsEntriesItsIndexDoesNotKnowByMeasuring() throws {
        let writer = stored("key", data(11, count: 30 * 1024))
        let reader = DiskCache(directory: folder.url)
        reader.flush()  // its index is loaded: it knows "key"
        writer.storeData(data(12, count: 10), for: "later")
        writer.flush()
        #expect(reader.cachedData(for: "later") == data(12, count: 10))  // unknown size: fstat, header, data
        #expect(reader.cachedData(for: "key") == data(11, count: 30 * 1024))  // known size: one readv
    }

    @Test func sha256MatchesTheStandardsTestVectors() {
        // FIPS 180-2, appendix B, and the empty message.
        #expect(
            Data("abc".utf8).withUnsafeBytes(SHA256Digest.hash)
                == Self.hex(
                    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
                )
        )
        #expect(
            Data().withUnsafeBytes(SHA256Digest.hash)
                == Self.hex(
                    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
                )
        )
        let long = Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(
            long.withUnsafeBytes(SHA256Digest.hash)
                == Self.hex(
                    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
                )
        )
    }

    private static func hex(_ string: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = string.startIndex
        while index < string.endIndex {
            let next = string.index(index, offsetBy: 2)
            bytes.append(UInt8(string[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }
}
