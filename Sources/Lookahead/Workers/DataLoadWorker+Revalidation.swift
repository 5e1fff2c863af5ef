// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

import Foundation

/// Revalidation in the background, for entries served stale under `stale-while-revalidate` (RFC 5861 §3).
extension DataLoadWorker {
    /// Asks the server about a stale entry that has already answered: a `304` refreshes its metadata; new data that
    /// is an image replaces it. One revalidation per entry at a time; nobody waits for it, and it reports to nobody.
    func revalidateInBackground(_ entry: StaleEntry, for request: ImageRequest, cache: any DataCaching, key: String) {
        revalidations.start(key) {
            let requestTime = configuration.diskCachePolicy.now()
            let result = await download(
                request,
                reporter: .unattached,
                headers: entry.metadata?.conditionalHeaders ?? [:],
                servesStaleOnTransportFailure: true
            )
            guard let url = request.url,
                serve(entry, after: result, requestTime: requestTime, url: url, cache: cache, key: key) == nil,
                case .success(let response) = result,
                let ticket = networkTicket(for: response, of: request, requestTime: requestTime, cache: cache, key: key)
            else { return }
            let decoders = configuration.decoders
            let verdict = await ioQueue.run { ImageDecoders.validateStructure(response.data, decoders: decoders) }
            if case .success = verdict { ticket.accept() }
        }
    }
}

/// The keys of the entries being revalidated in the background, each with its work.
final class BackgroundRevalidations: Sendable {
    private let running = Locked<[String: Task<Void, Never>]>([:])

    /// Starts `work` for `key` unless a revalidation of it is running.
    func start(_ key: String, _ work: @escaping @Sendable () async -> Void) {
        running.withLock { running in
            guard running[key] == nil else { return }
            running[key] = Task.detached(priority: .background) { [self] in
                await work()
                self.running.withLock { _ = $0.removeValue(forKey: key) }
            }
        }
    }

    /// Waits until the revalidations running now have finished.
    func wait() async {
        for task in running.withLock({ Array($0.values) }) { await task.value }
    }
}
