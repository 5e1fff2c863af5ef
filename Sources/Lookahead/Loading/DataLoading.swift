// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

public import Foundation

/// Loads the bytes of an image. The default is ``DefaultDataLoader``.
///
/// - Important: Thread safe. Cancelling the calling task must stop the transfer and throw `CancellationError` promptly.
public protocol DataLoading: Sendable {
    /// Loads the data for a request, reporting progress as bytes arrive. Throw ``DataLoadingError`` for failures the
    /// pipeline should report precisely; any other error becomes ``ImagePipeline/Error/dataLoadingFailed(_:)``.
    func loadData(for request: DataLoadRequest) async throws -> DataLoadResponse
}

/// What a ``DataLoading`` implementation is asked to load.
public struct DataLoadRequest: Sendable {
    /// The location of the data.
    public var url: URL
    /// The largest body to accept; beyond it a loader must fail with ``DataLoadingError/responseTooLarge(limit:)``.
    public var maximumResponseSize: Int?
    /// The most time the whole transfer may take, redirects included; past it a loader fails with `timedOut`.
    public var timeout: Duration?
    /// The most time the transfer may go without receiving a byte; past it a loader fails with `timedOut`.
    public var idleTimeout: Duration?
    /// Called as bytes arrive with the bytes received so far and the expected total, when known.
    public var progress: @Sendable (_ completed: Int64, _ total: Int64?) -> Void
    /// Extra request header fields (`If-None-Match` for a revalidation), over the loader's own of the same name.
    public var headers: [String: String] = [:]
    /// Called at most once, before the failure is reported, with the part of a `200` body received when the transfer
    /// stopped (cancelled, reset, cut short or stalled), so a later load can resume it with `Range`.
    public var partialBodyOnInterruption: (@Sendable (_ data: Data, _ response: HTTPResponseInfo) -> Void)?
    /// The former name of ``partialBodyOnInterruption``.
    @available(*, deprecated, renamed: "partialBodyOnInterruption")
    public var partialBodyOnCancellation: (@Sendable (_ data: Data, _ response: HTTPResponseInfo) -> Void)? {
        get { partialBodyOnInterruption }
        set { partialBodyOnInterruption = newValue }
    }
    /// Called now and then with the body received so far, for progressive previews. Optional for a loader.
    public var onData: (@Sendable (_ bodySoFar: Data) -> Void)?
    /// How urgently the download is needed when it starts (the highest of the requests sharing it), for a loader
    /// that can tell the server: an HTTP/2 stream's weight (``ImageRequest/Priority/streamWeight``). The pipeline
    /// orders its own queue by it already.
    public var priority: ImageRequest.Priority = .normal

    public init(
        url: URL,
        maximumResponseSize: Int? = nil,
        timeout: Duration? = nil,
        idleTimeout: Duration? = nil,
        progress: @escaping @Sendable (_ completed: Int64, _ total: Int64?) -> Void = { _, _ in }
    ) {
        self.url = url
        self.maximumResponseSize = maximumResponseSize
        self.timeout = timeout
        self.idleTimeout = idleTimeout
        self.progress = progress
    }

    /// Why a final response is refused: a status outside 2xx, or a declared body over the limit; `nil` if it is not.
    func refusal(of response: HTTPResponseInfo) -> DataLoadingError? {
        guard (200..<300).contains(response.statusCode) else {
            return .statusCodeUnacceptable(response.statusCode, response)
        }
        guard let limit = maximumResponseSize, let length = response.expectedContentLength, length > Int64(limit)
        else { return nil }
        return .responseTooLarge(limit: limit)
    }

    /// The bytes to reserve for a body of a declared length: within the limit and at most 8 MiB (the server may lie).
    func reservation(forDeclaredLength length: Int64?) -> Int {
        guard let length, length > 0 else { return 0 }
        return Int(min(length, Int64(maximumResponseSize ?? Int.max), 8 << 20))
    }
}

/// Loaded data and, for HTTP, the response that carried it.
public struct DataLoadResponse: Sendable {
    /// The body.
    public var data: Data
    /// The HTTP response, if the data came over HTTP.
    public var response: HTTPResponseInfo?

    public init(data: Data, response: HTTPResponseInfo? = nil) {
        self.data = data
        self.response = response
    }
}

/// Failures a data loader reports so the pipeline can name them precisely.
public enum DataLoadingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status code outside 200–299 (after following redirects).
    case statusCodeUnacceptable(Int, HTTPResponseInfo?)
    /// The body is, or was declared to be, larger than the limit in bytes.
    case responseTooLarge(limit: Int)
    /// The URL cannot be loaded: no scheme, no host, or malformed (a `data:` URL that does not parse).
    case unsupportedURL(URL)
    /// The URL's scheme, or a redirect's, is not one the loader accepts (`file` only when local files are allowed).
    case unsupportedScheme(String)
    /// The server redirected more than `limit` times.
    case tooManyRedirects(limit: Int)
    /// A redirect led back to a URL already visited for this request.
    case redirectLoop(URL)
    /// An `https` URL redirected to plain `http` (see ``DataLoaderOptions/allowsInsecureRedirects``).
    case insecureRedirect(URL)
    /// The response's header fields exceed ``DataLoaderOptions``'s limits on their count or size.
    case headersTooLarge
    /// A header field to send has a name that is not a token, or a value with a control character such as CR or LF
    /// (which would split the request). Nothing was sent.
    case invalidHeaderField(name: String)
    /// The transfer took longer than allowed; `cause` is what the transport reported, if anything.
    case timedOut(Timeout, cause: TransportFailure? = nil)
    /// The connection ended before the body was complete; `cause` is what the transport reported, if anything.
    case truncated(received: Int64, expected: Int64?, cause: TransportFailure? = nil)
    /// The transfer failed before the server answered (see ``TransportFailure/Kind``).
    case transportFailed(TransportFailure)
    /// A local file could not be read: missing, not a regular file, or unreadable.
    case fileUnreadable(path: String, reason: String)

    /// Which time limit a transfer exceeded.
    public enum Timeout: Sendable, Equatable, CustomStringConvertible {
        /// The whole transfer took longer than ``DataLoadRequest/timeout``.
        case total(Duration)
        /// No byte arrived for ``DataLoadRequest/idleTimeout``.
        case idle(Duration)

        public var description: String {
            switch self {
            case .total(let limit): "the transfer took longer than \(limit)"
            case .idle(let limit): "no data arrived for \(limit)"
            }
        }
    }

    public var description: String {
        switch self {
        case .statusCodeUnacceptable(let code, _): "Status code \(code) is not acceptable"
        case .responseTooLarge(let limit): "Response is larger than the limit of \(limit) bytes"
        case .unsupportedURL(let url): "Unsupported URL: \(url.absoluteString)"
        case .unsupportedScheme(let scheme): "The URL scheme \"\(scheme)\" is not allowed"
        case .tooManyRedirects(let limit): "More than \(limit) redirects"
        case .redirectLoop(let url): "Redirect loop: \(url.absoluteString) was already visited"
        case .timedOut(let timeout, _): "Timed out: \(timeout)" + causeDescription
        case .truncated(let received, let expected, _):
            "The connection closed after \(received) of \(expected.map(String.init) ?? "an unknown number of") bytes"
                + causeDescription
        case .insecureRedirect(let url): "Redirect from https to plain http refused: \(url.absoluteString)"
        case .headersTooLarge: "The response's header fields exceed the limits"
        case .invalidHeaderField(let name):
            "The header field \(name.debugDescription) was not sent: a control character or an invalid name"
        case .transportFailed(let failure): "Transfer failed (\(failure))"
        case .fileUnreadable(let path, let reason): "Cannot read \(path): \(reason)"
        }
    }

    /// What the transport reported for a transfer that timed out, was cut short or failed (its `URLError`, or
    /// libcurl's code and `errno`); `nil` for other cases and when the loader decided alone.
    public var underlyingError: TransportFailure? {
        switch self {
        case .timedOut(_, let cause), .truncated(_, _, let cause): cause
        case .transportFailed(let failure): failure
        default: nil
        }
    }

    /// Whether the transfer ended before the server answered in full (refused, reset, timed out, cut short), rather
    /// than with an answer; what arrived of the body is a good prefix.
    var isInterruption: Bool {
        switch self {
        case .timedOut, .truncated, .transportFailed: true
        default: false
        }
    }

    private var causeDescription: String { underlyingError.map { " (\($0))" } ?? "" }
}

extension ImageRequest.Priority {
    /// The HTTP/2 stream weight (RFC 9113 § 5.3.2, 1–256) a download at this priority asks for: a quarter of the
    /// next level's, so a server that shares its link by weight sends an image on screen (`.high`) sixteen times as
    /// fast as a prefetch (`.low`), and one that sends the heaviest stream first sends it first.
    public var streamWeight: Int {
        switch self {
        case .veryLow: 2
        case .low: 8
        case .normal: 32
        case .high: 128
        case .veryHigh: 256
        }
    }

    /// The same rank as a `URLSessionTask.priority` (0–1, 0.5 by default), which URLSession passes on as HTTP/2
    /// and HTTP/3 priorities.
    var sessionTaskPriority: Float {
        switch self {
        case .veryLow: 0.1
        case .low: 0.25
        case .normal: 0.5
        case .high: 0.75
        case .veryHigh: 1
        }
    }
}
