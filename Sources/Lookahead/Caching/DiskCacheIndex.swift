// Lookahead — DiskCacheIndex: what the disk cache holds, its sizes and access order, in memory.

/// The in-memory index of a disk cache: every entry's size and when it was last used.
///
/// File access times are not trusted (Linux often mounts with `relatime` or `noatime`), so recency is a
/// logical clock kept here; across launches it is rebuilt from modification times, which the cache sets itself
/// on every hit. Not thread safe: ``DiskCache`` keeps it under its lock, and tests drive it directly.
struct DiskCacheIndex {
    struct Entry: Equatable {
        var size: Int
        var tick: UInt64
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

    /// Adds or replaces an entry as the most recently used.
    mutating func insert(_ name: String, size: Int) {
        clock += 1
        if let old = entries.updateValue(Entry(size: size, tick: clock), forKey: name) {
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
            entries[file.name] = Entry(size: file.size, tick: UInt64(offset))
            totalSize += file.size
        }
    }

    /// Names from least to most recently used.
    var namesByAge: [String] { entries.sorted { $0.value.tick < $1.value.tick }.map(\.key) }
}
