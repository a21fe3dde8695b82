import Foundation
import ReceptionEmulator

/// One emulator for the whole run, with its data in a temporary folder.
let emulator: ReceptionEmulator? = {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-emulator-\(getpid())").path
    return try? ReceptionEmulator(configuration: EmulatorConfiguration(port: 0, dataDirectory: directory))
}()

/// libFuzzer entry for the emulator's request handling: method, path and body from the input, the real App ID and
/// either no credential, a device token or the admin token. Every request must get an HTTP answer with a JSON error
/// envelope or body, never a trap. Built and run by `scripts/fuzz` (`make fuzz`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEmulatorRequests(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let emulator, size > 1 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let methods = ["GET", "POST", "PATCH", "PUT", "DELETE"]
    let method = methods[Int(bytes[0]) % methods.count]
    let rest = bytes.dropFirst()
    let split = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
    let path = "/" + String(decoding: rest[rest.startIndex..<split], as: UTF8.self)
    let body = split < rest.endIndex ? Array(rest[rest.index(after: split)...]) : []
    var headers = ["x-app-id": emulator.credentials.appId, "x-reception-revision": "0", "content-type": "application/json"]
    if bytes[0] & 0x80 != 0 { headers["authorization"] = "Bearer \(emulator.credentials.adminToken)" }
    let response = emulator.handle(HTTPRequest(
        method: method, path: path, query: [:], headers: headers, body: body, bodyTooLarge: false))
    guard (100...599).contains(response.status) else { fatalError("status \(response.status)") }
    return 0
}
