// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead bench — `lookahead-bench e2e`'s last lines: the cold pass against curl and the floor, where its CPU
// goes, and the figures of the thumbnail peer and of format negotiation.

import Foundation

extension EndToEndBenchmark {
    /// The cold pass's lines (`e2e:`, `e2e-written:`, `e2e-cpu:`, `e2e-kernel:`, `e2e-floor:`) and its figure.
    func reportCold(_ table: Table, decodeFloor: Double, decodeUsage: ProcessUsage) {
        let cold = table.lookahead["cold"]!.median(\.seconds)
        let curlTime = table.curl.median(\.seconds)
        let transport = table.lookahead["data, no disk cache"]!.median(\.seconds)
        let floor = max(transport, decodeFloor)
        print(String(format: "e2e: lookahead %.3f s, curl %.3f s, ratio %.2f", cold, curlTime, cold / curlTime))
        printCPU(table, floor: floor, decodeUsage: decodeUsage)
        printKernel(table, decodeUsage: decodeUsage)
        print(
            String(
                format: "e2e-floor: lookahead %.3f s, floor %.3f s, ratio %.2f (floor = max(transport alone %.3f s, "
                    + "decoding alone on all cores %.3f s))",
                cold,
                floor,
                cold / floor,
                transport,
                decodeFloor
            )
        )
        BenchFigure(
            id: "e2e-cold",
            title: "\(count) images over loopback, cold, ≤ \(parallel) connections, against the floor",
            unit: "s",
            lookahead: cold,
            peers: [
                .init(name: "floor: max(transport alone, decoding alone on all cores)", value: floor),
                .init(name: "curl --parallel --parallel-max \(parallel) (no decoding)", value: curlTime),
            ],
            goal: "≤ 1.10× the floor",
            goalMet: cold <= 1.10 * floor,
            note: String(
                format: "transport alone %.3f s, decoding alone %.3f s; median of %d runs; ",
                transport,
                decodeFloor,
                runs
            )
                + loadNote()
        ).print()
    }

    /// What the parts cost in CPU: when the server shares the client's cores, transport and decoding cannot
    /// overlap beyond the cores, and the wall-time floor is the larger of `floor` and their CPU over the cores.
    private func printCPU(_ table: Table, floor: Double, decodeUsage: ProcessUsage) {
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        let cold = table.lookahead["cold"]!.median(\.seconds)
        let coldCPU = table.lookahead["cold"]!.median(\.cpu)
        let transportCPU = table.lookahead["data, no disk cache"]!.median(\.cpu)
        let storingCPU = table.lookahead["cold, data only"]!.median(\.cpu)
        let decodeCPU = decodeUsage.cpu
        let sharedFloor = max(floor, (transportCPU + decodeCPU) / cores)
        let coldSamples = table.lookahead["cold"]!.compactMap(\.written)
        print(
            String(
                format: "e2e-written: the cold pass until the disk cache had written every body %.3f s (%.3f s of "
                    + "CPU); the writes yield to decoding",
                Self.median(coldSamples.map(\.seconds)),
                Self.median(coldSamples.map(\.cpu))
            )
        )
        print(
            String(
                format: "e2e-cpu: CPU seconds (this process, the in-process server included): cold %.3f, transport "
                    + "alone %.3f, data written to the disk cache %.3f, decoding alone %.3f; cold ÷ (transport + "
                    + "decoding) %.2f; floor on %d shared cores max(floor, (transport + decoding) CPU ÷ cores) "
                    + "%.3f s, ratio %.2f",
                coldCPU,
                transportCPU,
                storingCPU,
                decodeCPU,
                coldCPU / (transportCPU + decodeCPU),
                Int(cores),
                sharedFloor,
                cold / sharedFloor
            )
        )
    }

    /// Where the CPU above the parts goes: the kernel's share and the pages first touched, per pass. A file
    /// system without a journal (ext4 here) makes each new file skip the inodes deleted in the last minutes, so
    /// the disk cache's writes cost more after other programs deleted files.
    private func printKernel(_ table: Table, decodeUsage: ProcessUsage) {
        func kernel(_ pass: String) -> (Double, Int) {
            let samples = table.lookahead[pass]!
            return (samples.median(\.usage.system), Int(samples.median { Double($0.usage.pageFaults) }))
        }
        let (coldSystem, coldFaults) = kernel("cold")
        let (transportSystem, transportFaults) = kernel("data, no disk cache")
        let (storingSystem, storingFaults) = kernel("cold, data only")
        print(
            String(
                format: "e2e-kernel: CPU in the kernel, and page faults: cold %.3f s, %d; transport alone %.3f s, %d; "
                    + "data written to the disk cache %.3f s, %d; decoding alone %.3f s, %d",
                coldSystem,
                coldFaults,
                transportSystem,
                transportFaults,
                storingSystem,
                storingFaults,
                decodeUsage.system,
                decodeUsage.pageFaults
            )
        )
    }

    /// The `e2e-peer:` line and figure.
    func reportPeer(_ peer: (lookahead: Double, curl: Double, pillow: Double)) {
        let peerTime = peer.curl + peer.pillow
        print(
            String(
                format: "e2e-peer: lookahead %.3f s, peer %.3f s, ratio %.2f (%d px thumbnails; peer = curl "
                    + "--parallel into files %.3f s, then Pillow draft + thumbnail in %d processes %.3f s)",
                peer.lookahead,
                peerTime,
                peer.lookahead / peerTime,
                Self.peerSide,
                peer.curl,
                ProcessInfo.processInfo.activeProcessorCount,
                peer.pillow
            )
        )
        BenchFigure(
            id: "e2e-peer",
            title: "\(count) images → \(Self.peerSide) px thumbnails over loopback, cold",
            unit: "s",
            lookahead: peer.lookahead,
            peers: [.init(name: "curl --parallel into files, then a Pillow pool", value: peerTime)],
            goal: "≤ 0.8× the peer",
            goalMet: peer.lookahead <= 0.8 * peerTime,
            note: "median of \(runs) runs; " + loadNote()
        ).print()
    }

    /// The `e2e-formats:` line and figure.
    func reportFormats(
        _ formats: (webp: (bytes: Double, seconds: Double), jpeg: (bytes: Double, seconds: Double))
    ) {
        print(
            String(
                format: "e2e-formats: Accept for AVIF/WebP %.0f bytes in %.3f s, JPEG only %.0f bytes in %.3f s: "
                    + "%.2f× the bytes, %.2f× the time (a server that negotiates WebP)",
                formats.webp.bytes,
                formats.webp.seconds,
                formats.jpeg.bytes,
                formats.jpeg.seconds,
                formats.webp.bytes / formats.jpeg.bytes,
                formats.webp.seconds / formats.jpeg.seconds
            )
        )
        BenchFigure(
            id: "e2e-formats",
            title: "Bytes on the wire, \(count) images, from a server that negotiates formats",
            unit: "MB",
            lookahead: formats.webp.bytes / 1e6,
            peers: [.init(name: "the same pipeline asking for nothing (JPEG)", value: formats.jpeg.bytes / 1e6)],
            goal: "fewer bytes than JPEG",
            goalMet: formats.webp.bytes < formats.jpeg.bytes,
            note: String(
                format: "cold pass %.3f s with negotiation, %.3f s without; ",
                formats.webp.seconds,
                formats.jpeg.seconds
            )
                + loadNote()
        ).print()
    }
}
