// Lookahead — the disk cache's files: the entry format, atomic writes and verified reads (POSIX calls).

import Crypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One entry file:
///
/// ```
/// offset  size  field
///      0     4  magic "LKHD"
///      4     1  format version (2)
///      5     3  reserved, zero
///      8     8  data length, little endian
///     16    32  SHA-256 of the key (UTF-8)
///     48    32  SHA-256 of the data
///     80     …  data
/// ```
///
/// The key itself is never written: URLs can carry credentials and tokens (`user:secret@`, `?token=`). Version 1
/// stored it in plain text; its entries are removed when a writer opens the folder (see ``migrate(directory:)``)
/// and are never served.
///
/// A file is written whole under a temporary name and renamed into place, so a reader sees either no entry or a
/// complete one. Every read checks the magic, the version, the key's digest, the length against the file size, and
/// the checksum; any mismatch makes the entry a miss. Folders are created `0700` and files `0600`: the cache shows
/// what its user looked at.
enum DiskCacheFile {
    static let headerSize = 80
    private static let magic: [UInt8] = Array("LKHD".utf8)
    static let version: UInt8 = 2
    /// The file recording which entry format a folder has been migrated to.
    static let formatMarkerName = ".format"
    /// Permissions of the cache folder and of every file in it.
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    enum ReadResult {
        case hit(Data)
        case missing
        case corrupt(String)
        /// An entry of another format version; never served.
        case outdated(version: UInt8)
    }

    /// An I/O failure with its `errno`.
    struct IOError: Error, CustomStringConvertible {
        let operation: String
        let code: Int32
        var description: String { "\(operation): \(String(cString: strerror(code))) (errno \(code))" }
        var isOutOfSpaceOrReadOnly: Bool { [ENOSPC, EDQUOT, EROFS, EACCES, EPERM].contains(code) }
    }

    /// The SHA-256 of a key's UTF-8 bytes: the entry's name (in hex) and the digest its header holds.
    static func keyDigest(for key: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(key.utf8)))
    }

    /// The file name of a key: the SHA-256 of its UTF-8 bytes in hex, so no key can reach outside the folder.
    static func name(for key: String) -> String {
        name(digest: keyDigest(for: key))
    }

    /// The file name of a key digest: 64 lowercase hex digits.
    static func name(digest: [UInt8]) -> String {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var name = [UInt8]()
        name.reserveCapacity(64)
        for byte in digest {
            name.append(hex[Int(byte >> 4)])
            name.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: name, as: UTF8.self)
    }

    /// Recency on disk only orders entries for eviction after a relaunch (the index keeps it in memory): an entry
    /// read within this many seconds of its last touch keeps its modification time.
    static let touchInterval = 60

    /// Whether a directory entry is an entry file (64 lowercase hex digits).
    static func isEntryName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The size a stored entry takes on disk.
    static func fileSize(dataCount: Int) -> Int {
        headerSize + dataCount
    }

    // MARK: - Reading

    /// Reads and verifies an entry of the key whose digest is `keyDigest` (``keyDigest(for:)``, computed once by
    /// the caller for the name too). `touch` sets the file's modification time to now, which is how recency survives
    /// a relaunch; a file touched within ``touchInterval`` is not touched again, so a hit costs no extra syscall.
    static func read(path: String, keyDigest: [UInt8], touch: Bool) -> ReadResult {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return errno == ENOENT || errno == ENOTDIR
                ? .missing : .corrupt("unreadable: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .corrupt("fstat failed") }
        let fileSize = Int(info.st_size)
        guard fileSize >= 5 else { return .corrupt("truncated header (\(fileSize) bytes)") }
        var header = [UInt8](repeating: 0, count: min(fileSize, headerSize))
        guard readFully(descriptor, into: &header) else { return .corrupt("short read") }
        guard Array(header[0..<4]) == magic else { return .corrupt("bad magic") }
        guard header[4] == version else { return .outdated(version: header[4]) }
        guard fileSize >= headerSize else { return .corrupt("truncated header (\(fileSize) bytes)") }
        let dataLength = Int(littleEndian(header, at: 8, size: 8))
        guard header[16..<48].elementsEqual(keyDigest) else {
            return .corrupt("key mismatch")
        }
        guard dataLength == fileSize - headerSize else {
            return .corrupt("length mismatch: header says \(dataLength), file holds \(fileSize - headerSize)")
        }
        var data = Data(count: dataLength)
        let complete = data.withUnsafeMutableBytes { buffer in readFully(descriptor, into: buffer) }
        guard complete else { return .corrupt("short read") }
        guard Array(SHA256.hash(data: data)) == Array(header[48..<80]) else { return .corrupt("checksum mismatch") }
        if touch, Date().timeIntervalSince1970 - modificationTime(info) >= Double(touchInterval) {
            _ = futimens(descriptor, nil)
        }
        return .hit(data)
    }

    // MARK: - Writing

    /// Writes an entry under a temporary name in the same folder, then renames it into place.
    static func write(
        directory: String,
        name: String,
        key: String,
        data: Data,
        temporaryName: String,
        synchronize: Bool
    ) throws(IOError) {
        let temporary = directory + "/" + temporaryName
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw IOError(operation: "open", code: errno) }
        var failure: IOError?
        var header = [UInt8](repeating: 0, count: headerSize)
        header.replaceSubrange(0..<4, with: magic)
        header[4] = version
        store(UInt64(data.count), into: &header, at: 8, size: 8)
        header.replaceSubrange(16..<48, with: Array(SHA256.hash(data: Array(key.utf8))))
        header.replaceSubrange(48..<80, with: Array(SHA256.hash(data: data)))
        if !header.withUnsafeBytes({ writeFully(descriptor, $0) })
            || !data.withUnsafeBytes({ writeFully(descriptor, $0) })
        {
            failure = IOError(operation: "write", code: errno)
        } else if synchronize, fsync(descriptor) != 0 {
            failure = IOError(operation: "fsync", code: errno)
        }
        if close(descriptor) != 0, failure == nil { failure = IOError(operation: "close", code: errno) }
        if failure == nil, rename(temporary, directory + "/" + name) != 0 {
            failure = IOError(operation: "rename", code: errno)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// Removes a file; a file already gone is not an error.
    static func remove(path: String) {
        unlink(path)
    }

    // MARK: - Folder

    /// Entry files in a folder, with their sizes and modification times; removes leftover temporary files
    /// when `removeTemporaryFiles` (only the lock owner may).
    static func scan(directory: String, removeTemporaryFiles: Bool) -> [(name: String, size: Int, modified: Double)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var found: [(name: String, size: Int, modified: Double)] = []
        for name in names {
            let path = directory + "/" + name
            if isEntryName(name) {
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                found.append((name, Int(info.st_size), modificationTime(info)))
            } else if removeTemporaryFiles, name.hasPrefix(".tmp-") {
                unlink(path)
            }
        }
        return found
    }

    enum LockResult {
        case locked(Int32)
        case heldElsewhere
        case failed(IOError)
    }

    /// Takes the folder's lock file. The lock lasts until the descriptor is closed; another cache (in this
    /// process or another) that holds it makes this one `heldElsewhere`.
    static func lock(directory: String) -> LockResult {
        let descriptor = open(directory + "/.lock", O_RDONLY | O_CREAT | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { return .failed(IOError(operation: "open lock file", code: errno)) }
        tighten(descriptor: descriptor, to: fileMode)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            return code == EWOULDBLOCK ? .heldElsewhere : .failed(IOError(operation: "flock", code: code))
        }
        return .locked(descriptor)
    }

    static func unlock(_ descriptor: Int32) {
        close(descriptor)
    }

    // MARK: - Helpers

    private static func readFully(_ descriptor: Int32, into bytes: inout [UInt8]) -> Bool {
        bytes.withUnsafeMutableBytes { readFully(descriptor, into: $0) }
    }

    private static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let count = systemRead(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    private static func writeFully(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let count = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                if count == 0 { errno = ENOSPC }
                return false
            }
            offset += count
        }
        return true
    }

    private static func littleEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    private static func store(_ value: UInt64, into bytes: inout [UInt8], at offset: Int, size: Int) {
        for index in 0..<size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
    }

    private static func modificationTime(_ info: stat) -> Double {
        #if canImport(Darwin)
        Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
        #else
        Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        #endif
    }
}

// The enum's own `read` and `write` hide the C functions inside it.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
