// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CCurl)
import CCurl
import Foundation

/// Runs transfers on a libcurl multi handle from a thread of its own; other threads only post to the inbox and wake
/// it. Removing an easy handle closes its connection: a cancelled download stops on the wire at once.
// SAFETY: `active` is read and written only on the multi's thread; `inbox` is under its lock; `handle` is
// used from other threads only through `curl_multi_wakeup`, which libcurl documents as thread safe.
final class CurlMulti: @unchecked Sendable {
    private struct Inbox {
        var added: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
        var isShutDown = false
    }

    private let handle: UnsafeMutableRawPointer
    private let inbox = Locked(Inbox())
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    private static let globalInitialization: Void = {
        _ = curl_global_init(Int(CURL_GLOBAL_ALL))
    }()

    init(maximumConnectionsPerHost: Int) {
        _ = Self.globalInitialization
        guard let handle = curl_multi_init() else { fatalError("libcurl could not create a multi handle") }
        self.handle = handle
        let perHost = max(1, maximumConnectionsPerHost)
        _ = lookahead_curl_multi_set_long(handle, CURLMOPT_MAX_HOST_CONNECTIONS, perHost)
        // Keep every idle connection the per-host limit allows, for a few hosts, between two downloads of a list.
        _ = lookahead_curl_multi_set_long(handle, CURLMOPT_MAXCONNECTS, perHost * 4)
        let thread = Thread { [self] in run() }
        thread.name = "Lookahead.CurlMulti"
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    func add(_ transfer: CurlTransfer) {
        post { $0.added.append(transfer) }
    }

    /// Stops a transfer; its caller has been resumed already.
    func cancel(_ transfer: CurlTransfer) {
        post { $0.cancelled.append(transfer) }
    }

    /// Cancels everything and ends the thread.
    func shutDown() {
        post { $0.isShutDown = true }
    }

    private func post(_ change: (inout Inbox) -> Void) {
        inbox.withLock(change)
        curl_multi_wakeup(handle)
    }

    // MARK: - The thread

    private func run() {
        while true {
            let posted = inbox.withLock { inbox in
                defer { (inbox.added, inbox.cancelled) = ([], []) }
                return inbox
            }
            for transfer in posted.added { start(transfer) }
            for transfer in posted.cancelled { stop(transfer) }
            if posted.isShutDown {
                for transfer in Array(active.values) { stop(transfer) }
                curl_multi_cleanup(handle)
                return
            }
            var running: Int32 = 0
            _ = curl_multi_perform(handle, &running)
            finishCompleted()
            _ = curl_multi_poll(handle, nil, 0, 1000, nil)
        }
    }

    private func start(_ transfer: CurlTransfer) {
        guard !transfer.completion.isResumed else { return }  // cancelled before it started
        guard transfer.makeHandle(), let easy = transfer.easy, curl_multi_add_handle(handle, easy) == CURLM_OK else {
            let refusal = TransportFailure(kind: .other, message: "libcurl refused the transfer")
            transfer.completion.resume(with: .failure(DataLoadingError.transportFailed(refusal)))
            return
        }
        active[easy] = transfer
    }

    /// Removes a cancelled transfer, handing its bytes over before the connection closes.
    private func stop(_ transfer: CurlTransfer) {
        guard let easy = transfer.easy, active.removeValue(forKey: easy) != nil else { return }
        transfer.handOverPartialBody()
        _ = curl_multi_remove_handle(handle, easy)
        transfer.completion.resume(with: .failure(CancellationError()))
    }

    private func finishCompleted() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(handle, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            _ = curl_multi_remove_handle(handle, easy)
            guard let transfer = active.removeValue(forKey: easy) else { continue }
            let result = transfer.result(code: code)
            // The caller left first, or the body was cut short: a later load can resume what arrived.
            let cutShort = if case .failure(let error) = result { error.isInterruption } else { false }
            if transfer.completion.isResumed || cutShort { transfer.handOverPartialBody() }
            transfer.completion.resume(with: result.mapError { $0 })
        }
    }
}
#endif
