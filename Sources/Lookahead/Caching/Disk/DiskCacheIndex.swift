// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

/// The in-memory index of a disk cache: every entry's size and recency, a logical clock rebuilt across launches from
/// modification times (which a hit sets at most once per ``DiskCacheFile/touchInterval``). Not thread safe.
struct DiskCacheIndex {
    /// An entry in 16 bytes: size (at most 4 GiB - 1), when its modification time was last set, and recency.
    struct Entry: Equatable {
        private var storedSize: UInt32
        private var storedTouchedAt: UInt32
        var tick: UInt64

        init(size: Int, tick: UInt64, touchedAt: Double = 0) {
            storedSize = UInt32(clamping: size)
            storedTouchedAt = UInt32(clamping: Int(touchedAt.rounded(.down)))
            self.tick = tick
        }

        var size: Int { Int(storedSize) }
        var touchedAt: Double { Double(storedTouchedAt) }
    }

    /// An entry's file name (64 hex digits) as the 32 bytes they spell: no string per entry.
    struct Name: Hashable {
        private let word0: UInt64
        private let word1: UInt64
        private let word2: UInt64
        private let word3: UInt64

        /// `nil` for a name that is not 64 lowercase hex digits: no entry file has such a name.
        init?(_ name: String) {
            guard DiskCacheFile.isEntryName(name) else { return nil }
            let nibbles = name.utf8.map { $0 <= 57 ? $0 - 48 : $0 - 87 }
            self.init(digest: stride(from: 0, to: 64, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] })
        }

        /// The name of a key's SHA-256 (``DiskCacheFile/keyDigest(for:)``).
        init(digest: [UInt8]) {
            precondition(digest.count == 32, "a SHA-256 digest")
            self = digest.withUnsafeBytes { Self(bytes: $0, at: 0) }
        }

        /// Reads the 32 bytes of a digest at `offset`.
        init(bytes: UnsafeRawBufferPointer, at offset: Int) {
            func word(_ start: Int) -> UInt64 {
                UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + start, as: UInt64.self))
            }
            (word0, word1, word2, word3) = (word(0), word(8), word(16), word(24))
        }

        private func withDigest<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
            try withUnsafeBytes(of: (word0.bigEndian, word1.bigEndian, word2.bigEndian, word3.bigEndian), body)
        }

        /// Writes the 32 bytes of the digest at `offset`.
        func store(into bytes: inout [UInt8], at offset: Int) {
            withDigest { bytes.replaceSubrange(offset..<offset + 32, with: $0) }
        }

        var string: String { withCString { String(cString: $0) } }

        /// Calls `body` with the 64 hex digits as a C string on the stack, to open the file.
        func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
            try withUnsafeTemporaryAllocation(of: CChar.self, capacity: 65) { buffer in
                withDigest { digest in
                    for index in 0..<64 {
                        let nibble = index % 2 == 0 ? digest[index / 2] >> 4 : digest[index / 2] & 0x0F
                        buffer[index] = CChar(nibble < 10 ? 48 + nibble : 87 + nibble)
                    }
                }
                buffer[64] = 0
                return try body(buffer.baseAddress!)
            }
        }

        /// The first two words mixed by multiply-add, for the table's multiply-shift hashing.
        func mixed(_ first: UInt64, _ second: UInt64) -> UInt64 { word0 &* first &+ word1 &* second }
    }

    private var table = Table()
    private(set) var totalSize = 0
    private var clock: UInt64 = 0

    init() {}

    var count: Int { table.count }
    var footprint: Int { table.footprint }
    func contains(_ name: String) -> Bool { entry(name) != nil }
    func entry(_ name: String) -> Entry? { Name(name).flatMap { table[$0] } }
    func entry(_ key: Name) -> Entry? { table[key] }

    /// Marks an entry as just used.
    mutating func touch(_ key: Name) { _ = recordHit(key, now: 0, touchInterval: .infinity) }

    /// Marks an entry as used; returns its size and whether the caller is to set its modification time.
    mutating func recordHit(_ key: Name, now: Double, touchInterval: Double) -> (size: Int, touch: Bool)? {
        guard let index = table.index(forKey: key) else { return nil }
        clock += 1
        let entry = table[at: index]
        let touch = now - entry.touchedAt >= touchInterval
        table[at: index] = Entry(size: entry.size, tick: clock, touchedAt: touch ? now : entry.touchedAt)
        return (entry.size, touch)
    }

    /// Adds or replaces an entry as the most recently used; `touchedAt` is when its file was written.
    mutating func insert(_ name: String, size: Int, touchedAt: Double = 0) {
        if let key = Name(name) { insert(key, size: size, touchedAt: touchedAt) }
    }

    private mutating func insert(_ key: Name, size: Int, touchedAt: Double) {
        clock += 1
        let entry = Entry(size: size, tick: clock, touchedAt: touchedAt)
        if let old = table.updateValue(entry, forKey: key) { totalSize -= old.size }
        totalSize += entry.size
    }

    mutating func remove(_ name: String) {
        if let key = Name(name) { remove(key) }
    }

    private mutating func remove(_ key: Name) {
        if let entry = table.removeValue(forKey: key) { totalSize -= entry.size }
    }

    /// Removes the entries whose files were last touched before `cutoff` (seconds since 1970); returns their names.
    mutating func removeEntries(touchedBefore cutoff: Double) -> [String] {
        let keys = table.filter { $0.value.touchedAt < cutoff }.map(\.key)
        for key in keys { remove(key) }
        return keys.map(\.string)
    }

    mutating func removeAll() {
        table.removeAll()
        totalSize = 0
    }

    /// Above `limit`, removes least recently used entries down to `lowMark`; returns their names, oldest first.
    mutating func sweep(limit: Int, lowMark: Int) -> [String] {
        guard let candidates = sweepCandidates(limit: limit, lowMark: lowMark) else { return [] }
        return evict(Self.plan(candidates)[...], lowMark: lowMark)
    }

    /// Above `limit`, every entry and the bytes to free: a copy taken under the lock, for ``plan(_:)`` outside it.
    func sweepCandidates(limit: Int, lowMark: Int) -> SweepCandidates? {
        guard totalSize > limit else { return nil }
        return (table.map { (name: $0.key, tick: $0.value.tick, size: $0.value.size) }, totalSize - lowMark)
    }

    typealias SweepCandidates = (entries: [(name: Name, tick: UInt64, size: Int)], excess: Int)

    /// The least recently used candidates that free the excess, oldest first.
    static func plan(_ candidates: SweepCandidates) -> [(name: Name, tick: UInt64)] {
        var excess = candidates.excess
        var plan: [(name: Name, tick: UInt64)] = []
        for candidate in candidates.entries.sorted(by: { $0.tick < $1.tick }) {
            guard excess > 0 else { break }
            plan.append((candidate.name, candidate.tick))
            excess -= candidate.size
        }
        return plan
    }

    /// Removes the planned entries down to `lowMark`, except those used since the plan; returns their names.
    mutating func evict(_ plan: ArraySlice<(name: Name, tick: UInt64)>, lowMark: Int) -> [String] {
        var evicted: [String] = []
        for item in plan {
            guard totalSize > lowMark else { break }
            guard table[item.name]?.tick == item.tick else { continue }
            remove(item.name)
            evicted.append(item.name.string)
        }
        return evicted
    }

    /// Adds entries found on disk, oldest modification first, as older than anything already indexed.
    mutating func merge(scanned: [(name: String, size: Int, modified: Double)]) {
        let found = scanned.compactMap { file in Name(file.name).map { (key: $0, file: file) } }
            .filter { table[$0.key] == nil }.sorted { $0.file.modified < $1.file.modified }
        guard !found.isEmpty else { return }
        let shift = UInt64(found.count)  // the existing entries move up: the scanned ones are older
        for index in 0..<table.count { table[at: index].tick += shift }
        clock += shift
        table.reserveCapacity(table.count + found.count)
        for (offset, item) in found.enumerated() {
            let entry = Entry(size: item.file.size, tick: UInt64(offset), touchedAt: item.file.modified)
            table[item.key] = entry
            totalSize += entry.size
        }
    }

    /// The index of a scan alone, built outside the cache's lock, then joined in by ``reconcile(with:keeping:)``.
    init(counting scanned: [(name: String, size: Int, modified: Double)]) { merge(scanned: scanned) }

    /// Becomes `counted`, keeping as more recent the entries of this index that the scan found or `keeping` names.
    mutating func reconcile(with counted: consuming DiskCacheIndex, keeping: Set<String>) {
        let shift = counted.clock
        var merged = counted
        let kept = Set(keeping.compactMap(Name.init))
        for (key, entry) in table {
            var moved = entry
            moved.tick = entry.tick + shift
            if let onDisk = merged.table[key] {
                merged.table[key] = Entry(size: onDisk.size, tick: moved.tick, touchedAt: entry.touchedAt)
            } else if kept.contains(key) {
                merged.table[key] = moved
                merged.totalSize += moved.size
            }
        }
        merged.clock = clock + shift
        self = merged
    }

    /// Every entry as a snapshot's record with its recency, in no order, to be sorted outside the cache's lock.
    var unsortedSnapshotRecords: DiskCacheIndexSnapshot.Unsorted {
        table.map { name, entry in
            (.init(name: name, size: UInt32(entry.size), touchedAt: UInt32(entry.touchedAt)), entry.tick)
        }
    }

    /// The index a snapshot saved, in its order of use.
    init(snapshot: DiskCacheIndexSnapshot) {
        table.reserveCapacity(snapshot.records.count)
        for record in snapshot.records {
            insert(record.name, size: Int(record.size), touchedAt: Double(record.touchedAt))
        }
    }

    /// Names from least to most recently used.
    var namesByAge: [String] { table.sorted { $0.value.tick < $1.value.tick }.map(\.key.string) }
}
