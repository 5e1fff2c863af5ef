// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead fixtures — blocking work called from async code, on a thread of its own: waiting on another process,
// a pipe or a lock never holds one of the cooperative pool's threads.
//
// The pool has one thread per core: two on a 2-core machine. Two tests that each block a pool thread while a child
// process runs stop every task in the process until one child ends — in-process servers answer nothing, downloads
// time out and unrelated tests fail.

import Foundation

/// Runs `body` on a new thread and returns what it returns (or throws what it throws), suspending the caller
/// meanwhile.
public func onOwnThread<T: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
        let thread = Thread { continuation.resume(returning: Result(catching: body)) }
        thread.stackSize = 4 << 20
        thread.start()
    }
    return try result.get()
}

/// How a program run to its end by ``runProgram(_:arguments:environment:)`` ended, and what it printed.
public struct ProgramRun: Sendable {
    /// The exit status, or the signal's number when a signal ended it.
    public let status: Int32
    /// Whether a signal ended it.
    public let wasSignalled: Bool
    public let standardOutput: Data
    public let standardError: Data

    /// Standard output as text.
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as text.
    public var errors: String { String(decoding: standardError, as: UTF8.self) }
}

/// Runs a program to its end: both of its outputs are read while it runs (a full pipe cannot stall it), and the
/// caller waits without holding a thread of the cooperative pool.
///
/// - Parameter environment: variables added to this process's environment for the child.
public func runProgram(
    _ executable: URL,
    arguments: [String],
    environment: [String: String] = [:]
) async throws -> ProgramRun {
    try await onOwnThread {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Standard error is read on a second thread, so a child that fills one pipe while this thread waits on the
        // other keeps going.
        let errorBytes = ReadToEnd(errors.fileHandleForReading)
        let outputBytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProgramRun(
            status: process.terminationStatus,
            wasSignalled: process.terminationReason == .uncaughtSignal,
            standardOutput: outputBytes,
            standardError: errorBytes.wait()
        )
    }
}

/// Reads a file handle to its end on a thread of its own.
private final class ReadToEnd: @unchecked Sendable {
    // SAFETY: `bytes` is written once by the reading thread before `done` is signalled, and read only after it.
    private var bytes = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            bytes = handle.readDataToEndOfFile()
            done.signal()
        }
        thread.start()
    }

    /// Waits for the end of the file: call from a thread that may block.
    func wait() -> Data {
        done.wait()
        return bytes
    }
}
