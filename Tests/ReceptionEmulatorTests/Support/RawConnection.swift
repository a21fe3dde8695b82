import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to the emulator, for what URLSession hides: several requests on one kept-alive
/// connection, a live event stream, and a connection the server drops. Reads time out so a test cannot hang.
final class RawConnection {
    private let descriptor: Int32
    private(set) var received = Data()

    init(port: Int, readTimeoutSeconds: Int = 5) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var timeout = timeval(tv_sec: readTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(status == 0)
    }

    private var isOpen = true

    deinit { disconnect() }

    /// Closes the connection from this side, as a client that leaves does.
    func disconnect() {
        guard isOpen else { return }
        isOpen = false
        close(descriptor)
    }

    /// Writes `text` as it is; `false` when the peer has closed the connection (or the write timed out).
    @discardableResult
    func write(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    /// Reads until the received text contains `marker` (true) or the peer closes or the read times out (false).
    func read(until marker: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return false }
            received.append(contentsOf: buffer[0..<count])
        }
        return true
    }

    /// Reads until the peer closes the connection (true) or the read times out (false).
    func readUntilClosed() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 { return false }
            received.append(contentsOf: buffer[0..<count])
        }
    }

    /// Everything received so far as text.
    var text: String { String(decoding: received, as: UTF8.self) }

    /// Forgets what was received so far.
    func reset() { received = Data() }
}
