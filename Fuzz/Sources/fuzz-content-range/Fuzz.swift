// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fuzzing — a `206` answering a resumed download: its `Content-Range` (first line) and the sizes of the
// prefix kept, the body received and the length first declared (the next bytes), judged as the loader judges them;
// and the stored form of a partial download as read back from the disk cache.

import Foundation

@testable import Lookahead

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Data(bytes: start, count: count)
    let newline = input.firstIndex(of: 0x0A) ?? input.endIndex
    let value = String(decoding: input[..<newline], as: UTF8.self)
    let rest = Array(input[min(newline + 1, input.endIndex)...])
    if let range = ContentRange(value) {
        if range.first < 0 || range.last < range.first { fatalError("\(value.debugDescription): \(range)") }
        if let complete = range.completeLength, complete <= range.last { fatalError("\(value.debugDescription)") }
    }
    // Sizes from the next bytes: the prefix kept (1–256), the body (0–255), the declared length (none when 0).
    let prefix = Int(rest.first ?? 1) + 1
    let bodySize = rest.count > 1 ? Int(rest[1]) : 0
    let declared: Int64? = rest.count > 2 && rest[2] != 0 ? Int64(rest[2]) + Int64(prefix) : nil
    let partial = PartialDownload(data: Data(count: prefix), validator: "\"v\"", totalLength: declared)
    let info = HTTPResponseInfo(url: nil, statusCode: 206, headers: ["Content-Range": value])
    let answer = DataLoadResponse(data: Data(repeating: 1, count: bodySize), response: info)
    if case .joined(let whole) = partial.resume(with: answer) {
        // Joined only when provably the whole body: the prefix, then exactly the bytes the range names, as the app
        // sees the field (a CR, LF or NUL made a space).
        guard let seen = info.headers["content-range"], let range = ContentRange(seen), range.first == Int64(prefix),
            range.last + 1 == Int64(whole.count)
        else { fatalError("joined \(whole.count) bytes from \(value.debugDescription) after \(prefix)") }
        if let declared, declared != Int64(whole.count) { fatalError("joined past the declared length") }
    }
    // The stored form: a JSON header line, then the bytes.
    if let stored = PartialDownload.decode(input) {
        if stored.data.isEmpty { fatalError("a stored partial download without bytes") }
        if PartialDownload.decode(stored.encoded()) != stored { fatalError("the stored form does not round-trip") }
    }
    return 0
}
