// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — a fresh folder per test, removed afterwards.

import Foundation

/// A new empty folder under the system's temporary folder.
final class TemporaryDirectory {
    let url: URL
    var path: String { url.path }

    init(_ label: String = "lookahead-tests") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The total size of the regular files directly in the folder whose names pass the filter.
    func bytes(where include: (String) -> Bool = { _ in true }) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter(include).reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}
