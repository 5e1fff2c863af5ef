// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead gallery tests — the real gallery binary in a real terminal: tmux runs it, sends keys and reads the
// screen back. Skipped, with the reason, where tmux is not installed (scripts/bootstrap installs it).

import Foundation
import LookaheadFixtures
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs `lookahead-gallery` in a detached tmux session of a fixed size.
///
/// The screen is read with `capture-pane` until it shows what a step expects, up to a deadline: the gallery is
/// another process drawing at its own pace, so the test waits for a condition of the screen, never for a time.
private final class TmuxSession {
    let name = "lookahead-test-\(UUID().uuidString.prefix(8))"

    init(arguments: [String], columns: Int = 100, rows: Int = 32) async throws {
        let executable = try Self.galleryExecutable()
        // After the gallery exits: its status, whether the terminal echoes and reads lines again, then a pause
        // that keeps the pane readable until the test kills the session.
        let command =
            ([executable] + arguments).map { "'\($0)'" }.joined(separator: " ")
            + "; echo EXIT=$?; stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo -e icanon -e -icanon"
            + " | tr '\\n' ' ' | sed 's/^/TTY: /'; echo; sleep 120"
        let arguments = ["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", command]
        // The server exits with its last session; a new session asked for while the previous test's server is
        // still exiting gets "server exited unexpectedly". Asking again then starts a fresh server.
        for attempt in 1... {
            do {
                try await Self.tmux(arguments)
                return
            } catch let error as TmuxError where error.description.contains("exited unexpectedly") && attempt < 10 {
                try await Task.sleep(for: .milliseconds(100))  // waiting for another process (the old server) to go
            }
        }
    }

    deinit {
        _ = try? Self.spawn(["tmux", "-L", Self.socket, "kill-session", "-t", name])
    }

    /// The visible text of the pane.
    func screen() async throws -> String {
        try await Self.tmux(["capture-pane", "-p", "-t", name])
    }

    /// Sends keys by tmux name (`j`, `Enter`, `PageDown`, `C-c`), `count` times.
    func send(_ key: String, count: Int = 1) async throws {
        try await Self.tmux(["send-keys", "-t", name, "-N", "\(count)", key])
    }

    /// Waits until the screen satisfies `condition`; fails with the last screen after `timeout`.
    @discardableResult
    func waitFor(
        _ what: String,
        timeout: Duration = .seconds(30),
        _ condition: (String) -> Bool
    ) async throws -> String {
        if let screen = try await poll(timeout: timeout, condition) { return screen }
        let last = try await screen()
        Issue.record("timed out waiting for \(what); the screen was:\n\(last)")
        throw TmuxError(description: "timed out waiting for \(what)")
    }

    /// The first screen that satisfies `condition` within `timeout`, or `nil`.
    func poll(timeout: Duration, _ condition: (String) -> Bool) async throws -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            let current = try await screen()
            if condition(current) { return current }
            try await Task.sleep(for: .milliseconds(100))  // polling another process's screen, not timing our own code
        }
        return nil
    }

    static var isAvailable: Bool { (try? spawn(["tmux", "-L", socket, "-V"]))?.status == 0 }

    static let socket = "lookahead-tests-\(ProcessInfo.processInfo.processIdentifier)"

    @discardableResult
    static func tmux(_ arguments: [String]) async throws -> String {
        // A server of the tests' own: the user's tmux sessions are never touched, and it exits with the last session.
        let (status, text) = try await onOwnThread { try spawn(["tmux", "-L", socket] + arguments) }
        guard status == 0 else { throw TmuxError(description: "tmux \(arguments.first ?? ""): \(text)") }
        return text
    }

    /// Runs a program from `PATH` and waits for it, its output in a file. Blocks: from async code, call it through
    /// `onOwnThread`.
    ///
    /// Not `Process`: swift-corelibs-foundation learns that a child ended when a socket it hands the child
    /// closes, and the server that `tmux new-session` forks keeps that socket open for as long as it runs.
    /// `posix_spawnp` and `waitpid` have no such tie, and output in a file (not a pipe) cannot hold anyone up.
    static func spawn(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw TmuxError(description: "cannot run \(arguments[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS are macros: an exit leaves the low 7 bits 0 and the status in the next 8.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
        return (exitStatus, output)
    }

    /// `lookahead-gallery`, built next to the test bundle.
    static func galleryExecutable() throws -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for folder in [bundle, bundle.deletingLastPathComponent()] {
            let candidate = folder.appendingPathComponent("lookahead-gallery").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw TmuxError(
            description: "lookahead-gallery is not built next to \(bundle.path): run `swift build` in Tools first"
        )
    }
}

/// Whether a line of the screen shows the title "Hello `number`" (not "Hello `number`0").
private func shows(_ number: Int, in screen: String) -> Bool {
    let title = "Hello \(number)"
    return screen.split(separator: "\n").contains { line in
        guard let range = line.range(of: title) else { return false }
        return line[range.upperBound...].first.map { !$0.isNumber } ?? true
    }
}

/// The line under the title "Hello `number`" in list mode: how the row's image is doing.
private func detailLine(of number: Int, in screen: String) -> String? {
    let rows = screen.split(separator: "\n").map(String.init)
    guard let index = rows.firstIndex(where: { shows(number, in: $0) }), index + 1 < rows.count else { return nil }
    return rows[index + 1]
}

/// Sends a signal to the gallery started with `marker` among its arguments.
private func signalGallery(_ signal: String, marker: String) async throws {
    // Anchored: the shell that tmux runs has the same words in its command line.
    let (status, _) = try await onOwnThread {
        try TmuxSession.spawn(["pkill", "-\(signal)", "-f", "^[^ ]*lookahead-gallery .*\(marker)"])
    }
    guard status == 0 else { throw TmuxError(description: "no gallery process matched \(marker)") }
}

/// The terminal modes printed after the gallery exited (`echo` or `-echo`, `icanon` or `-icanon`), sorted.
private func ttyModes(_ screen: String) -> [String] {
    guard let line = screen.split(separator: "\n").first(where: { $0.hasPrefix("TTY:") }) else { return [] }
    return line.dropFirst(4).split(separator: " ").map(String.init).sorted {
        $0.drop { $0 == "-" } < $1.drop { $0 == "-" }
    }
}

/// The CPU time (user + system) of a process so far, in clock ticks, from `/proc/PID/stat`.
private func cpuTicks(of pid: Int32) -> Int? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
    return user + system
}

/// The process id of the gallery started with `marker` among its arguments.
private func galleryProcess(marker: String) async throws -> Int32 {
    let (status, output) = try await onOwnThread {
        try TmuxSession.spawn(["pgrep", "-f", "^[^ ]*lookahead-gallery .*\(marker)"])
    }
    guard status == 0, let pid = output.split(separator: "\n").first.flatMap({ Int32($0) }) else {
        throw TmuxError(description: "no gallery process matched \(marker)")
    }
    return pid
}

private struct TmuxError: Error, CustomStringConvertible {
    let description: String
}

@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed (scripts/bootstrap installs it)"))
struct TmuxGalleryTests {
    private let fast = ["--latency-ms", "0", "--jitter-ms", "20", "--graphics", "symbols"]

    @Test func startScrollToRow150ToggleTheGridAndQuit() async throws {
        let session = try await TmuxSession(arguments: fast)
        let first = try await session.waitFor("the first rows and the status line") {
            shows(1, in: $0) && $0.contains("items 240") && $0.contains("list")
        }
        #expect(shows(2, in: first))
        try await session.send("j", count: 149)
        let scrolled = try await session.waitFor("row 150 on screen, selected") {
            shows(150, in: $0) && !shows(1, in: $0)
        }
        #expect(shows(149, in: scrolled) || shows(151, in: scrolled), "its neighbours are around it")
        try await session.send("g")
        try await session.waitFor("the grid around item 150") { $0.contains(" grid ") && shows(150, in: $0) }
        try await session.send("q")
        let after = try await session.waitFor("the shell after the gallery") {
            $0.contains("EXIT=") && $0.contains("TTY:")
        }
        #expect(after.contains("EXIT=0"))
        #expect(after.contains("Lookahead gallery: 240 items"), "the summary is printed on the normal screen")
        #expect(!after.contains("items 240 ·"), "the alternate screen is gone")
        #expect(ttyModes(after) == ["echo", "icanon"], "echo and line mode are back")
    }

    @Test func resizingTheTerminalRelayoutsTheGrid() async throws {
        let session = try await TmuxSession(arguments: fast + ["--mode", "grid"], columns: 130, rows: 40)
        func titlesPerLine(_ screen: String) -> Int {
            screen.split(separator: "\n").map { $0.components(separatedBy: "Hello ").count - 1 }.max() ?? 0
        }
        let wide = try await session.waitFor("the wide grid") { $0.contains(" grid ") && shows(1, in: $0) }
        let before = titlesPerLine(wide)
        try await TmuxSession.tmux(["resize-window", "-t", session.name, "-x", "60", "-y", "40"])
        // tmux crops the old screen at once, which also shows fewer titles per line; only the gallery's own
        // redraw puts the status line's right end ("? help") back within 60 columns.
        let narrow = try await session.waitFor("fewer columns under a redrawn status line") {
            titlesPerLine($0) > 0 && titlesPerLine($0) < before && $0.contains("items 240") && $0.contains("? help")
        }
        #expect(before >= 6, "130 columns hold at least 6 cells (\(before))")
        #expect(titlesPerLine(narrow) <= 3, "60 columns hold 3 at most (\(titlesPerLine(narrow)))")
        try await session.send("q")
    }

    @Test func controlCQuitsAndRestoresTheTerminal() async throws {
        let session = try await TmuxSession(arguments: fast + ["--mode", "grid"])
        try await session.waitFor("the grid") { $0.contains(" grid ") && shows(1, in: $0) }
        try await session.send("C-c")
        let after = try await session.waitFor("the shell after Ctrl-C") { $0.contains("EXIT=") && $0.contains("TTY:") }
        #expect(after.contains("EXIT=0"))
        #expect(ttyModes(after) == ["echo", "icanon"])
    }

    @Test func refreshEmptiesTheMemoryCacheAndReloadsTheFirstPage() async throws {
        let session = try await TmuxSession(arguments: fast)
        try await session.waitFor("row 1 downloaded") { detailLine(of: 1, in: $0)?.contains("downloaded") == true }
        try await session.send("r")
        let after = try await session.waitFor("row 1 again, now from the disk cache") {
            detailLine(of: 1, in: $0)?.contains("from disk") == true
        }
        #expect(after.contains("items 240"), "the first page came back")
        try await session.send("q")
    }

    @Test func sigtermQuitsCleanlyAndACrashSignalStillRestoresTheTerminal() async throws {
        for (signal, expected) in [("TERM", "EXIT=0"), ("SEGV", "EXIT=139")] {
            let marker = "\(Int.random(in: 300...999))"
            let session = try await TmuxSession(arguments: fast + ["--media-count", marker])
            try await session.waitFor("the list") { shows(1, in: $0) && $0.contains("items \(marker)") }
            try await signalGallery(signal, marker: "--media-count \(marker)")
            let after = try await session.waitFor("the shell after SIG\(signal)") {
                $0.contains("EXIT=") && $0.contains("TTY:")
            }
            #expect(after.contains(expected), "SIG\(signal)")
            #expect(!after.contains("items \(marker) ·"), "SIG\(signal): the alternate screen is gone")
            #expect(ttyModes(after) == ["echo", "icanon"], "SIG\(signal): echo and line mode are back")
        }
    }

    @Test func theLogFileGetsTheClassicConsoleLines() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-\(UUID().uuidString).log")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = try await TmuxSession(arguments: fast + ["--log", path])
        try await session.waitFor("row 1 downloaded") { detailLine(of: 1, in: $0)?.contains("downloaded") == true }
        try await session.send("PageDown", count: 3)
        try await session.waitFor("the list scrolled") { !shows(1, in: $0) }
        try await session.send("q")
        try await session.waitFor("the shell") { $0.contains("EXIT=") }
        let log = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        #expect(log.contains("🚀 Prefetching images for rows: ["))
        #expect(log.contains("🔄 Cell configured for row 1"))
        #expect(log.contains("⬇️ Starting download: http://127.0.0.1:"))
    }

    @Test func aFailedImageIsRetriedWithEnter() async throws {
        // Every first attempt of every image fails with HTTP 500 about half the time; a retry is a fresh draw.
        let session = try await TmuxSession(arguments: fast + ["--fail-rate", "0.5"])
        let screen = try await session.waitFor("a failed row") { $0.contains("HTTP 500 — Enter retries") }
        // The first failed row on screen: select it and press Enter until it loads (each try fails half the time).
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let failedLine = lines.firstIndex(where: { $0.contains("Enter retries") }),
            let titleLine = lines[..<failedLine].last(where: { $0.contains("Hello ") }),
            let number = Int(titleLine.split(separator: " ").drop { $0 != "Hello" }.dropFirst().first ?? "")
        else {
            Issue.record("no failed row with a title on screen:\n\(screen)")
            return
        }
        if number > 1 { try await session.send("j", count: number - 1) }
        var loaded = false
        for _ in 0..<8 where !loaded {
            try await session.send("Enter")
            let done = try await session.poll(timeout: .seconds(5)) { screen in
                guard let line = detailLine(of: number, in: screen) else { return false }
                return line.contains("downloaded") || line.contains("from ")
            }
            loaded = done != nil
        }
        #expect(loaded, "row \(number) loaded after a retry")
        try await session.send("q")
    }

    @Test func afterAnOutageEveryVisibleRowLoadsWithNoKeyPressed() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-\(UUID().uuidString).log")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The embedded server closes every connection for 3 s from the moment the rows are listed.
        let session = try await TmuxSession(arguments: fast + ["--outage", "3", "--log", path])
        try await session.waitFor("a row whose connection failed") { $0.contains("connection failed") }
        // The gallery itself says when every visible row shows its image after the outage. The screen cannot tell:
        // a row cut off at the bottom, or an image whose art is still being drawn, shows no placeholder text.
        // Quiet, that comes 1–4 s after the outage ends (the first answer comes when a failed URL's backoff lets it
        // try again). The bound is ten times that and more, for a loaded machine: what must never happen is a row
        // that stays failed until a key is pressed.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(60))
        var log = ""
        while clock.now < deadline, !log.contains("Every visible image shown") {
            try await Task.sleep(for: .milliseconds(100))  // polling another process's log file
            log = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
        let screen = try await session.screen()
        #expect(
            log.contains("Every visible image shown"),
            "every visible image shown after the outage, no key pressed; the screen was:\n\(screen)"
        )
        #expect(shows(1, in: screen))
        try await session.send("q")
        let after = try await session.waitFor("the summary after the gallery") { $0.contains("EXIT=") }
        // The summary line wraps at the pane's width, and a space where it wraps is trimmed from the capture: the
        // sentence is matched with every space and line break taken out.
        let text = after.filter { !$0.isWhitespace }
        let figure = text.firstMatch(of: /Everyvisibleimageshown([0-9.]+)saftertheoutageended/)?.1
        #expect(figure != nil, "the summary gives the time to every visible image:\n\(after)")
        print("seconds from the end of the outage to every visible image shown: \(figure ?? "?")")
    }

    @Test(arguments: [(80, 24), (160, 48)])
    func theStatusLineAndTheLogPaneDrawSymbolsNotReplacements(size: (columns: Int, rows: Int)) async throws {
        let session = try await TmuxSession(
            arguments: fast + ["--log", "pane"],
            columns: size.columns,
            rows: size.rows
        )
        let screen = try await session.waitFor("the log pane with downloads") {
            $0.contains("Starting download") && $0.contains("items 240")
        }
        // The only "?" on screen is the help key's own, or a URL's query in the log ("/animated/8.gif?w=160…").
        let withoutQueries = screen.replacingOccurrences(of: "? help", with: "").replacing(/\?[a-z]+=/, with: "")
        #expect(!withoutQueries.contains("?"), "no replacement:\n\(screen)")
        #expect(screen.contains("⬇️ Starting download") || screen.contains("⬇ Starting download"))
        #expect(screen.contains("? help"), "the help hint fits at \(size.columns) columns")
        try await session.send("q")
    }

    @Test func questionMarkOpensTheHelpAndEscapeClosesIt() async throws {
        let session = try await TmuxSession(arguments: fast, columns: 80, rows: 24)
        try await session.waitFor("the list") { shows(1, in: $0) && $0.contains("? help") }
        try await session.send("?")
        // A capture can land while a frame is still being written: wait for the overlay's last lines too.
        let help = try await session.waitFor("the whole help overlay") {
            $0.contains("Lookahead gallery — help") && $0.contains("q Ctrl-C")
        }
        #expect(help.contains("list ↔ grid"))
        #expect(help.contains("move the selection"))
        try await session.send("j")  // taken by the overlay: the selection does not move under it
        try await session.send("Escape")
        try await session.waitFor("the overlay gone") { !$0.contains("Lookahead gallery — help") && shows(1, in: $0) }
        try await session.send("q")
        let after = try await session.waitFor("the shell after the gallery") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"))
    }

    @Test func anIdleGalleryUsesAlmostNoCPU() async throws {
        let marker = "\(Int.random(in: 300...999))"
        let session = try await TmuxSession(arguments: fast + ["--media-count", marker], columns: 100, rows: 32)
        // Idle: every visible image shown, no download running.
        try await session.waitFor("every visible image loaded and no download in flight", timeout: .seconds(60)) {
            $0.contains("↓ 0 in flight") && !$0.contains("loading…") && shows(1, in: $0)
        }
        let pid = try await galleryProcess(marker: "--media-count \(marker)")
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        let before = try #require(cpuTicks(of: pid))
        let clock = ContinuousClock()
        let start = clock.now
        // The measurement window itself: another process's CPU time over 5 s of nothing happening.
        try await Task.sleep(for: .seconds(5))
        let after = try #require(cpuTicks(of: pid))
        let share = Double(after - before) / ticksPerSecond / start.duration(to: clock.now).seconds
        #expect(share < 0.02, "idle CPU \(share * 100)% of a core")
        try await session.send("q")
    }

    @Test func enterOpensTheDetailViewAndEscapeReturnsToTheSameRow() async throws {
        let session = try await TmuxSession(arguments: fast, columns: 100, rows: 32)
        func loaded(_ number: Int, _ screen: String) -> Bool {
            detailLine(of: number, in: screen).map { $0.contains("downloaded") || $0.contains("from ") } == true
        }
        try await session.waitFor("row 3 loaded") { loaded(3, $0) }
        try await session.send("j", count: 2)
        try await session.send("Enter")
        let detail = try await session.waitFor("the detail view of row 3 with its image") {
            $0.contains("Hello 3 ·") && $0.contains(" px") && $0.contains("Esc back")
        }
        #expect(!shows(1, in: detail), "the list is not drawn under the detail view")
        try await session.send("Escape")
        try await session.waitFor("the list again") { !$0.contains("Esc back") && shows(1, in: $0) && loaded(3, $0) }
        // The selection is where it was: Enter opens row 3 again; q in the detail view goes back, not out.
        try await session.send("Enter")
        try await session.waitFor("row 3's detail again") { $0.contains("Hello 3 ·") && $0.contains("Esc back") }
        try await session.send("q")
        try await session.waitFor("the list after q") { !$0.contains("Esc back") && shows(3, in: $0) }
        try await session.send("q")
        let after = try await session.waitFor("the shell after the gallery") { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"))
    }

    @Test func aProgressiveJPEGSharpensOnItsTile() async throws {
        // Row 4 of the embedded server is a progressive JPEG sent one scan every 400 ms: its tile shows previews
        // ("sharpening…") before the final image.
        let session = try await TmuxSession(arguments: fast, columns: 100, rows: 32)
        try await session.waitFor("row 4's preview") { detailLine(of: 4, in: $0)?.contains("sharpening") == true }
        try await session.waitFor("row 4's final image") { detailLine(of: 4, in: $0)?.contains("downloaded") == true }
        // Its detail view, a larger download, sharpens too.
        try await session.send("j", count: 3)
        try await session.send("Enter")
        try await session.waitFor("the detail view's preview") {
            $0.contains("Hello 4 ·") && $0.contains("sharpening…")
        }
        try await session.waitFor("the detail view's image") {
            $0.contains("Hello 4 ·") && $0.contains(" px · downloaded")
        }
        try await session.send("q")
        try await session.send("q")
    }

    @Test func theDetailViewOfAnAnimatedImagePlaysItsFrames() async throws {
        // Row 8 of the embedded server is an animated GIF of 16 frames, 90 ms each.
        let session = try await TmuxSession(arguments: fast, columns: 100, rows: 32)
        try await session.waitFor("row 1 loaded") { detailLine(of: 1, in: $0)?.contains("downloaded") == true }
        try await session.send("j", count: 7)
        // Enter opens a loaded image only.
        try await session.waitFor("row 8 loaded") { screen in
            detailLine(of: 8, in: screen).map { $0.contains("downloaded") || $0.contains("from ") } == true
        }
        try await session.send("Enter")
        func frame(_ screen: String) -> Int? {
            guard let title = screen.split(separator: "\n").first, title.contains("Hello 8 ·"),
                title.contains("animated GIF"), let range = title.range(of: "frame ")
            else { return nil }
            return Int(title[range.upperBound...].prefix { $0.isNumber })
        }
        let first = try await session.waitFor("the animation playing") { frame($0) != nil && $0.contains(" of 16") }
        let shown = try #require(frame(first))
        // Another frame within the deadline: the view plays without a key pressed.
        try await session.waitFor("a later frame") { frame($0).map { $0 != shown } == true }
        try await session.send("Escape")
        try await session.waitFor("the list again") { !$0.contains("Esc back") }
        try await session.send("q")
    }

    @Test func aSlowDownloadShowsItsProgressOnTheTile() async throws {
        // 2 KiB/s per response: an image of several KiB takes seconds, its bytes arriving in chunks.
        let session = try await TmuxSession(arguments: fast + ["--kib-per-second", "2"], columns: 100, rows: 32)
        let screen = try await session.waitFor("a progress bar on a loading tile") { $0.contains("━") }
        #expect(screen.contains("loading…"), "the tile is still loading while its bar grows")
        try await session.send("q")
    }
}
