// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead — FixtureRoutes+Animated: animated GIFs and WebPs of the fixture pictures.

import Dispatch
import Hummingbird

extension FixtureRoutes {
    /// Adds `/animated/{n}.gif` and `/animated/{n}.webp` with `?frames=&delayMs=&w=&h=`: picture `n` (320×240 unless
    /// `w`/`h` say) with a light band sweeping across it, `frames` frames (default 12, at most 500) each shown for
    /// `delayMs` (default 100), looping forever. Encoded off the concurrency pool, per request.
    func registerAnimated(on router: Router<FixtureRequestContext>) {
        for format in ["gif", "webp"] {
            router.get("/animated/{n}.\(format)") { request, context in
                let number = context.parameters.get("n", as: Int.self) ?? 1
                let query = request.uri.queryParameters
                let width = FixtureImages.clampedDimension(query.get("w", as: Int.self) ?? 320)
                let height = FixtureImages.clampedDimension(query.get("h", as: Int.self) ?? 240)
                let frameCount = min(max(query.get("frames", as: Int.self) ?? 12, 1), 500)
                let delay = min(max(query.get("delayMs", as: Int.self) ?? 100, 0), 10_000)
                let bytes = await withCheckedContinuation { continuation in
                    DispatchQueue.global().async {
                        let frames = AnimationEncoder.frames(
                            number: number,
                            width: width,
                            height: height,
                            frameCount: frameCount
                        )
                        continuation.resume(
                            returning: format == "gif"
                                ? AnimationEncoder.gif(
                                    frames: frames,
                                    width: width,
                                    height: height,
                                    delayMilliseconds: delay
                                )
                                : AnimationEncoder.webp(
                                    frames: frames,
                                    width: width,
                                    height: height,
                                    delayMilliseconds: delay
                                )
                        )
                    }
                }
                guard !bytes.isEmpty else { return Response(status: .internalServerError) }
                return Response(
                    status: .ok,
                    headers: [.contentType: format == "gif" ? "image/gif" : "image/webp"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
                )
            }
        }
    }
}
