// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation
import Logging

/// Keeps the original bytes of downloaded images in a folder, so a relaunch or a thumbnail of another size needs
/// no download.
///
/// Entries are checksummed and verified on every read (a bad one is a miss), written atomically in the background
/// (`flush()` waits for the writes), private to their user, and evicted least recently used first to stay under
/// ``sizeLimit``.
///
/// Several caches may share a folder, in one process or in several (an app and its extensions in an app group): each
/// reads and writes, and together they keep to the size limit. Each change to the folder takes the folder's lock for
/// as long as that change lasts. A cache learns of another's entries when it reads them, when it must evict, and
/// when it opens.
///
/// ```swift
/// let pipeline = ImagePipeline { $0.diskCache = DiskCache(name: "com.example.thumbnails", sizeLimit: 200 << 20) }
/// ```
/// - Important: Thread safe. `cachedData(for:)` may block on disk I/O; call it off the main thread (the
///   pipeline calls it on its I/O queue).
public final class DiskCache: DataCaching {
    /// The folder holding the entries.
    public let directory: URL
    /// The most bytes the entries may take on disk together (headers included).
    public let sizeLimit: Int
    /// After a sweep the total is at most `sizeLimit × trimRatio`, so sweeps are rare.
    public let trimRatio: Double
    /// `fsync` each entry before renaming it into place.
    public let synchronizesWrites: Bool
    /// `true` when the folder cannot be written (a read-only file system, or a folder of another user): this cache
    /// only reads.
    public let isReadOnly: Bool
    /// How long writing pauses after the disk was found full or read-only, before a store tries again.
    public let writeRetryInterval: Duration
    /// How long an entry may go unused before it is removed; `nil` keeps entries until the size limit evicts them.
    public let maximumAge: Duration?
    /// The most bytes of entries stored and not yet written. The writes yield to other work; while they are this
    /// far behind (a processor kept busy for long), further stores are skipped, so memory stays bounded.
    public let pendingWriteLimit: Int

    private struct Staged {
        let data: Data
        let generation: Int
    }

    /// The entries waiting to be written, served to reads until they are, and the bytes they hold.
    private struct Staging: Sequence {
        private var entries: [String: Staged] = [:]
        private(set) var bytes = 0

        subscript(name: String) -> Staged? {
            get { entries[name] }
            set {
                bytes += (newValue?.data.count ?? 0) - (entries[name]?.data.count ?? 0)
                entries[name] = newValue
            }
        }

        var isEmpty: Bool { entries.isEmpty }
        var names: Dictionary<String, Staged>.Keys { entries.keys }

        mutating func removeAll() {
            entries.removeAll()
            bytes = 0
        }

        func makeIterator() -> Dictionary<String, Staged>.Iterator { entries.makeIterator() }
    }

    private struct State {
        var index = DiskCacheIndex()
        var isIndexLoaded = false
        var staging = Staging()
        /// Entry files whose checksum this process verified, as they were then (at most ``trustedLimit``).
        var trusted: [DiskCacheIndex.Name: DiskCacheFile.Stamp] = [:]
        /// The folder, open, for reads; `nil` while it cannot be opened.
        var folder: DiskCacheFolderHandle?
        var generation = 0
        /// The folder's generation after this cache's last change (``DiskCacheLedger``).
        var folderGeneration: UInt64?
        /// Another cache changed the folder since this one last counted it: a key missing from the index may be on
        /// disk.
        var othersWrite = false
        /// The folder's generation before the change this cache is making, while it makes it: the ledger then shows
        /// one or two more, which is no other cache's doing.
        var ownChangeBase: UInt64?
        /// Runs inside each change to the folder, before its body (tests).
        var duringChange: (@Sendable () -> Void)?
        var writeFailure: String?
        /// While ``writeFailure`` is set, stores are ignored until this time (seconds since 1970).
        var writesPausedUntil: TimeInterval = 0
        /// Stores were skipped because the writes were ``pendingWriteLimit`` behind, and they have not caught up
        /// since (logged once until they do).
        var skippingStores = false
        /// When expired entries were last swept (seconds since 1970).
        var lastExpirySweep: TimeInterval = 0
        /// Jobs queued that will change the folder: while there are any, the index is ahead of the disk.
        var pendingJobs = 0
        /// Entries removed whose files are not yet gone (with how many removals are queued for each), and the
        /// queued removals of everything: until they run, such a file on disk is a miss, never counted again.
        var removing: [String: Int] = [:]
        var removingAll = 0
        /// The index changed since the snapshot was last saved (``DiskCacheIndexSnapshot``).
        var snapshotDue = false
        var snapshotScheduled = false
        /// Whether the last index loaded at open came from the snapshot, for tests.
        var loadedFromSnapshot = false
        /// Stores not yet written, oldest first: each runs once, on the write queue or in a drain.
        var pendingWrites: [@Sendable () -> Void] = []
        var drainScheduled = false
        /// Work the writes wait for while it runs (``holdWrites()``); when the last of it ended; whether a pass
        /// of the write queue is due for the writes that wait; and how long no hold must last before they run.
        var writeHolds = 0
        var lastHoldEnded: DispatchTime?
        var idleWritesScheduled = false
        var writeIdleDelay = DiskCache.writeIdleDelay

        /// Whether the waiting writes may run now: no hold, and none ended within ``writeIdleDelay``.
        func writesMayRun(at now: DispatchTime) -> Bool {
            writeHolds == 0 && lastHoldEnded.map { now >= $0 + writeIdleDelay } ?? true
        }

        /// Claims the pass that runs the waiting writes when the quiet time after the last hold is over, if one is
        /// due: no hold runs, the last ended at most ``writeIdleDelay`` ago, writes wait, and no pass is scheduled.
        mutating func claimIdlePass(at now: DispatchTime) -> DispatchTime? {
            guard writeHolds == 0, let ended = lastHoldEnded, !pendingWrites.isEmpty, !idleWritesScheduled,
                now <= ended + writeIdleDelay
            else { return nil }
            idleWritesScheduled = true
            return ended + writeIdleDelay
        }
        /// How long a write waits for the write queue before a drain does it.
        var writeDelay = DiskCache.writeDelay
    }

    private let state = Locked(State())
    /// Every job but the writes: removals, the index's load and snapshots, and the drains of writes.
    private let queue = DispatchQueue(label: "Lookahead.DiskCache", qos: .utility)
    /// The writes, which yield to decoding: an image reaches the screen before its bytes reach the disk. While a
    /// pipeline using this cache decodes (``holdWrites()``), a store's write waits; it runs once no decode does.
    /// A write still waiting ``writeDelay`` after it was queued is done by a drain on `queue` instead, so decoding
    /// that never stops, or a busy processor, delays writes by that much at most, and ``pendingWriteLimit`` bounds
    /// what waits. The queue's QoS yields too, but not enough on Linux: libdispatch gives a queue's threads only a
    /// nice value for it (utility 2, background 10), and even at 10 a write between two decodes takes a core.
    private let writeQueue = DispatchQueue(label: "Lookahead.DiskCache.writes", qos: DiskCache.writeQoS)
    #if canImport(Darwin)
    private static let writeQoS = DispatchQoS.utility
    #else
    private static let writeQoS = DispatchQoS.background
    #endif
    /// Held by every job on either queue while it runs: the folder sees one job at a time, as from one queue.
    private let jobLock = Locked(())
    /// `nil` when the folder cannot be written.
    private let ledger: DiskCacheLedger?
    private let logger: Logger
    private let path: String
    /// Seconds since 1970; tests pass their own clock.
    private let now: @Sendable () -> TimeInterval

    /// The default 500 MB cache shared by default pipeline configurations.
    public static let shared = DiskCache(name: "lookahead-images")

    /// The user's cache folder: `$XDG_CACHE_HOME` or `~/.cache` on Linux, `Caches` on Apple platforms.
    public static var userCachesDirectory: URL {
        #if canImport(Darwin)
        FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        #else
        if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        #endif
    }

    /// Opens (creating if needed) a cache in a folder named `name` under ``userCachesDirectory``.
    public convenience init(name: String, sizeLimit: Int = 500 << 20) {
        self.init(
            directory: Self.userCachesDirectory.appendingPathComponent(name, isDirectory: true),
            sizeLimit: sizeLimit
        )
    }

    /// Opens (creating if needed) a cache in a folder.
    ///
    /// - Parameters:
    ///   - directory: The folder; created if missing.
    ///   - sizeLimit: The most bytes the entries may take on disk. Default 500 MB.
    ///   - trimRatio: The fraction of the limit a sweep trims to. Default 0.8.
    ///   - synchronizesWrites: `fsync` each entry before it is renamed into place. Default off.
    ///   - writeRetryInterval: How long writing pauses once the disk is full or read-only. Default 60 s.
    ///   - maximumAge: How long an entry may go unused before it is removed. Default `nil`: no expiry.
    ///   - pendingWriteLimit: The most bytes of entries waiting to be written; stores beyond it are skipped until
    ///     the writes catch up. Default 32 MiB. An entry larger than the limit is stored when nothing else waits.
    ///   - logger: Receives warnings: corrupt entries removed, writing stopped.
    ///   - now: The clock entries' ages are measured on; tests pass one they move by hand.
    public init(
        directory: URL,
        sizeLimit: Int = 500 << 20,
        trimRatio: Double = 0.8,
        synchronizesWrites: Bool = false,
        writeRetryInterval: Duration = .seconds(60),
        maximumAge: Duration? = nil,
        pendingWriteLimit: Int = 32 << 20,
        logger: Logger = Logger(label: "lookahead.disk-cache"),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.now = { now().timeIntervalSince1970 }
        self.maximumAge = maximumAge
        self.pendingWriteLimit = max(0, pendingWriteLimit)
        self.directory = directory
        self.path = directory.path
        self.sizeLimit = max(0, sizeLimit)
        self.trimRatio = min(1, max(0, trimRatio))
        self.synchronizesWrites = synchronizesWrites
        self.writeRetryInterval = max(.zero, writeRetryInterval)
        self.logger = logger
        DiskCacheFile.prepareDirectory(directory.path)
        let folder = DiskCacheFolderHandle(path: directory.path)
        state.withLock { $0.folder = folder }
        do {
            ledger = try DiskCacheLedger(directory: directory.path)
            isReadOnly = false
        } catch {
            ledger = nil
            isReadOnly = true
            state.withLock {
                $0.writeFailure = error.description
                $0.writesPausedUntil = .infinity
            }
            logger.warning("Disk cache at \(directory.path) cannot write: \(error)")
        }
        queue.async {
            self.exclusively { self.loadIndex() }
            self.scheduleSnapshot()
        }
    }

    // MARK: - DataCaching

    public func cachedData(for key: String) -> Data? {
        guard !key.isEmpty else { return nil }
        let indexName = DiskCacheFile.keyName(for: key)
        // The file's name as a string is made only off the common path (staged or removed entries, failures): a
        // hit opens the file by a name spelled on the stack.
        var name: String { indexName.string }
        let now = now()
        let maximumAge = maximumAge?.secondsValue
        var folder: DiskCacheFolderHandle?
        // One lock per hit: the index is told of the use before the read, and forgets the entry if it fails.
        let lookup = state.withLock { state -> Lookup in
            if !state.staging.isEmpty, let staged = state.staging[name] {
                state.index.touch(indexName)
                return .staged(staged.data)
            }
            if let maximumAge, let entry = state.index.entry(indexName), now - entry.touchedAt > maximumAge {
                return .expired
            }
            folder = state.folder
            let known = state.index.recordHit(
                indexName,
                now: now,
                touchInterval: Double(DiskCacheFile.touchInterval)
            )
            // The order of use is saved with the next change's snapshot, or by `flush()`.
            if known != nil { state.snapshotDue = true }
            if known == nil, state.removingAll > 0 || state.removing[name] != nil { return .removed }
            // The index knows every entry on disk unless another cache changed the folder since this one counted
            // it: while the folder's generation says no other did, a miss costs one `pread`. A cache that cannot
            // write keeps no ledger, so it always looks.
            if known == nil, state.isIndexLoaded, !isReadOnly, !state.othersWrite,
                let generation = state.folderGeneration
            {
                return .unindexed(folderGeneration: generation)
            }
            return .file(
                size: known?.size,
                touch: (known?.touch ?? false) && !isReadOnly,
                indexed: known != nil,
                trusted: state.trusted[indexName]
            )
        }
        let size: Int?
        let touch: Bool
        let indexed: Bool
        var trusted: DiskCacheFile.Stamp?
        switch lookup {
        case .staged(let data): return data
        case .removed: return nil
        case .unindexed(let generation):
            let peeked = ledger?.peekGeneration()
            guard peeked != generation else { return nil }
            let othersChanged = state.withLock { state -> Bool in
                // A change of this cache's own moves the generation too; the index already counts it.
                if !state.othersWrite, let peeked, let base = state.ownChangeBase, (1...2).contains(peeked &- base) {
                    return false
                }
                state.othersWrite = true
                return true
            }
            guard othersChanged else { return nil }
            size = nil
            touch = false
            indexed = false
        case .expired:
            logger.debug("Removed a disk cache entry \(name) unused for longer than its maximum age")
            removeUnreadable(name)
            return nil
        case .file(let knownSize, let needsTouch, let isIndexed, let stamp):
            size = knownSize
            touch = needsTouch
            indexed = isIndexed
            trusted = stamp
        }
        let result: DiskCacheFile.ReadResult
        let verified: DiskCacheFile.Stamp?
        switch openEntry(indexName, in: folder) {
        case .success(let descriptor):
            (result, verified) = DiskCacheFile.read(
                descriptor: descriptor,
                keyName: indexName,
                expectedFileSize: size,
                touch: touch,
                trusted: trusted,
                now: now
            )
            close(descriptor)
        case .failure(let error):
            (result, verified) = (DiskCacheFile.openFailure(error.code), nil)
        }
        if let verified {
            state.withLock { state in
                if state.trusted.count >= Self.trustedLimit { state.trusted.removeAll(keepingCapacity: true) }
                state.trusted[indexName] = verified
            }
        }
        switch result {
        case .hit(let data):
            if !indexed, !isReadOnly {
                // Another cache wrote it: from now on this one counts it, and may evict it.
                let size = DiskCacheFile.fileSize(dataCount: data.count)
                state.withLock { state in
                    if !state.index.contains(name) { state.index.insert(name, size: size, touchedAt: now) }
                }
            }
            return data
        case .missing:
            if !isReadOnly { state.withLock { _ = $0.index.remove(name) } }
            return nil
        case .corrupt(let reason):
            logger.warning("Removed a corrupt disk cache entry \(name): \(reason)")
            removeUnreadable(name)
            return nil
        case .outdated(let version):
            logger.debug("Removed a disk cache entry \(name) of format version \(version)")
            removeUnreadable(name)
            return nil
        case .foreignChecksum(let kind):
            logger.debug("Removed a disk cache entry \(name) with a checksum of another kind (\(kind))")
            removeUnreadable(name)
            return nil
        }
    }

    /// Opens an entry file for reading, relative to the open folder when there is one. An entry missing from the
    /// open folder is looked for by path too: if it is there, the folder was replaced since it was opened (deleted
    /// and created again), and the new one is opened for the reads that follow.
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
        if let current = DiskCacheFolderHandle(path: path) {
            state.withLock { $0.folder = current }
        }
        return .success(descriptor)
    }

    /// What the index says about a key, decided under the lock.
    private enum Lookup {
        case staged(Data)
        /// Removed; its file may still be on disk until the queue removes it.
        case removed
        /// Not indexed; on disk only if the folder's generation moved on.
        case unindexed(folderGeneration: UInt64)
        case expired
        case file(size: Int?, touch: Bool, indexed: Bool, trusted: DiskCacheFile.Stamp?)
    }

    /// Stores data for a key, written in the background; an empty key or empty data is not stored.
    public func storeData(_ data: Data, for key: String) {
        guard !isReadOnly, !data.isEmpty, !key.isEmpty else { return }
        let size = DiskCacheFile.fileSize(dataCount: data.count)
        guard size <= Int(Double(sizeLimit) * trimRatio) else { return }
        let name = DiskCacheFile.name(for: key)
        let now = now()
        var startsSkipping = false
        var replacesEntry = false
        let scheduled = state.withLock { state -> (generation: Int, evicted: [String], needsSweep: Bool)? in
            guard state.writeFailure == nil || now >= state.writesPausedUntil else { return nil }
            let waiting = state.staging.bytes - (state.staging[name]?.data.count ?? 0)
            guard waiting == 0 || waiting + data.count <= pendingWriteLimit else {
                startsSkipping = !state.skippingStores
                state.skippingStores = true
                // An older version of this entry would be served in place of the one skipped.
                replacesEntry = state.index.contains(name)
                return nil
            }
            if waiting == 0 { state.skippingStores = false }
            state.generation += 1
            state.staging[name] = Staged(data: data, generation: state.generation)
            state.index.insert(name, size: size, touchedAt: now)
            var evicted: [String] = []
            if let maximumAge, now - state.lastExpirySweep >= 3_600 {
                state.lastExpirySweep = now
                evicted += state.index.removeEntries(touchedBefore: now - maximumAge.secondsValue)
            }
            // A small index is swept here, so the total never passes the limit; a large one on the queue, before
            // this write, sorting a copy outside the lock (a read never waits for a sort of 100,000 entries).
            if state.index.count <= Self.inlineSweepLimit {
                evicted += state.index.sweep(limit: sizeLimit, lowMark: lowMark)
            }
            for victim in evicted { state.staging[victim] = nil }
            state.pendingJobs += 1
            return (state.generation, evicted, state.index.totalSize > sizeLimit)
        }
        if startsSkipping {
            logger.notice("Disk cache at \(path) skips stores: \(pendingWriteLimit) bytes wait to be written")
        }
        if replacesEntry { removeEntry(named: name) }
        guard let scheduled else { return }
        enqueueWrite {
            let evicted = scheduled.evicted + (scheduled.needsSweep ? self.sweepIndex() : [])
            self.removeFilesUnlessStoredAgain(evicted)
            self.write(name: name, key: key, generation: scheduled.generation)
        }
    }

    public func removeData(for key: String) {
        guard !isReadOnly else { return }
        removeEntry(named: DiskCacheFile.name(for: key))
    }

    /// ``removeData(for:)`` of the entry file `name`.
    private func removeEntry(named name: String) {
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

    public func removeAll() {
        guard !isReadOnly else { return }
        state.withLock { state in
            state.staging.removeAll()
            state.index.removeAll()
            state.removingAll += 1
            state.pendingJobs += 1
        }
        enqueue {
            let names = DiskCacheFile.scan(directory: self.path, removeStaleTemporaries: false)?.map(\.name) ?? []
            self.removeFilesUnlessStoredAgain(names)
            self.state.withLock { $0.removingAll -= 1 }
        }
    }

    // MARK: - Inspection

    /// Runs `body` while the cache's queues run nothing: writes and removals issued meanwhile wait (tests). A job
    /// already running ends first, since a drain would also write what `body` stores.
    func holdingQueue<Result>(_ body: () -> Result) -> Result {
        queue.suspend()
        writeQueue.suspend()
        defer {
            writeQueue.resume()
            queue.resume()
        }
        return jobLock.withLock { _ in body() }
    }

    /// Whether a key missing from the index may be on disk, another cache having changed the folder (tests).
    var othersMayHaveWritten: Bool { state.withLock { $0.othersWrite } }

    /// Sets what runs inside each change to the folder, before its body (tests).
    func setDuringChange(_ body: (@Sendable () -> Void)?) {
        state.withLock { $0.duringChange = body }
    }

    /// Sets how long a write waits for the write queue before a drain does it (tests).
    func setWriteDelay(_ delay: DispatchTimeInterval) {
        state.withLock { $0.writeDelay = delay }
    }

    /// Runs `body` while the write queue runs nothing: only `flush()` or a drain writes meanwhile (tests).
    func holdingWriteQueue<Result>(_ body: () throws -> Result) rethrows -> Result {
        writeQueue.suspend()
        defer { writeQueue.resume() }
        return try body()
    }

    /// Waits until every write and removal issued so far is on disk, and the index is saved, blocking the calling
    /// thread.
    public func flush() {
        queue.sync { flushOnQueue() }
    }

    /// Waits until every write and removal issued so far is on disk, and the index is saved, without blocking a
    /// thread: the writes run on the cache's own queue, never on the cooperative pool. Call it before a program
    /// exits.
    public func flush() async {
        await queue.run { self.flushOnQueue() }
    }

    /// Whether the index was loaded from the folder's snapshot when the cache opened, rather than counted.
    @_spi(Benchmarks) public var indexWasLoadedFromSnapshot: Bool { state.withLock { $0.loadedFromSnapshot } }

    /// The bytes of entries stored and not yet written (``pendingWriteLimit`` bounds them), for benchmarks.
    @_spi(Benchmarks) public var bytesWaitingToBeWritten: Int { state.withLock { $0.staging.bytes } }

    /// The bytes the in-memory index takes, for benchmarks.
    @_spi(Benchmarks) public var indexFootprint: Int { state.withLock { $0.index.footprint } }

    /// The bytes the entries take (staged ones included), as the index counts them: 0 once the folder has been
    /// deleted from outside.
    public var totalSize: Int {
        forgetEntriesIfFolderDeleted()
        return state.withLock { $0.index.totalSize }
    }
    /// The number of entries.
    public var totalCount: Int {
        forgetEntriesIfFolderDeleted()
        return state.withLock { $0.index.count }
    }
    /// Why writing stopped, if it is stopped (disk full, read-only file system); `nil` again once a write succeeds.
    public var writeFailure: String? { state.withLock { $0.writeFailure } }

    /// Whether an entry for the key is known, without reading it.
    public func containsData(for key: String) -> Bool {
        let name = DiskCacheFile.name(for: key)
        return state.withLock { $0.staging[name] != nil || $0.index.contains(name) }
    }

    /// The path of the file that holds (or would hold) a key's entry.
    public func filePath(for key: String) -> String {
        path + "/" + DiskCacheFile.name(for: key)
    }

    // MARK: - Background work (on `queue`)

    private func loadIndex() {
        guard let ledger else {
            let scanned = DiskCacheFile.scan(directory: path, removeStaleTemporaries: false) ?? []
            state.withLock { state in
                state.index.reconcile(scanned: scanned, keeping: [])
                state.isIndexLoaded = true
            }
            return
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
            let evicted = state.withLock { state -> [String] in
                var evicted: [String] = []
                if let maximumAge {
                    state.lastExpirySweep = now
                    evicted += state.index.removeEntries(touchedBefore: now - maximumAge.secondsValue)
                }
                for victim in evicted { state.staging[victim] = nil }
                return evicted
            }
            let swept = sweepIndex()
            change(&held) { removeFiles(evicted + swept, &$0) }
        }
    }

    /// Counts the folder while holding its lock: the index learns every entry on disk and forgets those gone (the
    /// entries still waiting to be written stay), and the ledger's total becomes exact.
    private func count(_ held: inout DiskCacheLedger.Held) {
        // A folder that cannot be listed (no descriptors left) says nothing: the ledger and the index stay as they were.
        guard let scanned = DiskCacheFile.scan(directory: path, removeStaleTemporaries: held.isLocked) else {
            state.withLock { $0.isIndexLoaded = true }
            return
        }
        // Built outside the lock; moved into the index under it, so the index's next change copies nothing.
        var counted: DiskCacheIndex? = DiskCacheIndex(counting: scanned)
        let total = scanned.reduce(0) { $0 + $1.size }
        // A new record starts at a random generation, so a cache that remembers an old one never sees it again.
        let generation = held.values.map { $0.generation &+ 1 } ?? UInt64.random(in: 1...UInt64.max)
        held.values = DiskCacheLedger.Values(totalSize: total, generation: generation)
        held.save()
        adopt(counted.take()!, generation: held.values?.generation, fromSnapshot: false)
    }

    /// Makes a counted or loaded index of the whole folder, at a generation, the cache's own: the entries still
    /// waiting to be written stay. A counted index is saved for the next open.
    private func adopt(_ index: consuming DiskCacheIndex, generation: UInt64?, fromSnapshot: Bool) {
        var taken: DiskCacheIndex? = index
        state.withLock { state in
            state.index.reconcile(with: taken.take()!, keeping: Set(state.staging.names))
            state.isIndexLoaded = true
            state.folderGeneration = generation
            state.othersWrite = false
            if fromSnapshot { state.loadedFromSnapshot = true } else { state.snapshotDue = true }
        }
    }

    /// Loads the index from the folder's snapshot when it describes the folder as it is: taken at the generation the
    /// ledger holds now, with as many entries as the folder lists by name (a listing with no `stat` per file, which
    /// also removes temporary files left by dead processes). Returns `false` when the folder must be counted instead.
    private func loadSnapshot(_ held: DiskCacheLedger.Held) -> Bool {
        guard held.isLocked, let values = held.values, let snapshot = DiskCacheIndexSnapshot.read(directory: path),
            snapshot.generation == values.generation, snapshot.totalSize == values.totalSize,
            DiskCacheFile.countEntries(directory: path, removeStaleTemporaries: true) == snapshot.records.count
        else { return false }
        adopt(DiskCacheIndex(snapshot: snapshot), generation: values.generation, fromSnapshot: true)
        return true
    }

    /// Saves the index as the folder's snapshot when it changed and holds exactly what is on disk: no job that
    /// changes the folder waits, and no other cache changed it since this one last did.
    private func saveSnapshotIfDue() {
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

    /// Runs a job that changes the folder on the queue. The caller counted it in ``State/pendingJobs`` under the
    /// lock it changed the index with, so no snapshot is taken of an index ahead of the disk.
    private func enqueue(_ job: @escaping @Sendable () -> Void) {
        queue.async {
            self.exclusively(job)
            self.state.withLock { $0.pendingJobs -= 1 }
            self.scheduleSnapshot()
        }
    }

    /// Queues a store's job (counted in ``State/pendingJobs`` like any other) on the write queue, and a drain
    /// ``writeDelay`` later on `queue` when none is due: whatever still waits then is written at once.
    private func enqueueWrite(_ job: @escaping @Sendable () -> Void) {
        let (schedulesDrain, delay, idlePass) = state.withLock { state -> (Bool, DispatchTimeInterval, DispatchTime?) in
            state.pendingWrites.append(job)
            let schedulesDrain = !state.drainScheduled
            state.drainScheduled = true
            // Stored just after a hold ended: the write runs when the quiet time does.
            return (schedulesDrain, state.writeDelay, state.claimIdlePass(at: .now()))
        }
        writeQueue.async {
            // Until the index is loaded (first on `queue`), a drain does the writes: a count of the folder then
            // would find a file written here whose removal is queued behind it, and keep it.
            self.exclusively {
                if self.state.withLock({ $0.isIndexLoaded && $0.writesMayRun(at: .now()) }) {
                    self.runPendingWrites(upTo: 1)
                }
            }
        }
        if let idlePass { scheduleIdleWrites(at: idlePass) }
        guard schedulesDrain else { return }
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.drainScheduled = false }
            self.exclusively { self.runPendingWrites(upTo: .max) }
        }
    }

    /// Runs the oldest waiting stores' jobs, at most `count`; the caller holds `jobLock`.
    private func runPendingWrites(upTo count: Int) {
        // Taken in one go: a drain of many does not shift the queue once per job.
        let jobs = state.withLock { state in
            let jobs = Array(state.pendingWrites.prefix(count))
            state.pendingWrites.removeFirst(jobs.count)
            return jobs
        }
        for job in jobs {
            job()
            state.withLock { $0.pendingJobs -= 1 }
        }
        if !jobs.isEmpty { scheduleSnapshot() }
    }

    // MARK: - Yielding to decoding

    /// Holds the writes back while work that puts an image on screen runs: a pipeline calls it as each decode
    /// starts. A store's write then waits until no hold has been left for ``writeIdleDelay``, or ``writeDelay``
    /// at most. Every call is ended by one ``releaseWrites()``.
    package func holdWrites() {
        state.withLock { $0.writeHolds += 1 }
    }

    /// Ends one ``holdWrites()``. Once the last has ended and no new one has begun for ``writeIdleDelay``, the
    /// waiting writes run on the write queue, one at a time, until a new hold begins.
    package func releaseWrites() {
        let idlePass = state.withLock { state -> DispatchTime? in
            precondition(state.writeHolds > 0, "releaseWrites() without holdWrites()")
            state.writeHolds -= 1
            guard state.writeHolds == 0 else { return nil }
            let now = DispatchTime.now()
            state.lastHoldEnded = now
            return state.claimIdlePass(at: now)
        }
        if let idlePass { scheduleIdleWrites(at: idlePass) }
    }

    /// Runs the waiting writes at `deadline` if no hold has begun by then; else again once the quiet time after
    /// the last hold has passed. A hold still running leaves them to its release (or the drain).
    private func scheduleIdleWrites(at deadline: DispatchTime) {
        let run: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            enum Step {
                case write
                case stop
                case wait(until: DispatchTime)
            }
            self.exclusively {
                while true {
                    let now = DispatchTime.now()
                    let step = self.state.withLock { state -> Step in
                        guard state.isIndexLoaded, !state.pendingWrites.isEmpty, state.writeHolds == 0 else {
                            state.idleWritesScheduled = false
                            return .stop
                        }
                        if state.writesMayRun(at: now) { return .write }
                        // A hold began and ended since this pass was scheduled: the quiet time starts again.
                        return .wait(until: (state.lastHoldEnded ?? now) + state.writeIdleDelay)
                    }
                    switch step {
                    case .write: self.runPendingWrites(upTo: 1)
                    case .stop: return
                    case .wait(let deadline):
                        self.scheduleIdleWrites(at: deadline)
                        return
                    }
                }
            }
        }
        if deadline <= .now() {
            writeQueue.async(execute: run)
        } else {
            writeQueue.asyncAfter(deadline: deadline, execute: run)
        }
    }

    /// Sets how long no hold must last before the waiting writes run (tests).
    func setWriteIdleDelay(_ delay: DispatchTimeInterval) {
        state.withLock { $0.writeIdleDelay = delay }
    }

    /// Waits until the write queue has run every job queued on it so far (tests).
    func waitForWriteQueue() {
        writeQueue.sync {}
    }

    /// `flush()` on `queue`: the jobs queued there before it are done; the writes still waiting are done now.
    private func flushOnQueue() {
        exclusively {
            runPendingWrites(upTo: .max)
            saveSnapshotIfDue()
        }
    }

    private func exclusively(_ body: () -> Void) {
        jobLock.withLock { _ in body() }
    }

    /// The longest a write waits for the write queue before a drain does it, unless a test sets another.
    private static let writeDelay = DispatchTimeInterval.milliseconds(500)
    /// How long no decode must run before the waiting writes do: longer than the gaps between the decodes of
    /// images arriving together, so the writes wait for the batch rather than take a core in its gaps.
    private static let writeIdleDelay = DispatchTimeInterval.milliseconds(50)

    /// Saves the snapshot a while after the folder last changed: a burst of stores costs one save.
    private func scheduleSnapshot() {
        guard ledger != nil else { return }
        let schedule = state.withLock { state -> Bool in
            guard state.snapshotDue, !state.snapshotScheduled else { return false }
            state.snapshotScheduled = true
            return true
        }
        guard schedule else { return }
        queue.asyncAfter(deadline: .now() + Self.snapshotDelay) { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.snapshotScheduled = false }
            self.exclusively { self.saveSnapshotIfDue() }
        }
    }

    /// How long after a change the snapshot is saved, unless `flush()` saves it first.
    private static let snapshotDelay = DispatchTimeInterval.seconds(10)

    /// Makes one change to the folder holding its lock (`withLock` when the caller does not hold it yet), then
    /// advances the folder's generation.
    private func change<Result>(_ body: (inout DiskCacheLedger.Held) -> Result) -> Result {
        guard let ledger else {
            var held = DiskCacheLedger.Held.unlocked
            return body(&held)
        }
        return ledger.withLock { held in change(&held, body) }
    }

    private func change<Result>(
        _ held: inout DiskCacheLedger.Held,
        _ body: (inout DiskCacheLedger.Held) -> Result
    ) -> Result {
        if held.values == nil, held.isLocked { count(&held) }
        let before = held.values?.generation
        let duringChange = state.withLock { state in
            if before != state.folderGeneration { state.othersWrite = true }
            state.ownChangeBase = before
            return state.duringChange
        }
        // Advanced before the change too: a snapshot taken at `before` no longer describes the folder, even if this
        // process is killed before the change ends.
        held.values?.generation &+= 1
        held.save()
        duringChange?()
        let result = body(&held)
        held.values?.generation &+= 1
        held.save()
        let after = held.values?.generation
        state.withLock { state in
            state.folderGeneration = after
            state.ownChangeBase = nil
            state.snapshotDue = true
        }
        return result
    }

    private var lowMark: Int { Int(Double(sizeLimit) * trimRatio) }

    /// The most verified files remembered: the hot ones of a list, without a table that grows with the folder.
    private static let trustedLimit = 4096

    /// The most entries whose index a store sweeps under the lock (a sort of 4,096 entries takes well under a
    /// millisecond); a larger index is swept by ``sweepIndex()``.
    private static let inlineSweepLimit = 4096

    /// Sweeps the index down to the low mark when it is over the limit and returns the names evicted. The least
    /// recently used are sorted on a copy, outside the lock, and removed a batch per lock, so no read waits for
    /// more than a batch.
    private func sweepIndex() -> [String] {
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

    private func write(name: String, key: String, generation: Int) {
        guard let staged = state.withLock({ $0.staging[name] }), staged.generation == generation else { return }
        do {
            let temporary = try writeTemporary(key: key, data: staged.data)
            let size = DiskCacheFile.fileSize(dataCount: staged.data.count)
            try change { install(temporary, as: name, size: size, &$0) }.get()
        } catch {
            state.withLock { state in
                if state.staging[name]?.generation == generation {
                    state.staging[name] = nil
                    state.index.remove(name)
                }
            }
            if error.isOutOfSpaceOrReadOnly {
                let pausedUntil = now() + writeRetryInterval.secondsValue
                let isFirst = state.withLock { state -> Bool in
                    defer {
                        state.writeFailure = state.writeFailure ?? error.description
                        state.writesPausedUntil = pausedUntil
                    }
                    return state.writeFailure == nil
                }
                if isFirst { logger.warning("Disk cache at \(path) stopped writing: \(error)") }
            } else {
                logger.warning("Disk cache could not write entry \(name): \(error)")
            }
            return
        }
        let resumed = state.withLock { state -> Bool in
            if state.staging[name]?.generation == generation { state.staging[name] = nil }
            defer { state.writeFailure = nil }
            return state.writeFailure != nil
        }
        if resumed { logger.notice("Disk cache at \(path) writes again") }
    }

    /// Writes an entry's file under a temporary name; recreates the folder once if it was deleted from outside.
    private func writeTemporary(key: String, data: Data) throws(DiskCacheFile.IOError) -> String {
        for attempt in 1...2 {
            do {
                return try DiskCacheFile.writeTemporary(
                    directory: path,
                    key: key,
                    data: data,
                    synchronize: synchronizesWrites
                )
            } catch  where error.code == ENOENT && attempt == 1 {
                DiskCacheFile.prepareDirectory(path)
                forgetEntriesOnDisk()
            }
        }
        preconditionFailure("the second attempt returns or throws")
    }

    /// Renames a written entry into place and, when the caches on the folder together hold more than the size limit,
    /// evicts: the total is raised before the rename and lowered after, so a kill in between leaves it too high.
    private func install(
        _ temporary: String,
        as name: String,
        size: Int,
        _ held: inout DiskCacheLedger.Held
    ) -> Result<Void, DiskCacheFile.IOError> {
        guard held.isLocked else {
            // Without the folder's lock the entry could not be counted: other caches would trust a total too low.
            DiskCacheFile.remove(path: path + "/" + temporary)
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
        // Other caches wrote too: learn their entries, then evict the least recently used of them all.
        count(&held)
        removeFiles(sweepIndex(), &held)
        return .success(())
    }

    /// Deletes entry files holding the folder's lock, lowering the total by what each really took.
    private func removeFiles(_ names: [String], _ held: inout DiskCacheLedger.Held) {
        for name in names {
            let file = path + "/" + name
            guard let size = DiskCacheFile.size(path: file), DiskCacheFile.remove(path: file) else { continue }
            held.values?.totalSize -= size
        }
    }

    /// The folder was deleted from outside, and with it every entry written so far: the index keeps only the entries
    /// still waiting to be written, so ``totalSize`` and ``totalCount`` count what is really there.
    private func forgetEntriesOnDisk() {
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

    /// Notices a folder deleted from outside before the next write does: one `stat` of the folder.
    private func forgetEntriesIfFolderDeleted() {
        guard !isReadOnly, !FileManager.default.fileExists(atPath: path) else { return }
        DiskCacheFile.prepareDirectory(path)
        forgetEntriesOnDisk()
    }

    /// Forgets an entry that cannot be served and deletes its file (a cache that cannot write leaves it).
    private func removeUnreadable(_ name: String) {
        guard !isReadOnly else { return }
        state.withLock { state in
            state.index.remove(name)
            state.pendingJobs += 1
        }
        enqueue { self.removeFilesUnlessStoredAgain([name]) }
    }

    /// Deletes files, except those whose key was stored again after the deletion was decided: their new
    /// write is queued behind this job (or already done) and must survive.
    private func removeFilesUnlessStoredAgain(_ names: [String]) {
        guard !names.isEmpty else { return }
        let doomed = state.withLock { state in names.filter { !state.index.contains($0) } }
        guard !doomed.isEmpty else { return }
        change { removeFiles(doomed, &$0) }
    }
}
