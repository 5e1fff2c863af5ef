// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// The index of a folder as it was at one generation of its ledger (``DiskCacheLedger``), saved in the folder as
/// `.index`:
///
/// ```
/// offset  size  field
///      0     8  magic "LKINDEX" and the format version (1)
///      8     8  checksum (``DiskCacheChecksum``) of everything after it
///     16     8  the folder's generation when it was taken
///     24     8  entry count
///     32     8  total size of the entries, bytes
///     40     1  checksum kind; 7 bytes reserved, zero
///     48  40×n  records, least recently used first: the entry's name (32 bytes of SHA-256), its file size and
///               when its modification time was last set (seconds since 1970), 4 bytes each
/// ```
///
/// All numbers are little endian. Every change to the folder advances the generation before and after it, so a snapshot
/// whose generation is the ledger's describes the folder exactly; any other is ignored.
struct DiskCacheIndexSnapshot: Equatable {
    struct Record: Equatable {
        var name: DiskCacheIndex.Name
        var size: UInt32
        var touchedAt: UInt32
    }

    /// Records with their recency, in no order.
    typealias Unsorted = [(record: Record, tick: UInt64)]

    static let fileName = ".index"
    private static let magic: UInt64 = 0x01_58_45_44_4E_49_4B_4C  // "LKINDEX", version 1
    static let headerSize = 48
    static let recordSize = 40

    var generation: UInt64
    var totalSize: Int
    /// Least recently used first.
    var records: [Record]
}

extension DiskCacheIndexSnapshot {
    func encoded() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.headerSize + records.count * Self.recordSize)
        var offset = Self.headerSize
        for record in records {
            record.name.store(into: &bytes, at: offset)
            DiskCacheFile.store(UInt64(record.size), into: &bytes, at: offset + 32, size: 4)
            DiskCacheFile.store(UInt64(record.touchedAt), into: &bytes, at: offset + 36, size: 4)
            offset += Self.recordSize
        }
        DiskCacheFile.store(Self.magic, into: &bytes, at: 0, size: 8)
        DiskCacheFile.store(generation, into: &bytes, at: 16, size: 8)
        DiskCacheFile.store(UInt64(records.count), into: &bytes, at: 24, size: 8)
        DiskCacheFile.store(UInt64(max(0, totalSize)), into: &bytes, at: 32, size: 8)
        bytes[40] = DiskCacheChecksum.kind.rawValue
        let checksum = bytes.withUnsafeBytes { DiskCacheChecksum.checksum(UnsafeRawBufferPointer(rebasing: $0[16...])) }
        DiskCacheFile.store(checksum, into: &bytes, at: 8, size: 8)
        return bytes
    }

    /// Parses a snapshot; `nil` unless every check passes (magic, checksum, length, total).
    init?(decoding bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.headerSize, Self.load(bytes, 0) == Self.magic,
            Self.load(bytes, 8) == DiskCacheChecksum.checksum(UnsafeRawBufferPointer(rebasing: bytes[16...])),
            bytes[40] == DiskCacheChecksum.kind.rawValue
        else { return nil }
        let count = Self.load(bytes, 24)
        guard count <= UInt64(Int.max / Self.recordSize), bytes.count == Self.headerSize + Int(count) * Self.recordSize
        else { return nil }
        generation = Self.load(bytes, 16)
        var records: [Record] = []
        records.reserveCapacity(Int(count))
        var sum = 0
        var offset = Self.headerSize
        for _ in 0..<Int(count) {
            let size = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 32, as: UInt32.self))
            let touchedAt = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 36, as: UInt32.self))
            records.append(
                Record(name: DiskCacheIndex.Name(bytes: bytes, at: offset), size: size, touchedAt: touchedAt)
            )
            sum += Int(size)
            offset += Self.recordSize
        }
        guard UInt64(sum) == Self.load(bytes, 32) else { return nil }
        totalSize = sum
        self.records = records
    }

    /// A snapshot of records copied from an index, put in their order of use.
    init(generation: UInt64, unsorted: Unsorted) {
        var unsorted = unsorted
        unsorted.sort { $0.tick < $1.tick }
        self.init(
            generation: generation,
            totalSize: unsorted.reduce(0) { $0 + Int($1.record.size) },
            records: unsorted.map(\.record)
        )
    }

    /// Reads the snapshot in a folder; `nil` when there is none or it fails a check.
    static func read(directory: String) -> Self? {
        let descriptor = open(directory + "/" + fileName, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size >= headerSize, info.st_size <= Int(Int32.max) else {
            return nil
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(info.st_size), alignment: 8)
        defer { buffer.deallocate() }
        guard DiskCacheFile.readFully(descriptor, buffer) else { return nil }
        return Self(decoding: UnsafeRawBufferPointer(buffer))
    }

    /// Saves the snapshot in a folder, atomically.
    func write(directory: String) throws(DiskCacheFile.IOError) {
        let temporary = try DiskCacheFile.writeTemporary(directory: directory, parts: [encoded()], synchronize: false)
        try DiskCacheFile.install(temporaryName: temporary, as: Self.fileName, in: directory)
    }

    /// Removes the snapshot of a folder (tests).
    static func remove(directory: String) {
        unlink(directory + "/" + fileName)
    }

    /// The 8 bytes at `offset`, little endian.
    private static func load(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
