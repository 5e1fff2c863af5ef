// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureRoutes+HostileBodies: 200 responses whose bodies are not the image they claim to be.

import Hummingbird

extension FixtureRoutes {
    /// Adds the `/hostile/...` routes. Each answers 200 with `Content-Type: image/jpeg` and a
    /// `Content-Length` that matches the body, so the transport sees a success and only decoding can tell:
    ///
    /// - `html`: an HTML page (a captive portal or a login wall answering for the image).
    /// - `truncated.jpg`: the first 60% of a valid generated JPEG (picture 4, 320×240).
    /// - `scan-bomb.jpg`: a 1024×1024 progressive JPEG followed by 5,000 extra scans, each a pass over every
    ///   block (``FixtureImages/scanBombJPEG(number:width:height:extraScans:)``), about 70 KB.
    ///
    /// The bodies are the same on every request and every run.
    func registerHostileBodies(on router: Router<FixtureRequestContext>) {
        router.get("/hostile/html") { _, _ in
            Self.claimedJPEG(ByteBuffer(string: Self.htmlPage))
        }
        router.get("/hostile/truncated.jpg") { _, _ in
            let whole = try FixtureImages.jpeg(number: 4, width: 320, height: 240, quality: configuration.jpegQuality)
            return Self.claimedJPEG(ByteBuffer(bytes: whole.prefix(whole.count * 6 / 10)))
        }
        router.get("/hostile/scan-bomb.jpg") { _, _ in
            Self.claimedJPEG(ByteBuffer(bytes: try Self.scanBomb.get()))
        }
    }

    /// Built on first use (a progressive encode of a megapixel), then shared by every server in the process.
    private static let scanBomb = Result { () throws(FixtureServer.Error) -> [UInt8] in
        try FixtureImages.scanBombJPEG()
    }

    static let htmlPage = """
        <!DOCTYPE html>
        <html><head><title>Sign in</title></head>
        <body><h1>Sign in to continue</h1><form method="post"><input name="user"></form></body></html>

        """

    private static func claimedJPEG(_ body: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "image/jpeg"], body: .init(byteBuffer: body))
    }
}
