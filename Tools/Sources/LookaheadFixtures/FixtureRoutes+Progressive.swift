// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureRoutes+Progressive: a progressive JPEG served one scan at a time, so previews can be seen.

import Hummingbird

extension FixtureRoutes {
    /// Adds `/progressive/{n}.jpg?w=&h=&pauseMs=`: picture `n` (640×480 unless `w`/`h` say) as a progressive JPEG,
    /// with `Content-Length`, written in chunks that each end just past the header of the next scan (so each chunk
    /// completes one scan for a decoder), with `pauseMs` (default 200, at most 5,000) between chunks. In
    /// the gallery the image sharpens scan by scan.
    func registerProgressive(on router: Router<FixtureRequestContext>) {
        router.get("/progressive/{n}.jpg") { request, context in
            let number = context.parameters.get("n", as: Int.self) ?? 1
            let query = request.uri.queryParameters
            let width = FixtureImages.clampedDimension(query.get("w", as: Int.self) ?? 640)
            let height = FixtureImages.clampedDimension(query.get("h", as: Int.self) ?? 480)
            let pause = min(max(query.get("pauseMs", as: Int.self) ?? 200, 0), 5_000)
            let bytes = try TurboJPEGEncoder.encode(
                rgb: FixtureImages.rgb(number: number, width: width, height: height),
                width: width,
                height: height,
                quality: configuration.jpegQuality,
                progressive: true
            )
            let chunks = Self.scanChunks(bytes)
            let body = ResponseBody(contentLength: bytes.count) { writer in
                for (index, chunk) in chunks.enumerated() {
                    if index > 0 { try await Task.sleep(for: .milliseconds(pause)) }
                    try await writer.write(ByteBuffer(bytes: chunk))
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: body)
        }
    }

    /// `jpeg` cut just past the header of each scan after the first: its start-of-scan marker (`FF DA`; entropy-coded
    /// data never holds it, a data `FF` is followed by `00`) and the segment its length covers.
    static func scanChunks(_ jpeg: [UInt8]) -> [ArraySlice<UInt8>] {
        let markers = jpeg.indices.dropLast().filter { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        for marker in markers.dropFirst() where marker + 3 < jpeg.count {
            let end = min(jpeg.count, marker + 2 + (Int(jpeg[marker + 2]) << 8 | Int(jpeg[marker + 3])))
            guard end > start else { continue }
            chunks.append(jpeg[start..<end])
            start = end
        }
        chunks.append(jpeg[start...])
        return chunks
    }
}
