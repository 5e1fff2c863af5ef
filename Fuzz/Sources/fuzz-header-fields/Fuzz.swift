// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fuzzing — header fields both ways: a request's fields as an app hands them over (checked before
// anything is sent, then written as `name: value` lines), and a response's head as a server sends it, line by line,
// into the fields an app sees.

import Foundation

@testable import Lookahead

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = UnsafeBufferPointer(start: start, count: count)
    var fields: [String: String] = [:]
    var lineStart = 0
    for index in 0...count where index == count || input[index] == 0x0A {
        let line = UnsafeBufferPointer(rebasing: input[lineStart..<min(index + 1, count)])
        lineStart = index + 1
        if case .field(let name, let value) = HeaderFields.responseLine(line) {
            fields[name, default: ""] += value
        }
        // The same bytes as a request field an app passes on, split at the first colon.
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if parts.count == 2 { checkRequestField(name: parts[0], value: parts[1]) }
    }
    if case .status(let code) = HeaderFields.responseLine(input), !(0...999).contains(code) {
        fatalError("status code \(code) is not three digits")
    }
    let response = HTTPResponseInfo(url: nil, statusCode: 200, headers: fields)
    for (name, value) in response.headers {
        if !HeaderFields.isToken(name) || name != name.lowercased() { fatalError("name \(name.debugDescription)") }
        if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
            fatalError("value of \(name) holds CR, LF or NUL: \(value.debugDescription)")
        }
    }
    _ = response.expectedContentLength
    return 0
}

/// A field that passes the check is written as exactly one line: no CR, LF or NUL, one colon before the value.
private func checkRequestField(name: String, value: String) {
    guard (try? HeaderFields.check([name: value])) != nil else { return }
    let line = Array("\(name): \(value)".utf8)
    if line.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
        fatalError("a checked field splits the request: \(name.debugDescription): \(value.debugDescription)")
    }
    if line.firstIndex(of: UInt8(ascii: ":")) != name.utf8.count { fatalError("the name holds a colon") }
}
