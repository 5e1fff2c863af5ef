// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// What the caches on one folder share, in any process: a lock around every change, the bytes the entries take, and a
/// generation that every change advances. The lock is never held while waiting for anything else: iOS ends a
/// suspended app that holds a lock on a file in a shared container.
final class DiskCacheLedger: Sendable {
    struct Values: Equatable {
        var totalSize: Int
        var generation: UInt64
    }

    /// The ledger while its lock is held.
    struct Held {
        fileprivate let descriptor: Int32
        /// `false` when the ledger file could not be opened again: the change runs without the lock.
        let isLocked: Bool
        /// `nil` when the file holds no valid record (new, or its last write failed): the holder counts again.
        var values: Values?

        /// A change made without the lock, by a cache that has no ledger file.
        static let unlocked = Held(descriptor: -1, isLocked: false, values: nil)

        /// Writes the values; a write that fails empties the file, so the next holder counts again.
        func save() {
            guard isLocked, let values else { return }
            var record = [UInt8](repeating: 0, count: DiskCacheLedger.recordSize)
            DiskCacheFile.store(DiskCacheLedger.magic, into: &record, at: 0, size: 8)
            DiskCacheFile.store(UInt64(max(0, values.totalSize)), into: &record, at: 8, size: 8)
            DiskCacheFile.store(values.generation, into: &record, at: 16, size: 8)
            let written = record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            if written != record.count { _ = ftruncate(descriptor, 0) }
        }
    }

    static let fileName = ".ledger"
    private static let magic: UInt64 = 0x01_52_47_44_45_4C_4B_4C  // "LKLEDGR", version 1
    private static let recordSize = 24

    private let path: String
    private let directory: String
    /// Read only, for ``peekGeneration()``, so the file system can still be remounted read-only.
    private let reader: Locked<(descriptor: Int32, inode: UInt64)>

    /// Opens (creating if needed) the ledger of a folder that exists.
    init(directory: String) throws(DiskCacheFile.IOError) {
        self.directory = directory
        self.path = directory + "/" + Self.fileName
        close(try Self.openFile(path, O_RDWR | O_CREAT))
        reader = Locked(try Self.openReader(path))
    }

    deinit { reader.withLock { _ = close($0.descriptor) } }

    /// The generation, read without the lock; `nil` when the file holds no valid record.
    func peekGeneration() -> UInt64? { reader.withLock { Self.read($0.descriptor)?.generation } }

    /// Runs `body` holding the folder's lock, making the ledger file again if it was deleted with its folder.
    func withLock<Result>(_ body: (inout Held) -> Result) -> Result {
        for attempt in 1...3 {
            if attempt > 1 { DiskCacheFile.prepareDirectory(directory) }
            guard let descriptor = try? Self.openFile(path, O_RDWR | O_CREAT) else { continue }
            defer { close(descriptor) }  // lets the lock go
            var result = flock(descriptor, LOCK_EX)
            while result != 0, errno == EINTR { result = flock(descriptor, LOCK_EX) }
            guard result == 0 else { break }
            // The file locked must still be the one at the path, or another cache would lock another file.
            var info = stat()
            var atPath = stat()
            let isCurrent =
                fstat(descriptor, &info) == 0 && stat(path, &atPath) == 0 && info.st_ino == atPath.st_ino
                && info.st_dev == atPath.st_dev
            guard isCurrent || attempt == 3 else { continue }
            if reader.withLock({ $0.inode }) != UInt64(info.st_ino), let replacement = try? Self.openReader(path) {
                reader.withLock { current in
                    close(current.descriptor)
                    current = replacement
                }
            }
            var held = Held(descriptor: descriptor, isLocked: true, values: Self.read(descriptor))
            return body(&held)
        }
        var held = Held.unlocked
        return body(&held)
    }

    private static func openFile(_ path: String, _ flags: Int32) throws(DiskCacheFile.IOError) -> Int32 {
        let descriptor = open(path, flags | O_CLOEXEC, DiskCacheFile.fileMode)
        guard descriptor >= 0 else { throw DiskCacheFile.IOError(operation: "open ledger", code: errno) }
        if flags & O_CREAT != 0 { DiskCacheFile.tighten(descriptor: descriptor, to: DiskCacheFile.fileMode) }
        return descriptor
    }

    private static func openReader(_ path: String) throws(DiskCacheFile.IOError) -> (descriptor: Int32, inode: UInt64) {
        let descriptor = try openFile(path, O_RDONLY)
        var info = stat()
        return (descriptor, fstat(descriptor, &info) == 0 ? UInt64(info.st_ino) : 0)
    }

    private static func read(_ descriptor: Int32) -> Values? {
        var record = [UInt8](repeating: 0, count: recordSize)
        let count = record.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return count == recordSize ? record.withUnsafeBytes(values(record:)) : nil
    }

    /// The values of a record: `nil` unless it is a whole record of this version with a size that fits in `Int`.
    static func values(record bytes: UnsafeRawBufferPointer) -> Values? {
        guard bytes.count == recordSize, DiskCacheFile.load(bytes, at: 0) == magic else { return nil }
        let total = DiskCacheFile.load(bytes, at: 8)
        guard total <= UInt64(Int.max) else { return nil }
        return Values(totalSize: Int(total), generation: DiskCacheFile.load(bytes, at: 16))
    }
}
