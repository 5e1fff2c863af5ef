// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — the disk cache's folder: private permissions, an open handle for reads, and the migration from older
// entry formats.

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension DiskCacheFile {
    /// Creates the folder (and its parents) if missing, then makes it `0700` if this user owns it: the entries
    /// name what the user looked at, so no one else may list or read them. Parents keep the default mode.
    static func prepareDirectory(_ path: String) {
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty {
            try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
        if mkdir(path, directoryMode) != 0, errno != EEXIST { return }
        var info = stat()
        guard stat(path, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o777 != directoryMode else { return }
        _ = chmod(path, directoryMode)
    }

    /// Takes group and other permissions away from an open file this user owns (a lock file made by an older
    /// version, say).
    static func tighten(descriptor: Int32, to mode: mode_t) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o777 != mode else { return }
        _ = fchmod(descriptor, mode)
    }

    /// Removes the entries of other format versions, once per folder: a marker file records that the folder holds
    /// only the current format, so later opens cost one small read. Returns how many entries were removed. Only
    /// the lock owner may call it. Entries an older program adds later are still never served: reads check the
    /// version.
    static func migrate(directory: String) -> Int {
        let marker = directory + "/" + formatMarkerName
        if (try? String(contentsOfFile: marker, encoding: .utf8)) == "\(version)\n" { return 0 }
        var removed = 0
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where isEntryName(name) {
            let path = directory + "/" + name
            if let found = entryVersion(path: path), found != version {
                unlink(path)
                removed += 1
            }
        }
        let descriptor = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, fileMode)
        if descriptor >= 0 {
            tighten(descriptor: descriptor, to: fileMode)
            let text = Array("\(version)\n".utf8)
            _ = text.withUnsafeBytes { writeBytes(descriptor, $0) }
            close(descriptor)
        }
        return removed
    }

    /// The format version byte of an entry file; `nil` when unreadable or not an entry of ours.
    private static func entryVersion(path: String) -> UInt8? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var prefix = [UInt8](repeating: 0, count: 5)
        let count = prefix.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 5, 0) }
        guard count == 5, prefix[0..<4].elementsEqual(magic) else { return nil }
        return prefix[4]
    }
}

// Inside `DiskCacheFile`, `write` names its own static method.
private func writeBytes(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
    write(descriptor, buffer.baseAddress, buffer.count)
}

/// The cache folder, open: a hit opens its entry relative to it, so `open` looks up one name instead of walking
/// the whole path. Held by reference, so a reader keeps the descriptor open while it uses it even if the cache
/// opens the folder again meanwhile. A folder deleted and made again is noticed at the first entry missing from the
/// old one; a folder renamed away (not deleted) is read where it went until then.
final class DiskCacheFolderHandle: Sendable {
    let descriptor: Int32

    /// `nil` when the folder cannot be opened (it is missing, or not a folder).
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
