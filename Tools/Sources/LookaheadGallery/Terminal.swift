// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery — the terminal: raw mode, the alternate screen, the mouse wheel, input on a thread of its own,
// and restoring everything on quit, on SIGINT/SIGTERM/SIGHUP, and on a crash signal.

import CTerminal
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The controlling terminal, taken over for a full-screen program.
///
/// `start()` switches to raw input, the alternate screen, a hidden cursor and SGR mouse reports; `restore()` puts
/// all of it back and is safe to call twice. Crash signals restore the terminal from a C handler before the
/// process dies; SIGINT, SIGTERM and SIGHUP are delivered to ``onSignal`` on a dispatch queue.
public final class Terminal: Sendable {
    /// Leaves the alternate screen, shows the cursor, stops mouse reports, resets colours.
    static let restoreSequence = "\u{1B}[0m\u{1B}[?1000l\u{1B}[?1006l\u{1B}[?25h\u{1B}[?1049l"
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[2J"

    private let flags = Flags()
    private let signalQueue = DispatchQueue(label: "Lookahead.Gallery.signals")

    private final class Flags: Sendable {
        let resized = Atomic<Bool>(false)
        /// Kept so the sources stay armed for the life of the terminal.
        let sources = Mutex<[SignalSource]>([])
    }

    // SAFETY: dispatch sources are thread-safe objects; this wrapper only keeps one alive.
    private struct SignalSource: @unchecked Sendable {
        let source: any DispatchSourceSignal
    }

    public init() {}

    /// Whether standard input and output are both terminals.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// The size in cells, or `nil` when standard output is not a terminal.
    public static func size() -> (columns: Int, rows: Int)? {
        var columns: Int32 = 0
        var rows: Int32 = 0
        guard lookahead_terminal_size(STDOUT_FILENO, &columns, &rows) == 0 else { return nil }
        return (Int(columns), Int(rows))
    }

    /// Takes the terminal over. `onSignal` receives SIGINT, SIGTERM or SIGHUP (after which the owner should
    /// quit and call ``restore()``).
    public func start(onSignal: @escaping @Sendable (Int32) -> Void) throws {
        guard lookahead_terminal_enter_raw(STDIN_FILENO) == 0 else {
            throw TerminalError.notATerminal
        }
        Self.restoreSequence.withCString { lookahead_terminal_set_restore_sequence($0) }
        lookahead_terminal_install_crash_handlers()
        var sources: [SignalSource] = []
        // A source resumed is registered later, on dispatch's own thread; until then the signal is ignored and
        // lost. Each source is waited for (a few seconds at most), so a SIGTERM sent once the gallery shows is
        // not dropped.
        let registered = DispatchSemaphore(value: 0)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: signalQueue)
            source.setEventHandler { onSignal(signalNumber) }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            sources.append(SignalSource(source: source))
        }
        for _ in 0..<3 { _ = registered.wait(timeout: .now() + .seconds(5)) }
        signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: signalQueue)
        let flags = flags
        resize.setEventHandler { flags.resized.store(true, ordering: .releasing) }
        resize.resume()
        sources.append(SignalSource(source: resize))
        flags.sources.withLock { $0 = sources }
        write(Self.enterSequence)
    }

    /// Whether the terminal was resized since the last call.
    public func takeResize() -> Bool { flags.resized.exchange(false, ordering: .acquiring) }

    /// Puts the terminal back as it was.
    public func restore() {
        lookahead_terminal_restore()
    }

    /// Writes to standard output, all of it.
    public func write(_ text: String) {
        write(bytes: Array(text.utf8))
    }

    /// Writes bytes to standard output, all of them.
    public func write(bytes: [UInt8]) {
        var bytes = bytes
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                writeToStandardOutput(buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            offset += written
        }
    }

    /// Reads keys on a thread of its own until `shouldStop` returns true after a read, handing them to `onKeys`.
    /// A lone ESC is reported after 50 ms without further bytes.
    public func readKeys(onKeys: @escaping @Sendable ([Key]) -> Void, shouldStop: @escaping @Sendable () -> Bool) {
        let thread = Thread {
            var parser = KeyParser()
            var buffer = [UInt8](repeating: 0, count: 256)
            while !shouldStop() {
                var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                let ready = poll(&descriptor, 1, 50)
                if ready == 0 {
                    let keys = parser.flush()
                    if !keys.isEmpty { onKeys(keys) }
                    continue
                }
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count <= 0 {
                    if count < 0, errno == EINTR || errno == EAGAIN { continue }
                    onKeys([.interrupt])  // the terminal went away: quit
                    return
                }
                let keys = parser.feed(buffer[0..<count])
                if !keys.isEmpty { onKeys(keys) }
            }
        }
        thread.name = "gallery-input"
        thread.start()
    }
}

/// `write(2)` to standard output (a free function, so the C call is not shadowed by ``Terminal/write(_:)``).
private func writeToStandardOutput(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(STDOUT_FILENO, bytes, count)
}

/// Why the terminal could not be used.
public enum TerminalError: Error, CustomStringConvertible {
    case notATerminal

    public var description: String {
        switch self {
        case .notATerminal:
            "standard input is not a terminal: run the gallery in a terminal, or use --headless in scripts and pipes"
        }
    }
}
