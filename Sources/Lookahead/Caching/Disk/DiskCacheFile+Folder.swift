// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

extension DiskCacheFile {
    /// Creates the folder (and its parents) if missing, then makes it `0700` if this user owns it.
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

    /// Takes group and other permissions away from an open file this user owns.
    static func tighten(descriptor: Int32, to mode: mode_t) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o777 != mode else { return }
        _ = fchmod(descriptor, mode)
    }

    /// Removes the entries of other format versions once per folder, holding its lock; returns how many.
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
        let text = Array("\(version)\n".utf8)
        if let temporary = try? writeTemporary(directory: directory, parts: [text], synchronize: false) {
            try? install(temporaryName: temporary, as: formatMarkerName, in: directory)
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

    /// The entry files of a folder, with sizes and modification times; `nil` when it cannot be listed whole.
    static func scan(directory: String, removeStaleTemporaries: Bool) -> [(name: String, size: Int, modified: Double)]?
    {
        var found: [(name: String, size: Int, modified: Double)] = []
        let listed = list(directory: directory, removeStaleTemporaries: removeStaleTemporaries) { folder, name in
            let name = String(decoding: name, as: UTF8.self)
            var info = stat()
            guard fstatat(folder, name, &info, 0) == 0 else { return }
            found.append((name, Int(info.st_size), modificationTime(info)))
        }
        return listed ? found : nil
    }

    /// Counts the entry files of a folder by name alone, like ``scan(directory:removeStaleTemporaries:)``.
    static func countEntries(directory: String, removeStaleTemporaries: Bool) -> Int? {
        var count = 0
        let listed = list(directory: directory, removeStaleTemporaries: removeStaleTemporaries) { _, _ in count += 1 }
        return listed ? count : nil
    }

    /// Calls `entry` with the folder's descriptor and each entry file's name; `false` when the listing failed.
    private static func list(
        directory: String,
        removeStaleTemporaries: Bool,
        entry: (Int32, UnsafeRawBufferPointer) -> Void
    ) -> Bool {
        guard let folder = opendir(directory) else { return false }
        defer { closedir(folder) }
        let descriptor = dirfd(folder)
        let now = Date().timeIntervalSince1970
        while true {
            errno = 0  // a listing cut short says nothing: entries it did not reach must not look deleted
            guard let item = readdir(folder) else { return errno == 0 }
            withUnsafeBytes(of: item.pointee.d_name) { raw in
                let name = UnsafeRawBufferPointer(rebasing: raw[..<(raw.firstIndex(of: 0) ?? raw.count)])
                if isEntryName(name) {
                    entry(descriptor, name)
                } else if removeStaleTemporaries, name.starts(with: ".tmp-".utf8) {
                    let name = String(decoding: name, as: UTF8.self)
                    var info = stat()
                    if fstatat(descriptor, name, &info, 0) == 0,
                        isStale(temporaryName: name, modified: modificationTime(info), now: now)
                    {
                        unlinkat(descriptor, name, 0)
                    }
                }
            }
        }
    }

    /// A temporary file is stale once its process is gone, or after an hour (a pid may be reused, or sandboxed away).
    private static func isStale(temporaryName: String, modified: Double, now: Double) -> Bool {
        guard now - modified < 3_600 else { return true }
        let parts = temporaryName.split(separator: "-")
        guard parts.count == 3, let pid = pid_t(parts[1]) else { return true }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    private static func modificationTime(_ info: stat) -> Double {
        #if canImport(Darwin)
        Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
        #else
        Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        #endif
    }
}
