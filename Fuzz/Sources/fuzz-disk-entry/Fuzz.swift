// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fuzzing — a disk cache entry file as anyone who can write the folder may leave it: the header (magic,
// version, checksum kind, length, key digest, checksum) and the data, verified for one key. An input whose checksum
// field is zero gets the right checksum, so mutations of a valid entry reach past the checksum too.

import Foundation

@testable import Lookahead

private let key = "https://example.com/fuzz.jpg"
private let keyName = DiskCacheFile.keyName(for: key)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var file = Array(UnsafeBufferPointer(start: start, count: count))
    let header = DiskCacheFile.headerSize
    if file.count >= header, file[48..<56].allSatisfy({ $0 == 0 }) {
        let checksum = file.withUnsafeBytes {
            DiskCacheChecksum.checksum(UnsafeRawBufferPointer(rebasing: $0[header...]))
        }
        DiskCacheFile.store(checksum, into: &file, at: 48, size: 8)
    }
    for checksums in [true, false] {
        let result = file.withUnsafeBytes { DiskCacheFile.verify($0, keyName: keyName, checksums: checksums) }
        guard case .hit = result else { continue }
        // A hit is a whole entry of this version, for this key, whose header states the data's length.
        let isWhole =
            file.count >= header && file[0..<4].elementsEqual(DiskCacheFile.magic)
            && file[4] == DiskCacheFile.version
            && file.withUnsafeBytes { DiskCacheFile.load($0, at: 8) } == UInt64(file.count - header)
            && file[16..<48].elementsEqual(DiskCacheFile.keyDigest(for: key))
        if !isWhole { fatalError("a hit on a file that is not a whole entry (\(file.count) bytes)") }
    }
    return 0
}
