import Digest
import Foundation
import ReceptionEmulator

/// One emulator for the whole run, with its data in a temporary folder, and a registered device that has a
/// conversation, so bearer routes are reachable too.
let fixture: (emulator: ReceptionEmulator, deviceToken: String)? = {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-emulator-\(getpid())").path
    guard let emulator = try? ReceptionEmulator(configuration: EmulatorConfiguration(port: 0, dataDirectory: directory))
    else { return nil }
    let headers = ["x-app-id": emulator.credentials.appId, "content-type": "application/json"]
    let registered = emulator.handle(
        HTTPRequest(method: "POST", path: "/v1/devices", headers: headers, body: Array("{}".utf8)))
    guard case .bytes(let body) = registered.body, let token = (try? JSONValue.parse(body))?["token"]?.stringValue
    else { return nil }
    let message = #"{"clientId":"FUZZ","text":"hello","attachmentIds":[]}"#
    _ = emulator.handle(HTTPRequest(
        method: "POST", path: "/v1/conversation/messages",
        headers: headers.merging(["authorization": "Bearer \(token)"]) { $1 }, body: Array(message.utf8)))
    return (emulator, token)
}()

/// `a=1&b=2` as the server's query dictionary (no percent-decoding: the bytes reach the router as they are).
private func queryArguments(_ text: Substring) -> [String: String] {
    var query: [String: String] = [:]
    for pair in text.split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        query[String(parts[0])] = parts.count == 2 ? String(parts[1]) : ""
    }
    return query
}

/// An HS256 token over `claims` as they are, signed with the emulator's identity secret.
private func identityToken(claims: [UInt8], secret: String) -> String {
    let header = Base64.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8), alphabet: .url)
    let payload = Base64.encode(claims, alphabet: .url)
    let mac = HMACSHA256.authenticationCode(for: Array("\(header).\(payload)".utf8), key: Array(secret.utf8))
    return "\(header).\(payload).\(Base64.encode(mac, alphabet: .url))"
}

/// libFuzzer entry for the emulator's request handling. The first byte chooses: bits 0–4 the method (modulo 5),
/// 0x80 the admin token, 0x40 the device's bearer token, 0x20 identity mode, where the rest is the claims of an
/// identity token that this harness signs with the emulator's secret and sends in `PATCH /v1/devices/me`, so the
/// claim checks behind the signature are reached. Otherwise the rest is
/// `path[?query]`, a newline and the body, with the real App ID. Every request must get an HTTP answer, never a
/// trap. Built and run by `scripts/fuzz` (`make fuzz`); seeds in `Fuzz/EmulatorRequests/Seeds/`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEmulatorRequests(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let fixture, size > 1 else { return 0 }
    let emulator = fixture.emulator
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let credentials = emulator.credentials
    var headers = ["x-app-id": credentials.appId, "x-reception-revision": "0", "content-type": "application/json"]
    let request: HTTPRequest
    if bytes[0] & 0x20 != 0 {
        let token = identityToken(claims: Array(bytes.dropFirst()), secret: credentials.identitySecret ?? "")
        let body = JSONValue.object(["identityToken": .string(token)]).serialized()
        // A device update checks the token as a registration does, without adding a device per input.
        headers["authorization"] = "Bearer \(fixture.deviceToken)"
        request = HTTPRequest(method: "PATCH", path: "/v1/devices/me", headers: headers, body: Array(body.utf8))
    } else {
        let methods = ["GET", "POST", "PATCH", "PUT", "DELETE"]
        let method = methods[Int(bytes[0] & 0x1F) % methods.count]
        let rest = bytes.dropFirst()
        let split = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
        let target = String(decoding: rest[rest.startIndex..<split], as: UTF8.self)
        let pathAndQuery = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let body = split < rest.endIndex ? Array(rest[rest.index(after: split)...]) : []
        if bytes[0] & 0x80 != 0 { headers["authorization"] = "Bearer \(credentials.adminToken)" }
        if bytes[0] & 0x40 != 0 { headers["authorization"] = "Bearer \(fixture.deviceToken)" }
        request = HTTPRequest(
            method: method, path: "/" + pathAndQuery[0],
            query: pathAndQuery.count == 2 ? queryArguments(pathAndQuery[1]) : [:], headers: headers, body: body)
    }
    var response = emulator.handle(request)
    // A delay fault answers later (the server parks the connection); a drop fault answers nothing. Here the later
    // answer is produced at once, and only a drop may lack a status.
    if case .later(_, let then) = response.body { response = then() }
    if case .drop = response.body { return 0 }
    guard (100...599).contains(response.status) else { fatalError("status \(response.status)") }
    return 0
}
