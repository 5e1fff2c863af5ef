// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation
import Logging

/// Keeps the original bytes of downloaded images in a folder.
///
/// Entries are checksummed and verified on every read (a bad one is a miss), written atomically in the background,
/// private to their user, and evicted least recently used first to stay under ``sizeLimit``. Several caches, in one
/// process or several (an app and its extensions), may share a folder and keep to the size limit together.
///
/// ```swift
/// let pipeline = ImagePipeline { $0.diskCache = DiskCache(name: "com.example.thumbnails", sizeLimit: 200 << 20) }
/// ```
/// - Important: Thread safe. `cachedData(for:)` may block on disk I/O; call it off the main thread.
public final class DiskCache: DataCaching {
    /// The folder holding the entries.
    public let directory: URL
    /// The most bytes the entries may take on disk together (headers included).
    public let sizeLimit: Int
    /// After a sweep the total is at most `sizeLimit × trimRatio`, so sweeps are rare.
    public let trimRatio: Double
    /// `fsync` each entry before renaming it into place.
    public let synchronizesWrites: Bool
    /// `true` when the folder cannot be written (a read-only file system, another user's folder): the cache only reads.
    public var isReadOnly: Bool { ledger == nil }
    /// How long writing pauses after the disk was found full or read-only, before a store tries again.
    public let writeRetryInterval: Duration
    /// How long an entry may go unused before it is removed; `nil` keeps entries until the size limit evicts them.
    public let maximumAge: Duration?
    /// The most bytes stored and not yet written; past it, stores are skipped until the writes catch up.
    public let pendingWriteLimit: Int

    struct State {
        var index = DiskCacheIndex()
        var isIndexLoaded = false
        var staging = DiskCacheStaging()
        /// Entry files whose checksum this process verified, as they were then (at most ``trustedLimit``).
        var trusted: [DiskCacheIndex.Name: DiskCacheFile.Stamp] = [:]
        var folder: DiskCacheFolderHandle?
        /// The folder's generation after this cache's last change (``DiskCacheLedger``).
        var folderGeneration: UInt64?
        /// Another cache changed the folder since this one counted it: a key missing from the index may be on disk.
        var othersWrite = false
        /// The folder's generation before this cache's change in progress, which adds one or two to it.
        var ownChangeBase: UInt64?
        var duringChange: (@Sendable () -> Void)?
        var writeFailure: String?
        /// Seconds since 1970 until which stores are ignored after a write failure.
        var writesPausedUntil: TimeInterval = 0
        /// Stores are skipped until the writes catch up (logged once).
        var skippingStores = false
        var lastExpirySweep: TimeInterval = 0
        /// Jobs queued that will change the folder: while there are any, the index is ahead of the disk.
        var pendingJobs = 0
        /// Queued removals by entry, and of everything: until they run, such a file on disk is a miss.
        var removing: [String: Int] = [:]
        var removingAll = 0
        var snapshotDue = false
        var snapshotScheduled = false
        var loadedFromSnapshot = false
    }

    let state = Locked(State())
    /// The writes, which yield to decoding, and every other job on the folder.
    let writes = DiskCacheWriteQueue()
    let ledger: DiskCacheLedger?
    let logger: Logger
    let path: String
    /// Seconds since 1970; tests pass their own clock.
    let now: @Sendable () -> TimeInterval

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

    /// Opens (creating if needed) a cache in a folder; the properties of the same names describe the settings.
    /// `logger` receives warnings (corrupt entries removed, writing stopped); `now` is the clock of entries' ages.
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
        state.withLock { $0.folder = DiskCacheFolderHandle(path: directory.path) }
        do {
            ledger = try DiskCacheLedger(directory: directory.path)
        } catch {
            ledger = nil
            state.withLock { $0.writeFailure = error.description }
            logger.warning("Disk cache at \(directory.path) cannot write: \(error)")
        }
        writes.jobs.async {
            self.writes.exclusively {
                self.loadIndex()
                self.writes.start { [weak self] in self?.scheduleSnapshot() }
            }
            self.scheduleSnapshot()
        }
    }

    /// Stores data for a key, written in the background; an empty key or empty data is not stored.
    public func storeData(_ data: Data, for key: String) {
        guard !isReadOnly, !data.isEmpty, !key.isEmpty else { return }
        let size = DiskCacheFile.fileSize(dataCount: data.count)
        guard size <= lowMark else { return }
        let name = DiskCacheFile.name(for: key)
        let now = now()
        switch state.withLock({ stage(data, as: name, size: size, now: now, in: &$0) }) {
        case .paused:
            return
        case .skipped(let startsSkipping, let replacesEntry):
            if startsSkipping {
                logger.notice("Disk cache at \(path) skips stores: \(pendingWriteLimit) bytes wait to be written")
            }
            if replacesEntry { removeEntry(named: name) }  // an older version must not be served in its place
        case .staged(let generation, let evicted, let needsSweep):
            writes.enqueue {
                self.removeFilesUnlessStoredAgain(evicted + (needsSweep ? self.sweepIndex() : []))
                self.write(name: name, key: key, generation: generation)
                self.state.withLock { $0.pendingJobs -= 1 }
            }
        }
    }

    public func removeData(for key: String) { removeEntry(named: DiskCacheFile.name(for: key)) }

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

    /// Whether an entry for the key is known, without reading it.
    public func containsData(for key: String) -> Bool {
        let name = DiskCacheFile.name(for: key)
        return state.withLock { $0.staging[name] != nil || $0.index.contains(name) }
    }

    /// A store's write waits until no hold has been left for 50 ms, or half a second at most.
    public func holdWrites() { writes.holdWrites() }

    public func releaseWrites() { writes.releaseWrites() }

    /// Waits until every write and removal issued so far is on disk, and the index is saved, blocking the thread.
    public func flush() { writes.jobs.sync { flushOnQueue() } }

    /// `flush()` without blocking a thread; call it before a program exits.
    public func flush() async { await writes.jobs.run { self.flushOnQueue() } }

    private func flushOnQueue() {
        writes.exclusively {
            writes.runPending(upTo: .max)
            saveSnapshotIfDue()
        }
    }

    /// Whether the index was loaded from the folder's snapshot when the cache opened, rather than counted.
    @_spi(Benchmarks) public var indexWasLoadedFromSnapshot: Bool { state.withLock { $0.loadedFromSnapshot } }

    /// The bytes of entries stored and not yet written (``pendingWriteLimit`` bounds them), for benchmarks.
    @_spi(Benchmarks) public var bytesWaitingToBeWritten: Int { state.withLock { $0.staging.bytes } }

    /// The bytes the in-memory index takes, for benchmarks.
    @_spi(Benchmarks) public var indexFootprint: Int { state.withLock { $0.index.footprint } }

    /// The bytes the entries take (staged ones included), as the index counts them.
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

    /// The path of the file that holds (or would hold) a key's entry.
    public func filePath(for key: String) -> String { path + "/" + DiskCacheFile.name(for: key) }

    // MARK: - Tests

    var othersMayHaveWritten: Bool { state.withLock { $0.othersWrite } }

    func setDuringChange(_ body: (@Sendable () -> Void)?) { state.withLock { $0.duringChange = body } }

    var lowMark: Int { Int(Double(sizeLimit) * trimRatio) }

    /// The most verified files remembered: the hot ones of a list, without a table that grows with the folder.
    static let trustedLimit = 4096
}
