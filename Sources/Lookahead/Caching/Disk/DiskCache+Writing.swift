// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation
import Logging

extension DiskCache {
    /// What a store does, decided under the lock.
    enum StoreStep {
        case paused
        /// The writes are ``pendingWriteLimit`` behind.
        case skipped(startsSkipping: Bool, replacesEntry: Bool)
        /// Staged and indexed: its write follows the removals of `evicted`, and a sweep if one is needed.
        case staged(generation: Int, evicted: [String], needsSweep: Bool)
    }

    /// Stages an entry and indexes it, evicting to stay under the limit, unless writing is paused or behind.
    func stage(_ data: Data, as name: String, size: Int, now: Double, in state: inout State) -> StoreStep {
        guard state.writeFailure == nil || now >= state.writesPausedUntil else { return .paused }
        let waiting = state.staging.bytes - (state.staging[name]?.data.count ?? 0)
        guard waiting == 0 || waiting + data.count <= pendingWriteLimit else {
            defer { state.skippingStores = true }
            return .skipped(startsSkipping: !state.skippingStores, replacesEntry: state.index.contains(name))
        }
        if waiting == 0 { state.skippingStores = false }
        let generation = state.staging.stage(data, as: name)
        state.index.insert(name, size: size, touchedAt: now)
        var evicted = now - state.lastExpirySweep >= 3_600 ? removeExpired(now: now, in: &state) : []
        // A small index is swept under the lock; a large one on the queue, so no read waits for its sort.
        if state.index.count <= Self.inlineSweepLimit {
            evicted += state.index.sweep(limit: sizeLimit, lowMark: lowMark)
        }
        for victim in evicted { state.staging[victim] = nil }
        state.pendingJobs += 1
        return .staged(generation: generation, evicted: evicted, needsSweep: state.index.totalSize > sizeLimit)
    }

    /// Removes the entries unused for longer than ``maximumAge`` from the index; returns their names.
    func removeExpired(now: Double, in state: inout State) -> [String] {
        guard let maximumAge else { return [] }
        state.lastExpirySweep = now
        let expired = state.index.removeEntries(touchedBefore: now - maximumAge.secondsValue)
        for name in expired { state.staging[name] = nil }
        return expired
    }

    /// ``removeData(for:)`` of the entry file `name`.
    func removeEntry(named name: String) {
        guard !isReadOnly else { return }
        state.withLock { state in
            state.staging[name] = nil
            state.index.remove(name)
            state.removing[name, default: 0] += 1
            state.pendingJobs += 1
        }
        enqueue {
            self.removeFilesUnlessStoredAgain([name])
            self.state.withLock { state in
                let left = (state.removing[name] ?? 1) - 1
                state.removing[name] = left > 0 ? left : nil
            }
        }
    }

    /// Runs a job that changes the folder on the job queue; the caller counted it in ``State/pendingJobs``.
    func enqueue(_ job: @escaping @Sendable () -> Void) {
        writes.jobs.async {
            self.writes.exclusively(job)
            self.state.withLock { $0.pendingJobs -= 1 }
            self.scheduleSnapshot()
        }
    }

    /// Deletes files, except those stored again since the deletion was decided (their write follows).
    func removeFilesUnlessStoredAgain(_ names: [String]) {
        guard !names.isEmpty else { return }
        let doomed = state.withLock { state in names.filter { !state.index.contains($0) } }
        guard !doomed.isEmpty else { return }
        change { removeFiles(doomed, &$0) }
    }

    /// The most entries a store sweeps under the lock; a larger index is swept by ``sweepIndex()``.
    static let inlineSweepLimit = 4096

    /// Sweeps the index down to the low mark, sorting outside the lock, evicting a batch per lock; returns the names.
    func sweepIndex() -> [String] {
        guard let candidates = state.withLock({ $0.index.sweepCandidates(limit: sizeLimit, lowMark: lowMark) }) else {
            return []
        }
        let plan = DiskCacheIndex.plan(candidates)
        var evicted: [String] = []
        for start in stride(from: 0, to: plan.count, by: 512) {
            let batch = plan[start..<min(start + 512, plan.count)]
            let (names, isDone) = state.withLock { state in
                let names = state.index.evict(batch, lowMark: lowMark)
                for victim in names { state.staging[victim] = nil }
                return (names, state.index.totalSize <= lowMark)
            }
            evicted += names
            if isDone { break }
        }
        return evicted
    }

    /// Writes a staged entry, unless it was staged again or removed since.
    func write(name: String, key: String, generation: Int) {
        guard let staged = state.withLock({ $0.staging[name] }), staged.generation == generation else { return }
        do {
            let temporary = try writeTemporary(key: key, data: staged.data)
            let size = DiskCacheFile.fileSize(dataCount: staged.data.count)
            try change { install(temporary, as: name, size: size, &$0) }.get()
        } catch {
            state.withLock { if $0.staging.remove(name, generation: generation) { $0.index.remove(name) } }
            recordWriteFailure(error, name: name)
            return
        }
        let resumed = state.withLock { state -> Bool in
            state.staging.remove(name, generation: generation)
            defer { state.writeFailure = nil }
            return state.writeFailure != nil
        }
        if resumed { logger.notice("Disk cache at \(path) writes again") }
    }

    /// Logs a failed write; a full or read-only disk pauses writing for ``writeRetryInterval``.
    private func recordWriteFailure(_ error: DiskCacheFile.IOError, name: String) {
        guard error.isOutOfSpaceOrReadOnly else {
            logger.warning("Disk cache could not write entry \(name): \(error)")
            return
        }
        let pausedUntil = now() + writeRetryInterval.secondsValue
        let isFirst = state.withLock { state -> Bool in
            let isFirst = state.writeFailure == nil
            if isFirst { state.writeFailure = error.description }
            state.writesPausedUntil = pausedUntil
            return isFirst
        }
        if isFirst { logger.warning("Disk cache at \(path) stopped writing: \(error)") }
    }

    /// Writes an entry's file under a temporary name; recreates the folder once if it was deleted from outside.
    private func writeTemporary(key: String, data: Data) throws(DiskCacheFile.IOError) -> String {
        let header = DiskCacheFile.header(keyDigest: DiskCacheFile.keyDigest(for: key), data: data)
        func attempt() throws(DiskCacheFile.IOError) -> String {
            try DiskCacheFile.writeTemporary(directory: path, parts: [header, data], synchronize: synchronizesWrites)
        }
        do {
            return try attempt()
        } catch  where error.code == ENOENT {
            recreateFolder()
            return try attempt()
        }
    }

    /// Renames a written entry into place, then evicts when the caches on the folder pass the size limit. The total
    /// is raised before the rename and lowered after, so a kill in between leaves it too high, never too low.
    private func install(
        _ temporary: String,
        as name: String,
        size: Int,
        _ held: inout DiskCacheLedger.Held
    ) -> Result<Void, DiskCacheFile.IOError> {
        guard held.isLocked else {
            // Uncounted, the entry would leave other caches a total too low.
            unlink(path + "/" + temporary)
            return .failure(DiskCacheFile.IOError(operation: "lock the folder", code: ENOLCK))
        }
        let replaced = DiskCacheFile.size(path: path + "/" + name) ?? 0
        let growth = held.values == nil ? 0 : max(0, size - replaced)
        if growth > 0 {
            held.values!.totalSize += growth
            held.save()
        }
        do {
            try DiskCacheFile.install(temporaryName: temporary, as: name, in: path)
        } catch {
            held.values?.totalSize -= growth
            return .failure(error)
        }
        if replaced > size { held.values?.totalSize -= replaced - size }
        guard let total = held.values?.totalSize, total > sizeLimit else { return .success(()) }
        count(&held)  // other caches wrote too: learn their entries, then evict from them all
        removeFiles(sweepIndex(), &held)
        return .success(())
    }

    /// Deletes entry files holding the folder's lock, lowering the total by what each really took.
    func removeFiles(_ names: [String], _ held: inout DiskCacheLedger.Held) {
        for name in names {
            let file = path + "/" + name
            guard let size = DiskCacheFile.size(path: file), unlink(file) == 0 else { continue }
            held.values?.totalSize -= size
        }
    }
}

/// The entries stored and not yet written; a generation tells a write whether its entry was replaced or removed.
struct DiskCacheStaging: Sequence {
    struct Entry {
        let data: Data
        let generation: Int
    }

    private var entries: [String: Entry] = [:]
    private(set) var bytes = 0
    private var generation = 0

    subscript(name: String) -> Entry? {
        get { entries[name] }
        set {
            bytes += (newValue?.data.count ?? 0) - (entries[name]?.data.count ?? 0)
            entries[name] = newValue
        }
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Stages `data` as the entry file `name`, replacing what was staged for it; returns the entry's generation.
    mutating func stage(_ data: Data, as name: String) -> Int {
        generation += 1
        self[name] = Entry(data: data, generation: generation)
        return generation
    }

    /// Removes the entry `name` if it is still the one staged at `generation`; returns whether it was.
    @discardableResult
    mutating func remove(_ name: String, generation: Int) -> Bool {
        guard entries[name]?.generation == generation else { return false }
        self[name] = nil
        return true
    }

    mutating func removeAll() {
        entries.removeAll()
        bytes = 0
    }

    func makeIterator() -> Dictionary<String, Entry>.Iterator { entries.makeIterator() }
}
