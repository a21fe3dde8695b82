import Dispatch
import Foundation

/// Latency of a well-behaved client (a new connection per request) while 1,200 connections are held open, half
/// silent and half stopped in the middle of a request head (slowloris), beside the same requests with nothing held,
/// in the same run.
enum IdleLoad {
    /// Latency of `count` requests, each on a new connection (connect, request, answer), in milliseconds, sorted.
    static func latencies(count: Int, port: Int, appId: String, token: String) -> [Double] {
        var figures: [Double] = []
        for _ in 0..<count {
            let start = DispatchTime.now()
            guard let client = LoadClient(port: port),
                client.exchange(
                    request("GET", "/v1/conversation/unread", headers: ["X-App-Id": appId, "Authorization": "Bearer \(token)"]))
                    == 200
            else { fatalError("a request failed while idle connections were held") }
            figures.append(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6)
        }
        return figures.sorted()
    }

    static func describe(_ label: String, _ figures: [Double]) -> String {
        let p50 = figures[figures.count / 2]
        let p99 = figures[min(figures.count - 1, figures.count * 99 / 100)]
        return label.padding(toLength: 34, withPad: " ", startingAt: 0)
            + String(format: "p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms", p50, p99, figures.last ?? 0)
    }

    static func run(port: Int, appId: String, token: String) {
        let quiet = latencies(count: 200, port: port, appId: appId, token: token)
        var held: [LoadClient] = []
        for index in 0..<1_200 {
            guard let client = LoadClient(port: port) else { fatalError("idle connection \(index) was refused") }
            if index.isMultiple(of: 2) { client.sendOnly(Array("GET /v1/conversation/unread HTTP/1.1\r\nHost: x\r\nX-Ap".utf8)) }
            held.append(client)
        }
        let crowded = latencies(count: 200, port: port, appId: appId, token: token)
        held.removeAll()
        print(describe("new connection, nothing held", quiet))
        print(describe("new connection, 1,200 held", crowded))
        print(String(format: "p99 with 1,200 idle/slow connections held = %.2f× the p99 with none", crowded[crowded.count * 99 / 100] / quiet[quiet.count * 99 / 100]))
    }
}
