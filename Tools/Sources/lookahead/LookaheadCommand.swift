// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Lookahead CLI — decode files and fetch URLs through the pipeline, from the shell.

import ArgumentParser

@main
struct LookaheadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookahead",
        abstract: "Decode image files and fetch image URLs through the Lookahead pipeline.",
        subcommands: [DecodeCommand.self, FetchCommand.self, DiskWriterCommand.self]
    )
}
