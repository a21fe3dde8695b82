import CCurl
import Foundation

/// ``APNsSending`` over libcurl: HTTP/2 over TLS. The server's certificate is verified against the system's trust
/// store, or the `--apns-ca-file` bundle of ``APNsTrust``; only a test server on this machine that was given no
/// bundle is not verified (``APNsTrust/skipsVerification(of:)``). Apple's hosts are always
/// verified. One easy handle is reused so the HTTP/2 connection to each host stays open between pushes, as Apple
/// asks.
///
/// `@unchecked Sendable`: the curl handle is only touched under `lock`, one transfer at a time.
final class CurlAPNsClient: APNsSending, @unchecked Sendable {
    /// Seconds to connect (TCP and TLS) and for a whole request.
    static let connectTimeout = 10
    static let requestTimeout = 30
    /// The most of an answer's body kept (APNs sends a small JSON object).
    static let bodyLimit = 4_096

    private let lock = NSLock()
    private var handle: UnsafeMutableRawPointer?
    private let trust: APNsTrust

    /// A client that verifies servers as `trust` says.
    init(trust: APNsTrust) {
        self.trust = trust
        _ = Self.globalInit
    }

    deinit {
        if let handle { curl_easy_cleanup(handle) }
    }

    /// libcurl's process-wide initialisation, done once before the first handle.
    private static let globalInit: Bool = reception_curl_global_init() == CURLE_OK

    func send(_ request: APNsRequest) -> APNsAnswer {
        lock.lock()
        defer { lock.unlock() }
        if handle == nil { handle = curl_easy_init() }
        guard let handle else { return APNsAnswer(status: 0, reason: "libcurl could not start a transfer") }
        // Reset forgets the last transfer's options; the open connections stay in the handle's cache.
        curl_easy_reset(handle)
        var headers: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers {
            // A value carrying a line break would add a header; the provider never builds one, but refuse it here.
            guard !value.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
            headers = curl_slist_append(headers, "\(name): \(value)")
        }
        headers = curl_slist_append(headers, "content-type: application/json")
        // No "Expect: 100-continue" round trip before the body.
        headers = curl_slist_append(headers, "Expect:")
        defer { curl_slist_free_all(headers) }
        let receiver = Receiver()
        let context = Unmanaged.passUnretained(receiver).toOpaque()
        var code = reception_curl_set_string(handle, CURLOPT_URL, request.url)
        let verify = !trust.skipsVerification(of: request.url)
        let settings: [(CURLoption, Int)] = [
            (CURLOPT_POST, 1), (CURLOPT_NOSIGNAL, 1), (CURLOPT_SSL_VERIFYPEER, verify ? 1 : 0),
            (CURLOPT_SSL_VERIFYHOST, verify ? 2 : 0), (CURLOPT_CONNECTTIMEOUT, Self.connectTimeout),
            (CURLOPT_TIMEOUT, Self.requestTimeout),
        ]
        for (option, value) in settings where code == CURLE_OK { code = reception_curl_set_long(handle, option, value) }
        if code == CURLE_OK { code = reception_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "https") }
        if code == CURLE_OK { code = reception_curl_require_http2(handle) }
        if code == CURLE_OK, let caFile = trust.caFile {
            code = reception_curl_set_string(handle, CURLOPT_CAINFO, caFile)
        }
        if code == CURLE_OK { code = reception_curl_set_headers(handle, headers) }
        if code == CURLE_OK {
            code = request.body.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    reception_curl_set_body(handle, chars.baseAddress, chars.count)
                }
            }
        }
        if code == CURLE_OK { code = reception_curl_set_receivers(handle, receiveBody, receiveHeader, context) }
        if code == CURLE_OK { code = curl_easy_perform(handle) }
        guard code == CURLE_OK else {
            return APNsAnswer(status: 0, reason: String(cString: curl_easy_strerror(code)))
        }
        let reason = (try? JSONValue.parse(receiver.body))?["reason"]?.stringValue
        return APNsAnswer(
            status: reception_curl_status(handle), apnsId: receiver.apnsId, reason: reason.map { String($0.prefix(64)) })
    }

    /// What one transfer's callbacks collect.
    final class Receiver {
        var body: [UInt8] = []
        var apnsId: String?
    }
}

/// One callback's bytes and the transfer's receiver; `nil` when curl passed nothing usable.
private func chunk(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> (bytes: UnsafeRawBufferPointer, receiver: CurlAPNsClient.Receiver)? {
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow, let data, let context else { return nil }
    let receiver = Unmanaged<CurlAPNsClient.Receiver>.fromOpaque(context).takeUnretainedValue()
    return (UnsafeRawBufferPointer(start: data, count: total), receiver)
}

/// libcurl's body callback: keeps up to ``CurlAPNsClient/bodyLimit`` bytes. A plain function (no captures), as a C
/// callback must be.
private func receiveBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let (bytes, receiver) = chunk(data, size, count, context) else { return 0 }
    let room = max(0, CurlAPNsClient.bodyLimit - receiver.body.count)
    receiver.body.append(contentsOf: bytes.prefix(room))
    return bytes.count
}

/// libcurl's header callback: picks `apns-id` out of the answer's header lines.
private func receiveHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let (bytes, receiver) = chunk(data, size, count, context) else { return 0 }
    let line = String(decoding: bytes.prefix(1_024), as: UTF8.self)
    let parts = line.split(separator: ":", maxSplits: 1)
    if parts.count == 2, parts[0].lowercased() == "apns-id" {
        receiver.apnsId = String(parts[1].trimmingCharacters(in: .whitespacesAndNewlines).prefix(64))
    }
    return bytes.count
}

/// Which certificates the APNs client trusts: the `--apns-ca-file` bundle when one is given, else the system's trust
/// store. A test server on this machine (`--apns-host` or `--apns-sandbox-host` naming `localhost` or a 127.x
/// address) with no bundle given is not verified: its certificate is the developer's own, made for the test, and
/// nothing leaves the machine. Apple's hosts and every other host are always verified.
package struct APNsTrust: Sendable, Equatable {
    /// PEM certificates the server's certificate must chain to, instead of the system's trust store.
    package var caFile: String?
    /// Whether a loopback test server is accepted without verification (no bundle was given).
    package var acceptsLoopbackUnverified: Bool

    package init(caFile: String?) {
        self.caFile = caFile
        acceptsLoopbackUnverified = caFile == nil
    }

    /// Whether `url` names a loopback test server that is not to be verified.
    package func skipsVerification(of url: String) -> Bool {
        guard acceptsLoopbackUnverified, let host = URLComponents(string: url)?.host?.lowercased() else { return false }
        return EmulatorConfiguration.isLoopback(host)
    }

    /// The line the emulator prints at start when a loopback test server will not be verified, else `nil`.
    package static func startupNote(_ configuration: EmulatorConfiguration, trust: APNsTrust) -> String? {
        let hosts = [configuration.apnsHost, configuration.apnsSandboxHost].compactMap { $0 }
            .map { String($0.split(separator: ":").first ?? "") }
        guard trust.acceptsLoopbackUnverified,
              hosts.contains(where: { EmulatorConfiguration.isLoopback($0.lowercased()) }) else {
            return nil
        }
        return "reception-emulator: note: the APNs test server on this machine is not verified (no --apns-ca-file);"
            + " pass its certificate authority with --apns-ca-file to verify it"
    }
}
