// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

extension DiskCacheFile {
    /// The header of an entry holding `data` for the key whose digest is `keyDigest`.
    static func header(keyDigest: [UInt8], data: Data) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: headerSize)
        header.replaceSubrange(0..<4, with: magic)
        header[4] = version
        header[5] = DiskCacheChecksum.kind.rawValue
        store(UInt64(data.count), into: &header, at: 8, size: 8)
        header.replaceSubrange(16..<48, with: keyDigest)
        store(data.withUnsafeBytes { DiskCacheChecksum.checksum($0) }, into: &header, at: 48, size: 8)
        return header
    }

    /// Writes the parts to a new file under a temporary name and returns that name, to be installed.
    static func writeTemporary(
        directory: String,
        parts: [any ContiguousBytes],
        synchronize: Bool
    ) throws(IOError) -> String {
        let temporaryName = ".tmp-\(getpid())-\(temporaryCounter.add(1))"
        let temporary = directory + "/" + temporaryName
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw IOError(operation: "open", code: errno) }
        var failure: IOError?
        if !parts.allSatisfy({ $0.withUnsafeBytes { writeFully(descriptor, $0) } }) {
            failure = IOError(operation: "write", code: errno)
        } else if synchronize, fsync(descriptor) != 0 {
            failure = IOError(operation: "fsync", code: errno)
        }
        if close(descriptor) != 0, failure == nil { failure = IOError(operation: "close", code: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        return temporaryName
    }

    /// Renames a file written by ``writeTemporary(directory:parts:synchronize:)`` into place.
    static func install(temporaryName: String, as name: String, in directory: String) throws(IOError) {
        let temporary = directory + "/" + temporaryName
        guard rename(temporary, directory + "/" + name) == 0 else {
            let failure = IOError(operation: "rename", code: errno)
            unlink(temporary)
            throw failure
        }
    }

    /// Numbers temporary files; with the process ID in the name, no two writers in any process share one.
    private static let temporaryCounter = AtomicInt(0)

    static func size(path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    private static func writeFully(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                if count == 0 { errno = ENOSPC }
                return false
            }
            offset += count
        }
        return true
    }

    /// Writes the low `size` bytes of `value`, little endian, at `offset`.
    static func store(_ value: UInt64, into bytes: inout [UInt8], at offset: Int, size: Int) {
        for index in 0..<size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
    }

    /// The 8 bytes at `offset`, little endian.
    static func load(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
