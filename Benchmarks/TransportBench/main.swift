// TransportBench: sequential authenticated requests on loopback through ReceptionKit's client beside bare
// URLSession to the same endpoint of the same in-process emulator, in one run (issue 7; target ≥ 0.8×).
//
// Small batches alternate between the contenders so machine noise hits all of them alike.
import Foundation
import ReceptionCore
import ReceptionEmulator
import ReceptionTesting
import Transport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let requestsPerRound = 1000
let rounds = 3

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("transport-bench-\(UUID().uuidString)").path
defer { try? FileManager.default.removeItem(atPath: directory) }
let emulator = try ReceptionEmulator(configuration: EmulatorConfiguration(port: 0, dataDirectory: directory))
try emulator.start()
defer { emulator.stop() }
let root = URL(string: "http://127.0.0.1:\(emulator.port)")!
let appID = emulator.credentials.appId

let client = ReceptionAPIClient(
    .init(endpoint: try ServiceEndpoint(appID: appID, root: root), transport: URLSessionTransport(),
          secureStore: InMemorySecureStore(), scope: "bench", cooldowns: CooldownBook(now: Date()), logger: .silent),
    hooks: SessionHooks(devicePayload: { () throws(ReceptionError) -> DevicePayload in
        DevicePayload(sdkVersion: "bench", appVersion: "1.0", appBuild: "1", osVersion: "bench", deviceModel: "bench",
                      locale: "en_US", timezone: "UTC", language: "en")
    }))
// Register and start a conversation through our client.
_ = try await client.send(clientId: "BENCH-1", text: "warm-up", attachmentIds: [], probe: false, allowRegistration: true)

/// The baseline registers its own device by hand and keeps the token: fixed headers, no pipeline.
let token: String = try await {
    var request = URLRequest(url: root.appendingPathComponent("v1/devices"))
    request.httpMethod = "POST"
    request.setValue(appID, forHTTPHeaderField: "X-App-Id")
    request.setValue("0", forHTTPHeaderField: "X-Reception-Revision")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONSerialization.data(withJSONObject: [
        "platform": "ios", "sdkVersion": "bench", "appVersion": "1.0", "appBuild": "1", "osVersion": "bench",
        "deviceModel": "bench", "locale": "en_US", "timezone": "UTC", "language": "en", "paywalls": [],
        "metadata": [:], "updatesAppBadge": true,
    ])
    let (data, _) = try await URLSession.shared.data(for: request)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return object?["token"] as? String ?? ""
}()

let configuration = URLSessionConfiguration.ephemeral
configuration.urlCache = nil
let bare = URLSession(configuration: configuration)
var bareRequest = URLRequest(url: root.appendingPathComponent("v1/conversation/unread"))
bareRequest.setValue(appID, forHTTPHeaderField: "X-App-Id")
bareRequest.setValue("0", forHTTPHeaderField: "X-Reception-Revision")
bareRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
bareRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")

let transportOnly = URLSessionTransport()
let transportRequest = HTTPRequest(
    method: "GET", url: root.appendingPathComponent("v1/conversation/unread"),
    headers: [
        "X-App-Id": appID, "X-Reception-Revision": "0", "Content-Type": "application/json",
        "Authorization": "Bearer \(token)",
    ], timeout: .seconds(30))

/// Time for `count` sequential requests.
func time(_ count: Int, _ body: () async throws -> Void) async rethrows -> Duration {
    let start = ContinuousClock.now
    for _ in 0..<count { try await body() }
    return ContinuousClock.now - start
}

// Small batches, interleaved, so the noise of a shared machine falls on every contender alike; each figure is its
// total requests over its total time.
let batch = 50
let batches = requestsPerRound * rounds / batch
var ours = Duration.zero
var baseline = Duration.zero
var transportAlone = Duration.zero
for _ in 0..<batches {
    baseline += try await time(batch) {
        let (_, response) = try await bare.data(for: bareRequest)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw ReceptionError.invalidResponse() }
    }
    ours += try await time(batch) { _ = try await client.unread(probe: false) }
    transportAlone += try await time(batch) {
        guard try await transportOnly.send(transportRequest).status == 200 else { throw ReceptionError.invalidResponse() }
    }
}

func rate(_ total: Duration) -> Double {
    let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
    return Double(batches * batch) / seconds
}
print("TransportBench: \(batches * batch) sequential GET /v1/conversation/unread per contender on loopback,")
print("  interleaved in batches of \(batch); the same in-process emulator, the same run")
print(String(format: "  bare URLSession (baseline):   %8.0f req/s", rate(baseline)))
print(String(format: "  ReceptionAPIClient (ours):    %8.0f req/s  (full pipeline: gates, token, halt, JSON decode)",
             rate(ours)))
print(String(format: "  URLSessionTransport alone:    %8.0f req/s  (our transport without the pipeline)", rate(transportAlone)))
print(String(format: "  ratio ours / baseline:        %8.2f×  (target ≥ 0.80×)", rate(ours) / rate(baseline)))
