// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// The in-memory index of a disk cache: every entry's size and when it was last used.
///
/// File access times are not trusted (Linux often mounts with `relatime` or `noatime`), so recency is a
/// logical clock kept here; across launches it is rebuilt from modification times, which the cache sets itself
/// on a hit at most once per ``DiskCacheFile/touchInterval`` (the index remembers when, so deciding costs no
/// syscall). Not thread safe: ``DiskCache`` keeps it under its lock, and tests drive it directly.
struct DiskCacheIndex {
    struct Entry: Equatable {
        var size: Int
        var tick: UInt64
        /// When the file's modification time was last set, in seconds since 1970.
        var touchedAt: Double = 0
    }

    private(set) var entries: [String: Entry] = [:]
    /// The sum of the sizes of all entries, in bytes.
    private(set) var totalSize = 0
    private var clock: UInt64 = 0

    var count: Int { entries.count }

    func contains(_ name: String) -> Bool { entries[name] != nil }

    /// Marks an entry as just used.
    mutating func touch(_ name: String) {
        guard entries[name] != nil else { return }
        clock += 1
        entries[name]!.tick = clock
    }

    /// Marks an entry as just used, `now` seconds since 1970, and returns its file size and whether its
    /// modification time is older than `touchInterval` seconds (then it counts as set now: the caller sets it).
    /// `nil` when the entry is not indexed.
    mutating func recordHit(_ name: String, now: Double, touchInterval: Double) -> (size: Int, touch: Bool)? {
        guard let index = entries.index(forKey: name) else { return nil }
        clock += 1
        entries.values[index].tick = clock
        let touch = now - entries.values[index].touchedAt >= touchInterval
        if touch { entries.values[index].touchedAt = now }
        return (entries.values[index].size, touch)
    }

    /// Adds or replaces an entry as the most recently used; `touchedAt` is when its file was written.
    mutating func insert(_ name: String, size: Int, touchedAt: Double = 0) {
        clock += 1
        if let old = entries.updateValue(Entry(size: size, tick: clock, touchedAt: touchedAt), forKey: name) {
            totalSize -= old.size
        }
        totalSize += size
    }

    /// Removes an entry.
    @discardableResult
    mutating func remove(_ name: String) -> Entry? {
        guard let entry = entries.removeValue(forKey: name) else { return nil }
        totalSize -= entry.size
        return entry
    }

    /// Removes the entries whose files were last touched before `cutoff` (seconds since 1970); returns their names.
    mutating func removeEntries(touchedBefore cutoff: Double) -> [String] {
        let names = entries.filter { $0.value.touchedAt < cutoff }.map(\.key)
        for name in names { remove(name) }
        return names
    }

    /// Removes every entry.
    mutating func removeAll() {
        entries.removeAll()
        totalSize = 0
    }

    /// When the total exceeds `limit`, removes least recently used entries until it is at most `lowMark`, and
    /// returns their names, oldest first. Returns nothing while the total is within the limit.
    mutating func sweep(limit: Int, lowMark: Int) -> [String] {
        guard totalSize > limit else { return [] }
        var evicted: [String] = []
        for (name, _) in entries.sorted(by: { $0.value.tick < $1.value.tick }) {
            guard totalSize > lowMark else { break }
            remove(name)
            evicted.append(name)
        }
        return evicted
    }

    /// Adds entries found on disk at open, oldest modification first, as older than anything already indexed.
    mutating func merge(scanned: [(name: String, size: Int, modified: Double)]) {
        let known = entries
        let found = scanned.filter { known[$0.name] == nil }.sorted { $0.modified < $1.modified }
        guard !found.isEmpty else { return }
        // Shift the existing entries up so the scanned ones come first in LRU order.
        let shift = UInt64(found.count)
        for name in entries.keys { entries[name]!.tick += shift }
        clock += shift
        for (offset, file) in found.enumerated() {
            entries[file.name] = Entry(size: file.size, tick: UInt64(offset), touchedAt: file.modified)
            totalSize += file.size
        }
    }

    /// Makes the index match a scan of the folder: entries no longer on disk are forgotten unless `keeping` names
    /// them (they wait to be written), sizes are taken from the disk, and new entries come first in LRU order.
    mutating func reconcile(scanned: [(name: String, size: Int, modified: Double)], keeping: Set<String>) {
        var onDisk: [String: Int] = [:]
        onDisk.reserveCapacity(scanned.count)
        for file in scanned { onDisk[file.name] = file.size }
        for (name, entry) in entries where !keeping.contains(name) {
            guard let size = onDisk[name] else {
                remove(name)
                continue
            }
            if size != entry.size {
                totalSize += size - entry.size
                entries[name]!.size = size
            }
        }
        merge(scanned: scanned)
    }

    /// Names from least to most recently used.
    var namesByAge: [String] { entries.sorted { $0.value.tick < $1.value.tick }.map(\.key) }
}
