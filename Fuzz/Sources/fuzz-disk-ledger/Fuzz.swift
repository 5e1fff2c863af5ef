// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fuzzing — the disk cache folder's shared files, as anyone who can write the folder may leave them: the
// ledger's record (`.ledger`: the total size and generation every cache on the folder shares) and the saved index
// (`.index`). An index whose checksum field is zero gets the right checksum, so mutations reach past it.

import Foundation

@testable import Lookahead

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: count)
    // The ledger reads its first 24 bytes; a short or long file is no record.
    if let values = DiskCacheLedger.values(record: input), values.totalSize < 0 {
        fatalError("a negative total size from the ledger")
    }
    if count >= 24, let values = DiskCacheLedger.values(record: UnsafeRawBufferPointer(rebasing: input[..<24])) {
        if values.totalSize < 0 { fatalError("a negative total size from the ledger") }
    }
    var bytes = Array(input)
    let header = DiskCacheIndexSnapshot.headerSize
    if bytes.count >= header, bytes[8..<16].allSatisfy({ $0 == 0 }) {
        let checksum = bytes.withUnsafeBytes { DiskCacheChecksum.checksum(UnsafeRawBufferPointer(rebasing: $0[16...])) }
        DiskCacheFile.store(checksum, into: &bytes, at: 8, size: 8)
    }
    guard let snapshot = bytes.withUnsafeBytes({ DiskCacheIndexSnapshot(decoding: $0) }) else { return 0 }
    // A snapshot that parses states its own size and count, and saves back to the same snapshot.
    if snapshot.totalSize != snapshot.records.reduce(0, { $0 + Int($1.size) }) { fatalError("total size") }
    if snapshot.records.count != (bytes.count - header) / DiskCacheIndexSnapshot.recordSize { fatalError("count") }
    if snapshot.encoded().withUnsafeBytes({ DiskCacheIndexSnapshot(decoding: $0) }) != snapshot {
        fatalError("the saved index does not round-trip")
    }
    return 0
}
