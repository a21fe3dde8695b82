import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
        var held: [Int32] = []
        for index in 0..<1_200 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard status == 0 else { fatalError("idle connection \(index) was refused") }
            if index.isMultiple(of: 2) {
                let partial = Array("GET /v1/conversation/unread HTTP/1.1\r\nHost: x\r\nX-Ap".utf8)
                _ = partial.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            }
            held.append(descriptor)
        }
        let crowded = latencies(count: 200, port: port, appId: appId, token: token)
        for descriptor in held { close(descriptor) }
        print(describe("new connection, nothing held", quiet))
        print(describe("new connection, 1,200 held", crowded))
        print(String(format: "p99 with 1,200 idle/slow connections held = %.2f× the p99 with none", crowded[crowded.count * 99 / 100] / quiet[quiet.count * 99 / 100]))
    }
}
