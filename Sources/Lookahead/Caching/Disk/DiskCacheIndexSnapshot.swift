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
/// All numbers are little endian. A snapshot whose generation is not the ledger's is ignored.
struct DiskCacheIndexSnapshot: Equatable {
    struct Record: Equatable {
        var name: DiskCacheIndex.Name
        var size: UInt32
        var touchedAt: UInt32
    }

    typealias Unsorted = [(record: Record, tick: UInt64)]

    static let fileName = ".index"
    private static let magic: UInt64 = 0x01_58_45_44_4E_49_4B_4C  // "LKINDEX", version 1
    static let headerSize = 48
    static let recordSize = 40

    var generation: UInt64
    var totalSize: Int
    var records: [Record]
}

extension DiskCacheIndexSnapshot {
    func encoded() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.headerSize + records.count * Self.recordSize)
        for (index, record) in records.enumerated() {
            let offset = Self.headerSize + index * Self.recordSize
            record.name.store(into: &bytes, at: offset)
            DiskCacheFile.store(UInt64(record.size), into: &bytes, at: offset + 32, size: 4)
            DiskCacheFile.store(UInt64(record.touchedAt), into: &bytes, at: offset + 36, size: 4)
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
        func load(_ offset: Int) -> UInt64 { DiskCacheFile.load(bytes, at: offset) }
        func load32(_ offset: Int) -> UInt32 {
            UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        let recordBytes = bytes.count - Self.headerSize
        guard recordBytes >= 0, load(0) == Self.magic, bytes[40] == DiskCacheChecksum.kind.rawValue,
            load(8) == DiskCacheChecksum.checksum(UnsafeRawBufferPointer(rebasing: bytes[16...])),
            recordBytes % Self.recordSize == 0, load(24) == UInt64(recordBytes / Self.recordSize)
        else { return nil }
        generation = load(16)
        records = stride(from: Self.headerSize, to: bytes.count, by: Self.recordSize).map { offset in
            Record(
                name: DiskCacheIndex.Name(bytes: bytes, at: offset),
                size: load32(offset + 32),
                touchedAt: load32(offset + 36)
            )
        }
        totalSize = records.reduce(0) { $0 + Int($1.size) }
        guard UInt64(totalSize) == load(32) else { return nil }
    }

    /// A snapshot of records copied from an index, put in their order of use.
    init(generation: UInt64, unsorted: Unsorted) {
        let records = unsorted.sorted { $0.tick < $1.tick }.map(\.record)
        self.init(generation: generation, totalSize: records.reduce(0) { $0 + Int($1.size) }, records: records)
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
    static func remove(directory: String) { unlink(directory + "/" + fileName) }
}
