// TransportBench: sequential authenticated requests on loopback through ReceptionKit's client beside bare
// URLSession to the same endpoint of the same in-process emulator, in one run (issue 7; target ≥ 0.8×).
//
// Rounds alternate between the contenders so machine noise hits both; the median round of each is reported.
import Foundation
import ReceptionCore
import ReceptionEmulator
import ReceptionTesting
import Transport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let requestsPerRound = 1000
let rounds = 5

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

func measure(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    for _ in 0..<requestsPerRound { try await body() }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(requestsPerRound) / seconds
}

let transportOnly = URLSessionTransport()
let transportRequest = HTTPRequest(
    method: "GET", url: root.appendingPathComponent("v1/conversation/unread"),
    headers: [
        "X-App-Id": appID, "X-Reception-Revision": "0", "Content-Type": "application/json",
        "Authorization": "Bearer \(token)",
    ], timeout: .seconds(30))

var ours: [Double] = []
var baseline: [Double] = []
var transportAlone: [Double] = []
for _ in 0..<rounds {
    transportAlone.append(try await measure {
        guard try await transportOnly.send(transportRequest).status == 200 else { throw ReceptionError.invalidResponse() }
    })
    baseline.append(try await measure {
        let (_, response) = try await bare.data(for: bareRequest)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw ReceptionError.invalidResponse() }
    })
    ours.append(try await measure { _ = try await client.unread(probe: false) })
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
let oursMedian = median(ours)
let baselineMedian = median(baseline)
print("TransportBench: \(requestsPerRound) sequential GET /v1/conversation/unread on loopback, \(rounds) alternating rounds")
print(String(format: "  bare URLSession (baseline):       %8.0f req/s (median; rounds %@)", baselineMedian,
             baseline.map { String(format: "%.0f", $0) }.joined(separator: ", ")))
print(String(format: "  ReceptionAPIClient (ours):        %8.0f req/s (median; rounds %@)", oursMedian,
             ours.map { String(format: "%.0f", $0) }.joined(separator: ", ")))
print(String(format: "  URLSessionTransport alone:         %8.0f req/s (median; the transport without the pipeline)",
             median(transportAlone)))
print(String(format: "  ratio ours / baseline:            %8.2f× (target ≥ 0.80×)", oursMedian / baselineMedian))
