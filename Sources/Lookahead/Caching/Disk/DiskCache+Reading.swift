// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation
import Logging

extension DiskCache {
    /// The data stored for a key, verified; `nil` when absent, unreadable or corrupt (such an entry is removed).
    public func cachedData(for key: String) -> Data? {
        guard !key.isEmpty else { return nil }
        let name = DiskCacheFile.keyName(for: key)
        let now = now()
        let entry: EntryToRead
        switch lookUp(name, now: now) {
        case .staged(let data):
            return data
        case .removed:
            return nil
        case .expired:
            logger.debug("Removed a disk cache entry \(name.string) unused for longer than its maximum age")
            removeUnreadable(name.string)
            return nil
        case .unindexed(let generation, let folder):
            guard othersChangedFolder(since: generation) else { return nil }
            entry = EntryToRead(folder: folder)
        case .file(let indexed):
            entry = indexed
        }
        return settle(read(name, entry, now: now), of: name, wasIndexed: entry.isIndexed, now: now)
    }

    /// What the index says about a key, decided under the lock.
    private enum Lookup {
        case staged(Data)
        /// Removed; its file may still be on disk until the queue removes it.
        case removed
        case expired
        /// On disk only if the folder's generation moved on.
        case unindexed(folderGeneration: UInt64, folder: DiskCacheFolderHandle?)
        case file(EntryToRead)
    }

    /// An entry file to read, and what the index knows of it.
    private struct EntryToRead {
        var folder: DiskCacheFolderHandle?
        var size: Int?
        /// Set the file's modification time (``DiskCacheFile/touchInterval``).
        var touch = false
        var trusted: DiskCacheFile.Stamp?
        var isIndexed: Bool { size != nil }
    }

    /// Looks a key up with one lock: the index records the use before the read.
    private func lookUp(_ indexName: DiskCacheIndex.Name, now: Double) -> Lookup {
        var name: String { indexName.string }  // spelled only off the common path
        let maximumAge = maximumAge?.secondsValue
        return state.withLock { state -> Lookup in
            if !state.staging.isEmpty, let staged = state.staging[name] {
                state.index.touch(indexName)
                return .staged(staged.data)
            }
            if let maximumAge, let entry = state.index.entry(indexName), now - entry.touchedAt > maximumAge {
                return .expired
            }
            let known = state.index.recordHit(indexName, now: now, touchInterval: Double(DiskCacheFile.touchInterval))
            if known != nil { state.snapshotDue = true }  // the order of use is saved with the next snapshot
            if known == nil, state.removingAll > 0 || state.removing[name] != nil { return .removed }
            // Unless another cache changed the folder, the index knows every entry (a read-only cache always looks).
            if known == nil, state.isIndexLoaded, !isReadOnly, !state.othersWrite,
                let generation = state.folderGeneration
            {
                return .unindexed(folderGeneration: generation, folder: state.folder)
            }
            return .file(
                EntryToRead(
                    folder: state.folder,
                    size: known?.size,
                    touch: (known?.touch ?? false) && !isReadOnly,
                    trusted: state.trusted[indexName]
                )
            )
        }
    }

    /// Whether another cache changed the folder since `generation`, the one this cache last saw.
    private func othersChangedFolder(since generation: UInt64) -> Bool {
        let peeked = ledger?.peekGeneration()
        guard peeked != generation else { return false }
        return state.withLock { state -> Bool in
            // A change of this cache's own moves the generation too; the index already counts it.
            if !state.othersWrite, let peeked, let base = state.ownChangeBase, (1...2).contains(peeked &- base) {
                return false
            }
            state.othersWrite = true
            return true
        }
    }

    /// Reads and verifies an entry file, remembering it as trusted when its checksum was verified.
    private func read(_ name: DiskCacheIndex.Name, _ entry: EntryToRead, now: Double) -> DiskCacheFile.ReadResult {
        let result: DiskCacheFile.ReadResult
        let verified: DiskCacheFile.Stamp?
        switch openEntry(name, in: entry.folder) {
        case .success(let descriptor):
            (result, verified) = DiskCacheFile.read(
                descriptor: descriptor,
                keyName: name,
                expectedFileSize: entry.size,
                touch: entry.touch,
                trusted: entry.trusted,
                now: now
            )
            close(descriptor)
        case .failure(let error):
            (result, verified) = (DiskCacheFile.openFailure(error.code), nil)
        }
        if let verified {
            state.withLock { state in
                if state.trusted.count >= Self.trustedLimit { state.trusted.removeAll(keepingCapacity: true) }
                state.trusted[name] = verified
            }
        }
        return result
    }

    /// The data of a read, after the index learned what it found.
    private func settle(
        _ result: DiskCacheFile.ReadResult,
        of indexName: DiskCacheIndex.Name,
        wasIndexed: Bool,
        now: Double
    ) -> Data? {
        var name: String { indexName.string }
        switch result {
        case .hit(let data):
            if !wasIndexed, !isReadOnly {
                let size = DiskCacheFile.fileSize(dataCount: data.count)
                state.withLock { if !$0.index.contains(name) { $0.index.insert(name, size: size, touchedAt: now) } }
            }
            return data
        case .missing:
            if !isReadOnly { state.withLock { $0.index.remove(name) } }
            return nil
        case .corrupt(let reason):
            logger.warning("Removed a corrupt disk cache entry \(name): \(reason)")
        case .foreign(let what):
            logger.debug("Removed a disk cache entry \(name) \(what)")
        }
        removeUnreadable(name)
        return nil
    }

    /// Opens an entry file relative to the open folder, else by path (then the folder was replaced: it is reopened).
    private func openEntry(
        _ name: DiskCacheIndex.Name,
        in folder: DiskCacheFolderHandle?
    ) -> Result<Int32, DiskCacheFile.IOError> {
        if let folder {
            let descriptor = name.withCString { openat(folder.descriptor, $0, O_RDONLY | O_CLOEXEC) }
            if descriptor >= 0 { return .success(descriptor) }
            guard errno == ENOENT else { return .failure(DiskCacheFile.IOError(operation: "open", code: errno)) }
        }
        let descriptor = open(path + "/" + name.string, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(DiskCacheFile.IOError(operation: "open", code: errno)) }
        if let current = DiskCacheFolderHandle(path: path) { state.withLock { $0.folder = current } }
        return .success(descriptor)
    }

    /// Forgets an entry that cannot be served and deletes its file (a cache that cannot write leaves it).
    func removeUnreadable(_ name: String) {
        guard !isReadOnly else { return }
        state.withLock { state in
            state.index.remove(name)
            state.pendingJobs += 1
        }
        enqueue { self.removeFilesUnlessStoredAgain([name]) }
    }
}

/// The cache folder, open, so a hit looks up one name instead of the whole path.
final class DiskCacheFolderHandle: Sendable {
    let descriptor: Int32

    /// `nil` when the folder cannot be opened (it is missing, or not a folder).
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
