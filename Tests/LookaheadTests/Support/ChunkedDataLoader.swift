// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead tests — ChunkedDataLoader: a loader that hands the pipeline its body in chunks the test releases.

import Foundation

@testable import Lookahead

/// Serves one body. For each chunk end (a byte count), it waits until the test releases the chunk, then reports
/// progress (with the total) and the body so far (``DataLoadRequest/onData``); after the last chunk it returns the
/// whole body without another report.
final class ChunkedDataLoader: DataLoading {
    let body: Data
    let chunkEnds: [Int]
    /// How many chunks the test has released.
    let released = AsyncCondition(0)

    init(body: Data, chunkEnds: [Int]) {
        self.body = body
        self.chunkEnds = chunkEnds
    }

    func release() {
        released.update { $0 += 1 }
    }

    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse {
        for (index, end) in chunkEnds.enumerated() {
            await released.wait { $0 > index }
            try Task.checkCancellation()
            request.progress(Int64(end), Int64(body.count))
            request.onData?(Data(body.prefix(end)))
        }
        let count = chunkEnds.count
        await released.wait { $0 > count }
        try Task.checkCancellation()
        request.progress(Int64(body.count), Int64(body.count))
        return DataLoadResponse(data: body)
    }
}
