// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

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
