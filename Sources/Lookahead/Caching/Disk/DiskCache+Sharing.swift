// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation
import Logging

/// Sharing the folder with other caches: every change holds the folder's lock (``DiskCacheLedger``).
extension DiskCache {
    /// Loads the index when the cache opens, then evicts what expired or passes the limit.
    func loadIndex() {
        guard let ledger else {
            var held = DiskCacheLedger.Held.unlocked
            return count(&held)
        }
        ledger.withLock { held in
            let removed = DiskCacheFile.migrate(directory: path)
            if removed > 0 {
                logger.notice(
                    "Removed \(removed) disk cache entries of an older format (they held their keys) from \(path)"
                )
            }
            if !loadSnapshot(held) { count(&held) }
            let now = now()
            let evicted = state.withLock { removeExpired(now: now, in: &$0) }
            let swept = sweepIndex()
            change(&held) { removeFiles(evicted + swept, &$0) }
        }
    }

    /// Counts the folder holding its lock: the index and the ledger's total become exact (staged entries stay).
    func count(_ held: inout DiskCacheLedger.Held) {
        guard let scanned = DiskCacheFile.scan(directory: path, removeStaleTemporaries: held.isLocked) else {
            state.withLock { $0.isIndexLoaded = true }
            return
        }
        // A new record starts at a random generation, so a cache that remembers an old one never sees it again.
        let generation = held.values.map { $0.generation &+ 1 } ?? UInt64.random(in: 1...UInt64.max)
        held.values = DiskCacheLedger.Values(totalSize: scanned.reduce(0) { $0 + $1.size }, generation: generation)
        held.save()
        adopt(DiskCacheIndex(counting: scanned), generation: held.values?.generation, fromSnapshot: false)
    }

    /// Makes an index of the whole folder the cache's own (staged entries stay); a counted one is saved next.
    private func adopt(_ index: consuming DiskCacheIndex, generation: UInt64?, fromSnapshot: Bool) {
        var taken: DiskCacheIndex? = index
        state.withLock { state in
            state.index.reconcile(with: taken.take()!, keeping: Set(state.staging.map(\.key)))
            state.isIndexLoaded = true
            state.folderGeneration = generation
            state.othersWrite = false
            if fromSnapshot { state.loadedFromSnapshot = true } else { state.snapshotDue = true }
        }
    }

    /// Loads the index from a snapshot of the folder as it is; `false` when the folder must be counted instead.
    private func loadSnapshot(_ held: DiskCacheLedger.Held) -> Bool {
        guard held.isLocked, let values = held.values, let snapshot = DiskCacheIndexSnapshot.read(directory: path),
            snapshot.generation == values.generation, snapshot.totalSize == values.totalSize,
            DiskCacheFile.countEntries(directory: path, removeStaleTemporaries: true) == snapshot.records.count
        else { return false }
        adopt(DiskCacheIndex(snapshot: snapshot), generation: values.generation, fromSnapshot: true)
        return true
    }

    /// Saves the index as the folder's snapshot when it changed and holds exactly what is on disk.
    func saveSnapshotIfDue() {
        guard let ledger else { return }
        let captured = state.withLock { state -> (generation: UInt64, records: DiskCacheIndexSnapshot.Unsorted)? in
            guard state.snapshotDue, state.pendingJobs == 0, state.staging.isEmpty, state.isIndexLoaded,
                !state.othersWrite, let generation = state.folderGeneration
            else { return nil }
            state.snapshotDue = false
            return (generation, state.index.unsortedSnapshotRecords)
        }
        guard let captured, ledger.peekGeneration() == captured.generation else { return }
        let snapshot = DiskCacheIndexSnapshot(generation: captured.generation, unsorted: captured.records)
        do {
            try snapshot.write(directory: path)
        } catch {
            logger.debug("Disk cache at \(path) could not save its index: \(error)")
        }
    }

    /// Saves the snapshot a while after the folder last changed: a burst of stores costs one save.
    func scheduleSnapshot() {
        guard ledger != nil else { return }
        let schedule = state.withLock { state -> Bool in
            guard state.snapshotDue, !state.snapshotScheduled else { return false }
            state.snapshotScheduled = true
            return true
        }
        guard schedule else { return }
        writes.jobs.asyncAfter(deadline: .now() + Self.snapshotDelay) { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.snapshotScheduled = false }
            self.writes.exclusively { self.saveSnapshotIfDue() }
        }
    }

    private static let snapshotDelay = DispatchTimeInterval.seconds(10)

    /// Makes one change to the folder holding its lock, then advances the folder's generation.
    func change<Result>(_ body: (inout DiskCacheLedger.Held) -> Result) -> Result {
        guard let ledger else {
            var held = DiskCacheLedger.Held.unlocked
            return body(&held)
        }
        return ledger.withLock { held in change(&held, body) }
    }

    func change<Result>(_ held: inout DiskCacheLedger.Held, _ body: (inout DiskCacheLedger.Held) -> Result) -> Result {
        if held.values == nil, held.isLocked { count(&held) }
        let before = held.values?.generation
        let duringChange = state.withLock { state in
            if before != state.folderGeneration { state.othersWrite = true }
            state.ownChangeBase = before
            return state.duringChange
        }
        // Advanced before the change too, so a snapshot at `before` is void even if the process dies mid-change.
        held.values?.generation &+= 1
        held.save()
        duringChange?()
        let result = body(&held)
        held.values?.generation &+= 1
        held.save()
        state.withLock { state in
            state.folderGeneration = held.values?.generation
            state.ownChangeBase = nil
            state.snapshotDue = true
        }
        return result
    }

    /// Creates the folder again after it was deleted from outside with every entry written: staged entries stay.
    func recreateFolder() {
        DiskCacheFile.prepareDirectory(path)
        let now = now()
        let folder = DiskCacheFolderHandle(path: path)
        state.withLock { state in
            state.folder = folder
            state.index.removeAll()
            for (name, staged) in state.staging {
                state.index.insert(name, size: DiskCacheFile.fileSize(dataCount: staged.data.count), touchedAt: now)
            }
        }
        logger.warning("Disk cache folder \(path) was deleted from outside; it was created again, empty")
    }

    /// Notices a folder deleted from outside before the next write does.
    func forgetEntriesIfFolderDeleted() {
        guard !isReadOnly, !FileManager.default.fileExists(atPath: path) else { return }
        recreateFolder()
    }
}
