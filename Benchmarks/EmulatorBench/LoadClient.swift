import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A keep-alive HTTP/1.1 client on a raw socket: writes a request, reads exactly one response (headers plus
/// `Content-Length` body). Enough for loopback load; not a general client.
final class LoadClient {
    private let descriptor: Int32
    private var buffer = [UInt8]()

    init?(port: Int) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if status != 0 { return nil }
    }

    deinit { close(descriptor) }

    /// Writes `bytes` and expects no answer (a request head left unfinished on purpose).
    func sendOnly(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// The body of the last response.
    private(set) var lastBody = [UInt8]()

    /// Sends `request` and returns the status of its response, or nil when the connection failed.
    func exchange(_ request: [UInt8]) -> Int? {
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            sent += count
        }
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            if let end = headerEnd(), let length = contentLength(end) {
                if buffer.count >= end + length {
                    let statusLine = String(decoding: buffer[0..<min(12, buffer.count)], as: UTF8.self)
                    lastBody = Array(buffer[end..<end + length])
                    buffer.removeFirst(end + length)
                    return Int(statusLine.dropFirst(9).prefix(3))
                }
            }
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private func contentLength(_ headerEnd: Int) -> Int? {
        let headers = String(decoding: buffer[0..<headerEnd], as: UTF8.self).lowercased()
        guard let range = headers.range(of: "content-length:") else { return 0 }
        // "\r\n" is one Character in Swift, so stop at any newline character.
        return Int(headers[range.upperBound...].prefix { !$0.isNewline }.trimmingCharacters(in: .whitespaces))
    }
}
