// Lookahead tools tests — the loopback fixture server, exercised over real HTTP.
import Testing
