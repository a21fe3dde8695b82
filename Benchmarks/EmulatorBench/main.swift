// EmulatorBench: message-POST and unread-GET requests per second against the emulator, beside a minimal
// libmicrohttpd "hello" handler in the same run. Loopback only, bounded request counts; run in release
// (`swift run -c release EmulatorBench`). Figures go into Docs/Emulator.md.
import CMicroHTTPD
import Dispatch
import Foundation
import ReceptionEmulator


let connections = 2
let requestsPerConnection = 2_500

/// Runs `requestsPerConnection` requests on each of `connections` keep-alive connections; returns requests per second.
func measure(_ label: String, port: Int, makeRequest: @escaping @Sendable (Int, Int) -> [UInt8]) -> Double {
    let start = DispatchTime.now()
    let failures = ManagedFailures()
    DispatchQueue.concurrentPerform(iterations: connections) { connection in
        guard let client = LoadClient(port: port) else { failures.add(); return }
        for index in 0..<requestsPerConnection {
            guard let status = client.exchange(makeRequest(connection, index)), status < 300 else {
                failures.add()
                return
            }
        }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    let total = Double(connections * requestsPerConnection)
    let rate = total / seconds
    let padded = label.padding(toLength: 28, withPad: " ", startingAt: 0)
    print(padded + String(format: "%8.0f req/s  (%d requests, %.2f s, failures %d)", rate, Int(total), seconds, failures.count))
    return rate
}

/// A thread-safe failure counter.
final class ManagedFailures: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var value = 0
    func add() { lock.lock(); value += 1; lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
}

func request(_ method: String, _ path: String, headers: [String: String], body: String = "") -> [UInt8] {
    var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    text += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
    return Array(text.utf8)
}

guard let (helloDaemon, helloPort) = HelloServer.start() else { fatalError("hello baseline did not start") }
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-bench-\(UUID().uuidString)").path
let emulator = try ReceptionEmulator(configuration: EmulatorConfiguration(port: 0, dataDirectory: directory))
try emulator.start()
defer {
    emulator.stop()
    MHD_stop_daemon(helloDaemon)
    try? FileManager.default.removeItem(atPath: directory)
}
let appId = emulator.credentials.appId

// One registered device per connection, each with its own conversation.
var tokens: [String] = []
for _ in 0..<connections {
    let client = LoadClient(port: emulator.port)
    let registration = request(
        "POST", "/v1/devices", headers: ["X-App-Id": appId, "Content-Type": "application/json"], body: "{\"platform\":\"ios\"}")
    let status = client?.exchange(registration)
    guard let client, status == 201,
        let object = try JSONSerialization.jsonObject(with: Data(client.lastBody)) as? [String: Any],
        let token = object["token"] as? String
    else { fatalError("registration failed with status \(String(describing: status))") }
    tokens.append(token)
}
let tokenList = tokens

print("EmulatorBench: loopback, \(connections) keep-alive connections × \(requestsPerConnection) requests, release build")
let hello = measure("hello (libmicrohttpd)", port: helloPort) { _, _ in request("GET", "/", headers: [:]) }
let post = measure("POST conversation/messages", port: emulator.port) { connection, index in
    request(
        "POST", "/v1/conversation/messages",
        headers: [
            "X-App-Id": appId, "Authorization": "Bearer \(tokenList[connection])", "Content-Type": "application/json",
        ],
        body: "{\"clientId\":\"C\(connection)-\(index)\",\"text\":\"benchmark message \(index)\",\"attachmentIds\":[]}")
}
let unread = measure("GET conversation/unread", port: emulator.port) { connection, _ in
    request("GET", "/v1/conversation/unread", headers: ["X-App-Id": appId, "Authorization": "Bearer \(tokenList[connection])"])
}
print(String(format: "message POST = %.1f%% of hello, unread GET = %.1f%% of hello", post / hello * 100, unread / hello * 100))

// Hostile load (IdleLoad.swift): a well-behaved client while 1,200 idle and half-sent connections are held.
IdleLoad.run(port: emulator.port, appId: appId, token: tokenList[0])
