// Lookahead — FileDataReader: `file:` URLs, read off the cooperative pool with the same size limit as HTTP.

import Foundation

/// Reads local files for ``URLSessionDataLoader``, which passes every `file:` URL here: FoundationNetworking's
/// `URLSession` does not load them on Linux, and on Apple platforms a direct read is cheaper than a session task.
///
/// - The read runs on a dedicated concurrent queue, never on the cooperative thread pool.
/// - The size limit is checked from the file's size before reading and again on the bytes read, so a file that
///   grows meanwhile cannot pass it either.
/// - Cancellation is checked before the read starts and after it ends.
enum FileDataReader {
    private static let queue = DispatchQueue(
        label: "Lookahead.FileDataReader",
        qos: .userInitiated,
        attributes: .concurrent
    )

    static func read(_ request: DataLoadRequest) async throws -> DataLoadResponse {
        try Task.checkCancellation()
        let url = request.url
        let limit = request.maximumResponseSize
        let progress = request.progress
        let data = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
            queue.async {
                continuation.resume(with: Result { try readFile(at: url, limit: limit) })
            }
        }
        try Task.checkCancellation()
        progress(Int64(data.count), Int64(data.count))
        return DataLoadResponse(data: data)
    }

    private static func readFile(at url: URL, limit: Int?) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        if let limit {
            let size = try handle.seekToEnd()
            guard size <= UInt64(limit) else { throw DataLoadingError.responseTooLarge(limit: limit) }
            try handle.seek(toOffset: 0)
            // One byte past the limit tells a file that grew from one that fits.
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else { throw DataLoadingError.responseTooLarge(limit: limit) }
            return data
        }
        return try handle.readToEnd() ?? Data()
    }
}
