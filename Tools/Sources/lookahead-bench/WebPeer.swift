// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — the web benchmark's peer: what a Linux developer would write in Python, httpx over HTTP/2 and
// a Pillow process pool.

import Foundation

/// A Python with httpx (its HTTP/2 support, h2) and Pillow, from PyPI: every URL requested at once on one
/// `httpx.AsyncClient`, each body handed to a process pool of one worker per core as it arrives, which makes a
/// thumbnail with Pillow (`draft`, then a LANCZOS `thumbnail`). httpx sends `Accept: */*`, so a negotiating origin
/// sends it JPEG.
struct WebPeer {
    let python: String

    static let script = """
        import asyncio, io, os, sys, time
        from concurrent.futures import ProcessPoolExecutor
        import httpx
        from PIL import Image

        def thumbnail(data, side):
            image = Image.open(io.BytesIO(data))
            image.draft('RGB', (side, side))
            image.thumbnail((side, side), Image.LANCZOS)
            return image.size

        async def main(certificate, http2, side, urls):
            loop = asyncio.get_running_loop()
            start = time.perf_counter()
            with ProcessPoolExecutor(os.cpu_count()) as pool:
                limits = httpx.Limits(max_connections=6)
                async with httpx.AsyncClient(http2=http2, verify=certificate, limits=limits, timeout=120) as client:
                    async def one(url):
                        response = await client.get(url)
                        response.raise_for_status()
                        await loop.run_in_executor(pool, thumbnail, response.content, side)
                        return len(response.content)
                    sizes = await asyncio.gather(*(one(url) for url in urls))
            print(time.perf_counter() - start, sum(sizes))

        if __name__ == '__main__':
            asyncio.run(main(sys.argv[1], sys.argv[2] == '2', int(sys.argv[3]), sys.argv[4:]))
        """

    /// The Python of `option`, else the first python3 on PATH, that imports httpx, h2 and PIL; `nil` when none.
    static func find(_ option: String?) throws -> WebPeer? {
        let candidates = option.map { [$0] } ?? [which("python3"), "/usr/bin/python3"].compactMap { $0 }
        for candidate in candidates where (try? capture(candidate, ["-c", "import httpx, h2, PIL"])) != nil {
            return WebPeer(python: candidate)
        }
        if let option { throw BenchFailure(description: "\(option) cannot import httpx, h2 and PIL") }
        return nil
    }

    /// The peer's seconds and bytes for every URL, `runs` times (its interpreter's start-up is not counted).
    func measure(client: WebClient, urls: [URL], runs: Int) throws -> [(seconds: Double, bytes: Int)] {
        let certificate = FileManager.default.temporaryDirectory
            .appendingPathComponent("lookahead-web-peer-\(getpid()).pem")
        try client.session.origin.certificate.write(to: certificate)
        defer { try? FileManager.default.removeItem(at: certificate) }
        let timeout = which("timeout") ?? "/usr/bin/timeout"
        var results: [(seconds: Double, bytes: Int)] = []
        for _ in 0..<runs {
            let output = try capture(
                timeout,
                ["900", python, "-c", Self.script, certificate.path, client.http.rawValue, "\(client.side)"]
                    + urls.map(\.absoluteString)
            )
            let fields = output.split(whereSeparator: \.isWhitespace)
            guard fields.count == 2, let seconds = Double(fields[0]), let bytes = Int(fields[1]) else {
                throw BenchFailure(description: "the Python peer printed \(output)")
            }
            results.append((seconds: seconds, bytes: bytes))
        }
        return results
    }
}
