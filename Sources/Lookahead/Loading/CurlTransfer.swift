// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT

#if canImport(CCurl)
import CCurl
import Foundation

/// One request of a redirect chain (``CurlDataLoader`` follows redirects itself to choose each hop's fields). Every
/// limit is enforced in a callback, whose short count makes libcurl abort; the total deadline is `CURLOPT_TIMEOUT_MS`.
// SAFETY: after `CurlMulti.add(_:)` every stored property below is read and written only on the multi's thread
// (the callbacks run inside `curl_multi_perform` there); before it, only the creating thread touches them, and
// the multi's inbox lock orders the hand-over. `completion` is itself thread safe.
final class CurlTransfer: @unchecked Sendable {
    /// How a transfer ends when it does not fail.
    enum Outcome: Sendable {
        /// The final response.
        case response(DataLoadResponse)
        /// A redirect to follow, the target resolved against the hop's URL.
        case redirect(URL)
    }

    /// One request of a chain: its URL, the fields it carries, and when the chain started (for the total timeout).
    struct Hop: Sendable {
        let url: URL
        let fields: [String: String]
        let chainStart: ContinuousClock.Instant
    }

    let request: DataLoadRequest
    let hop: Hop
    let completion: ResumeOnce<Outcome>
    private(set) var easy: UnsafeMutableRawPointer?
    private let options: DataLoaderOptions
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    private var body = Data()
    private var statusCode = 0
    private var headers: [String: String] = [:]
    private var expectedLength: Int64?
    private var isFinalResponse = false
    private var redirectTarget: URL?
    /// The bytes of a redirect's body, read and dropped so the connection stays open for the next hop.
    private var droppedBytes = 0
    private var failure: DataLoadingError?
    private var reportedBytes: Int64 = 0
    private var lastActivity = ContinuousClock.now
    private var lastProgressReport = ContinuousClock.now
    /// The header lines of the transfer's responses and their bytes, against the options' limits.
    private var hasStatusLine = false
    private var headerFieldCount = 0
    private var headerBytes = 0

    init(request: DataLoadRequest, hop: Hop, options: DataLoaderOptions, completion: ResumeOnce<Outcome>) {
        self.request = request
        self.hop = hop
        self.options = options
        self.completion = completion
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if let easy { curl_easy_cleanup(easy) }
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    // MARK: - Setup

    /// Creates and configures the easy handle; `false` when libcurl refuses (out of memory).
    func makeHandle() -> Bool {
        guard let easy = curl_easy_init() else { return false }
        self.easy = easy
        set(easy, CURLOPT_URL, string: hop.url.absoluteString)
        set(easy, CURLOPT_NOSIGNAL, 1)
        set(easy, CURLOPT_PROTOCOLS_STR, string: "http,https")
        // Redirects are the loader's to follow (CURLOPT_FOLLOWLOCATION stays off): libcurl would send on every
        // field but `Authorization` and `Cookie` to another host.
        set(easy, CURLOPT_ACCEPT_ENCODING, string: "")
        set(easy, CURLOPT_TCP_KEEPALIVE, 1)
        // Over TLS, wait to learn whether the first connection multiplexes (HTTP/2) before opening more. Over
        // plain HTTP (1.1 only) waiting would serialise every download to a host behind the first one.
        if hop.url.scheme?.lowercased() == "https" { set(easy, CURLOPT_PIPEWAIT, 1) }
        set(easy, CURLOPT_STREAM_WEIGHT, request.priority.streamWeight)
        if let agent = options.userAgent { set(easy, CURLOPT_USERAGENT, string: agent) }
        if !options.trustedCertificates.isEmpty {
            // Replaces the default CA file only: the system's CA folder (CURLOPT_CAPATH) is still trusted.
            let bundle = options.trustedCertificates.reduce(into: Data()) { $0 += $1 + Data("\n".utf8) }
            _ = bundle.withUnsafeBytes { lookahead_curl_set_blob(easy, CURLOPT_CAINFO_BLOB, $0.baseAddress, $0.count) }
        }
        if !options.pinnedPublicKeyHashes.isEmpty {
            set(easy, CURLOPT_PINNEDPUBLICKEY, string: PublicKeyPins.curlOption(options.pinnedPublicKeyHashes))
        }
        if let client = options.clientCertificate {
            set(easy, CURLOPT_SSLCERTTYPE, string: "P12")
            _ = client.pkcs12.withUnsafeBytes {
                lookahead_curl_set_blob(easy, CURLOPT_SSLCERT_BLOB, $0.baseAddress, $0.count)
            }
            set(easy, CURLOPT_KEYPASSWD, string: client.password)
        }
        if let timeout = request.timeout {
            set(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(timeout - (ContinuousClock.now - hop.chainStart)))
        }
        if let idle = request.idleTimeout { set(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(idle)) }
        if let limit = request.maximumResponseSize {
            _ = lookahead_curl_set_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        }
        for (name, value) in hop.fields.sorted(by: { $0.key < $1.key }) {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        _ = lookahead_curl_set_slist(easy, CURLOPT_HTTPHEADER, headerList)
        _ = lookahead_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        installCallbacks(easy)
        return true
    }

    /// Points libcurl's header, write and progress callbacks at this transfer.
    private func installCallbacks(_ easy: UnsafeMutableRawPointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        for option in [CURLOPT_HEADERDATA, CURLOPT_WRITEDATA, CURLOPT_XFERINFODATA] {
            _ = lookahead_curl_set_pointer(easy, option, context)
        }
        _ = lookahead_curl_set_write_function(easy, CURLOPT_HEADERFUNCTION) { pointer, size, count, context in
            let length = size * count
            guard let pointer else { return length }
            let bytes = UnsafeRawBufferPointer(start: pointer, count: length).bindMemory(to: UInt8.self)
            return CurlTransfer.from(context).receiveHeader(bytes) ? length : 0
        }
        _ = lookahead_curl_set_write_function(easy, CURLOPT_WRITEFUNCTION) { pointer, size, count, context in
            let length = size * count
            guard let pointer, length > 0 else { return length }
            return CurlTransfer.from(context).receiveBody(UnsafeRawPointer(pointer), count: length) ? length : 0
        }
        _ = lookahead_curl_set_progress_function(easy) { context, _, _, _, _ in
            CurlTransfer.from(context).checkProgress() ? 0 : 1
        }
        set(easy, CURLOPT_NOPROGRESS, 0)
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> CurlTransfer {
        Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    }

    private func set(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) {
        _ = lookahead_curl_set_long(easy, option, value)
    }

    private func set(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, string: String) {
        _ = lookahead_curl_set_string(easy, option, string)  // libcurl copies string options
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        max(1, Int((duration.secondsValue * 1000).rounded(.up)))
    }

    // MARK: - Callbacks (on the multi's thread)

    /// A header line of any response in the chain. The limits count the fields of interim `1xx` responses and their
    /// status lines too, so a flood of `100 Continue` or `103 Early Hints` ends like any other flood of fields.
    private func receiveHeader(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        lastActivity = .now
        let line = HeaderFields.responseLine(bytes)
        if line == .end { return endOfHeaders() }
        if case .status = line, !hasStatusLine {
            hasStatusLine = true
        } else {
            headerFieldCount += 1
            headerBytes += bytes.count
            guard headerFieldCount <= options.maximumHeaderFieldCount, headerBytes <= options.maximumHeaderSize else {
                failure = .headersTooLarge
                return false
            }
        }
        switch line {
        case .status(let code):
            statusCode = code
            headers = [:]
        case .field(let name, let value):
            let name = name.lowercased()
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        case .end, .other:
            break
        }
        return true
    }

    private func endOfHeaders() -> Bool {
        if (100..<200).contains(statusCode) { return true }  // 100 Continue and friends: the real one follows
        if Self.redirectCodes.contains(statusCode), let location = headers["location"] {
            guard let target = URL(string: location, relativeTo: hop.url)?.absoluteURL else {
                failure = .unsupportedURL(request.url)
                return false
            }
            redirectTarget = target
            return true
        }
        let info = responseInfo()
        // An encoded body is smaller than what it decodes to, so the encoded length alone can exceed the limit.
        if let refusal = request.refusal(of: info) {
            failure = refusal
            return false
        }
        isFinalResponse = true
        let isEncoded = headers["content-encoding"].map { $0.lowercased() != "identity" } ?? false
        expectedLength = isEncoded ? nil : info.expectedContentLength
        body.reserveCapacity(request.reservation(forDeclaredLength: expectedLength))
        return true
    }

    /// Body bytes, after content decoding.
    private func receiveBody(_ pointer: UnsafeRawPointer, count: Int) -> Bool {
        lastActivity = .now
        if redirectTarget != nil {
            // A redirect's short page is read to keep the connection; a long one is not worth it.
            droppedBytes += count
            return droppedBytes <= 64 << 10
        }
        guard isFinalResponse, failure == nil else { return false }
        if let limit = request.maximumResponseSize, body.count + count > limit {
            failure = .responseTooLarge(limit: limit)
            body = Data()
            return false
        }
        body.append(pointer.assumingMemoryBound(to: UInt8.self), count: count)
        let received = Int64(body.count)
        // Every 16 KiB, every 100 ms of a slow body, and at the end.
        if received - reportedBytes >= 16 << 10 || received == expectedLength
            || lastActivity - lastProgressReport >= .milliseconds(100)
        {
            reportedBytes = received
            lastProgressReport = lastActivity
            request.progress(received, expectedLength)
            // The body so far, for previews: shared until the next append, which copies it only if it is still held.
            request.onData?(body)
        }
        return true
    }

    /// Called by libcurl as bytes move and about once a second otherwise; `false` aborts the transfer.
    private func checkProgress() -> Bool {
        if completion.isResumed { return false }  // the caller is gone: stop at once
        guard let idle = request.idleTimeout, ContinuousClock.now - lastActivity > idle else { return true }
        failure = .timedOut(.idle(idle))
        return false
    }

    /// Gives the body so far of a final `200` to ``DataLoadRequest/partialBodyOnInterruption``, once.
    func handOverPartialBody() {
        guard let handler = request.partialBodyOnInterruption, isFinalResponse, statusCode == 200, !body.isEmpty
        else { return }
        switch failure {
        case nil, .timedOut: break  // a stall past the timeout leaves a good prefix; a refused body does not
        default: return
        }
        let data = body
        body = Data()
        handler(data, responseInfo())
    }

    // MARK: - Completion

    /// The result of a finished transfer, from libcurl's code and what the callbacks recorded.
    func result(code: CURLcode) -> Result<Outcome, DataLoadingError> {
        // The idle timeout is the progress callback's; the cause is the connection's.
        if case .timedOut(let timeout, nil)? = failure { return .failure(.timedOut(timeout, cause: cause(of: code))) }
        if let failure { return .failure(failure) }
        if let redirectTarget { return .success(.redirect(redirectTarget)) }
        switch code {
        case CURLE_OK:
            guard isFinalResponse else { return .failure(.statusCodeUnacceptable(statusCode, responseInfo())) }
            return .success(.response(DataLoadResponse(data: body, response: responseInfo())))
        case CURLE_OPERATION_TIMEDOUT:
            if let timeout = request.timeout, ContinuousClock.now - hop.chainStart >= timeout * 0.95 {
                return .failure(.timedOut(.total(timeout), cause: cause(of: code)))
            }
            return .failure(.timedOut(.idle(request.idleTimeout ?? .zero), cause: cause(of: code)))
        case CURLE_PARTIAL_FILE:
            return .failure(.truncated(received: Int64(body.count), expected: expectedLength, cause: cause(of: code)))
        case CURLE_URL_MALFORMAT:
            return .failure(.unsupportedURL(hop.url))
        case CURLE_FILESIZE_EXCEEDED:
            return .failure(.responseTooLarge(limit: request.maximumResponseSize ?? 0))
        default:
            return .failure(.transportFailed(cause(of: code)))
        }
    }

    /// libcurl's code, the connection's `errno` (`CURLINFO_OS_ERRNO`) and libcurl's message.
    private func cause(of code: CURLcode) -> TransportFailure {
        var systemError = 0
        if let easy { _ = lookahead_curl_get_long(easy, CURLINFO_OS_ERRNO, &systemError) }
        let detail = String(cString: errorBuffer)
        return TransportFailure(
            curlCode: Int(code.rawValue),
            systemError: systemError,
            message: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        )
    }

    /// The response so far, at libcurl's effective URL.
    private func responseInfo() -> HTTPResponseInfo {
        var pointer: UnsafeMutablePointer<CChar>?
        if let easy, lookahead_curl_get_string(easy, CURLINFO_EFFECTIVE_URL, &pointer) != CURLE_OK { pointer = nil }
        let url = pointer.flatMap { URL(string: String(cString: $0)) } ?? hop.url
        return HTTPResponseInfo(url: url, statusCode: statusCode, headers: headers)
    }

    /// The statuses followed as redirects, as `URLSession` follows them.
    private static let redirectCodes: Set<Int> = [301, 302, 303, 307, 308]
}
#endif
