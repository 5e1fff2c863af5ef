// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

#if canImport(CXXHash)
import CXXHash
#endif

/// One entry file:
///
/// ```
/// offset  size  field
///      0     4  magic "LKHD"
///      4     1  format version (3)
///      5     1  checksum kind (``DiskCacheChecksum/Kind``: 1 XXH3-64, 2 truncated SHA-256)
///      6     2  reserved, zero
///      8     8  data length, little endian
///     16    32  SHA-256 of the key (UTF-8)
///     48     8  checksum of the data, little endian
///     56     …  data
/// ```
///
/// The key itself is never written: URLs can carry credentials and tokens. Entries of other versions are removed
/// when a writer opens the folder (``migrate(directory:)``). Folders are `0700` and files `0600`.
enum DiskCacheFile {
    static let headerSize = 56
    static let magic: [UInt8] = Array("LKHD".utf8)
    static let version: UInt8 = 3
    /// The file recording the entry format a folder was migrated to.
    static let formatMarkerName = ".format"
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    enum ReadResult {
        case hit(Data)
        case missing
        case corrupt(String)
        /// An entry of another format version or checksum kind, never served.
        case foreign(String)
    }

    struct IOError: Error, CustomStringConvertible {
        let operation: String
        let code: Int32
        var description: String { "\(operation): \(String(cString: strerror(code))) (errno \(code))" }
        var isOutOfSpaceOrReadOnly: Bool { [ENOSPC, EDQUOT, EROFS, EACCES, EPERM].contains(code) }
    }

    /// The SHA-256 of a key's UTF-8 bytes: the entry's name (in hex) and its header's digest.
    static func keyName(for key: String) -> DiskCacheIndex.Name {
        var key = key
        return key.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(byteCount: 32, alignment: 8) { digest in
                SHA256Digest.hash(UnsafeRawBufferPointer(utf8), into: digest)
                return DiskCacheIndex.Name(bytes: UnsafeRawBufferPointer(digest), at: 0)
            }
        }
    }

    /// ``keyName(for:)`` as the 32 bytes a header holds.
    static func keyDigest(for key: String) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        keyName(for: key).store(into: &digest, at: 0)
        return digest
    }

    /// The file name of a key, in hex: no key can reach outside the folder.
    static func name(for key: String) -> String { keyName(for: key).string }

    /// Seconds within which a read keeps an entry's modification time: on disk, recency only matters at relaunch.
    static let touchInterval = 60

    /// Whether a directory entry is an entry file (64 lowercase hex digits).
    static func isEntryName(_ name: String) -> Bool { isEntryName(name.utf8) }

    static func isEntryName(_ name: some Collection<UInt8>) -> Bool {
        name.count == 64 && name.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    static func fileSize(dataCount: Int) -> Int { headerSize + dataCount }

    /// Reads and verifies an open entry file of `keyName`, and sets its modification time if `touch`. While the
    /// file's stamp is still `trusted` its checksum is not computed again; `expectedFileSize` serves when `fstat`
    /// fails. Returns the result, and the file's stamp when its checksum was verified and the stamp is trustworthy.
    static func read(
        descriptor: Int32,
        keyName: DiskCacheIndex.Name,
        expectedFileSize: Int?,
        touch: Bool,
        trusted: Stamp?,
        now: Double
    ) -> (result: ReadResult, verified: Stamp?) {
        var info = stat()
        let stamp = fstat(descriptor, &info) == 0 ? Stamp(info) : nil
        let checksums = stamp == nil || stamp != trusted
        guard let fileSize = stamp.map({ Int($0.size) }) ?? expectedFileSize else {
            return (.corrupt("fstat failed"), nil)
        }
        let result = readWhole(descriptor, fileSize: fileSize, keyName: keyName, checksums: checksums)
        guard case .hit = result else { return (result, nil) }
        if touch {
            _ = futimens(descriptor, nil)  // changes the status-change time: the stamp is void
            return (result, nil)
        }
        return (result, checksums ? stamp.flatMap { $0.isTrustworthy(now: now) ? $0 : nil } : nil)
    }

    /// What an entry that cannot be opened is: a miss when it is not there, else unreadable.
    static func openFailure(_ code: Int32) -> ReadResult {
        code == ENOENT || code == ENOTDIR ? .missing : .corrupt("unreadable: \(String(cString: strerror(code)))")
    }

    /// What changes whenever an entry file is written, replaced or touched (no program can set the ctime back).
    struct Stamp: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var changedSeconds: Int
        var changedNanoseconds: Int

        init(_ info: stat) {
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
            size = Int64(info.st_size)
            #if canImport(Darwin)
            changedSeconds = Int(info.st_ctimespec.tv_sec)
            changedNanoseconds = Int(info.st_ctimespec.tv_nsec)
            #else
            changedSeconds = Int(info.st_ctim.tv_sec)
            changedNanoseconds = Int(info.st_ctim.tv_nsec)
            #endif
        }

        /// Whether a later change is sure to show: the file last changed over a second ago.
        func isTrustworthy(now: Double) -> Bool { Double(changedSeconds) < now.rounded(.down) - 1 }
    }

    /// Reads and verifies a whole file of `fileSize` bytes: a hit hands out the data where it lies.
    private static func readWhole(
        _ descriptor: Int32,
        fileSize: Int,
        keyName: DiskCacheIndex.Name,
        checksums: Bool
    ) -> ReadResult {
        guard let storage = malloc(max(1, fileSize)) else { return .corrupt("out of memory") }
        let file = UnsafeMutableRawBufferPointer(start: storage, count: fileSize)
        let result =
            readFully(descriptor, file)
            ? verify(UnsafeRawBufferPointer(file), keyName: keyName, checksums: checksums) : .corrupt("short read")
        guard case .hit = result else {
            free(storage)
            return result
        }
        return .hit(
            Data(
                bytesNoCopy: storage + headerSize,
                count: fileSize - headerSize,
                deallocator: .custom { data, _ in free(data - headerSize) }
            )
        )
    }

    /// Checks a whole file; `.hit` with empty data when all matches.
    static func verify(_ file: UnsafeRawBufferPointer, keyName: DiskCacheIndex.Name, checksums: Bool) -> ReadResult {
        guard file.count >= 5 else { return .corrupt("truncated header (\(file.count) bytes)") }
        guard file[0..<4].elementsEqual(magic) else { return .corrupt("bad magic") }
        guard file[4] == version else { return .foreign("of format version \(file[4])") }
        guard file.count >= headerSize else { return .corrupt("truncated header (\(file.count) bytes)") }
        guard file[5] == DiskCacheChecksum.kind.rawValue else {
            return .foreign("with a checksum of another kind (\(file[5]))")
        }
        let dataLength = load(file, at: 8)
        guard DiskCacheIndex.Name(bytes: file, at: 16) == keyName else { return .corrupt("key mismatch") }
        let data = UnsafeRawBufferPointer(rebasing: file[headerSize...])
        guard dataLength == UInt64(data.count) else {
            return .corrupt("length mismatch: header says \(dataLength), file holds \(data.count)")
        }
        guard !checksums || DiskCacheChecksum.checksum(data) == load(file, at: 48) else {
            return .corrupt("checksum mismatch")
        }
        return .hit(Data())
    }

    /// Fills the buffer from the start of a file; `false` on an error or a file too short.
    static func readFully(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}

/// The checksum of an entry's data, verified on every hit: it detects corruption, not tampering (the folder is private
/// to its user). XXH3-64 where libxxhash is linked (Linux), else the first 8 bytes of a SHA-256 (``Kind``).
enum DiskCacheChecksum {
    /// XXH3-64 with seed 0, or the first 8 bytes of a SHA-256 read as a little-endian integer.
    enum Kind: UInt8 {
        case xxh3 = 1
        case truncatedSHA256 = 2
    }

    #if canImport(CXXHash)
    static let kind = Kind.xxh3
    #else
    static let kind = Kind.truncatedSHA256
    #endif

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        #if canImport(CXXHash)
        return lookahead_xxh3_64(bytes.baseAddress, bytes.count)
        #else
        return SHA256Digest.hash(bytes).withUnsafeBytes { DiskCacheFile.load($0, at: 0) }
        #endif
    }
}
