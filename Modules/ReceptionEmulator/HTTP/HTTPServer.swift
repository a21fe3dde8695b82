import CMicroHTTPD
import Synchronization

/// What the server calls for every complete request; it runs on the connection's own thread.
package typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// Why a server could not start.
package struct HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// A readable reason.
    package var description: String
}

/// An HTTP/1.1 server on libmicrohttpd, one thread per connection (so an event stream that waits blocks only its
/// own connection) with keep-alive: the answer is queued on the last access-handler call, after the body has been
/// collected, which is what lets libmicrohttpd keep the connection open.
package final class HTTPServer: Sendable {
    /// The handler every request goes to.
    let handler: HTTPHandler
    /// The largest body accepted for a method and path; a longer one is drained, discarded and flagged.
    let bodyLimit: @Sendable (_ method: String, _ path: String) -> Int
    /// Called when an event stream's connection has ended (client gone, stream over, or shutdown).
    let streamEnded: @Sendable (EventStream) -> Void
    /// The running `MHD_Daemon *` as its address (0 = stopped): an integer is Sendable, the pointer is not.
    private let daemon = Mutex<Int>(0)
    private let boundPort = Mutex<Int>(0)

    /// A server that is not yet listening.
    package init(
        handler: @escaping HTTPHandler,
        bodyLimit: @escaping @Sendable (_ method: String, _ path: String) -> Int,
        streamEnded: @escaping @Sendable (EventStream) -> Void = { _ in }
    ) {
        self.handler = handler
        self.bodyLimit = bodyLimit
        self.streamEnded = streamEnded
    }

    /// The port being listened on (the one the system chose for port 0), or 0 when stopped.
    package var port: Int { boundPort.withLock { $0 } }

    /// Starts listening on the numeric IPv4 `host` and `port` (0 = any free port).
    package func start(host: String, port: Int, idleTimeoutSeconds: Int = 120) throws(HTTPServerError) {
        guard (0...65535).contains(port) else { throw HTTPServerError(description: "port \(port) is out of range") }
        // Retained for as long as the daemon runs: libmicrohttpd hands this pointer back on its own threads.
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = reception_mhd_start(
            host, UInt16(port), receptionAccessHandler, context, receptionRequestCompleted, context,
            UInt32(max(1, idleTimeoutSeconds)))
        guard let started else {
            Unmanaged<HTTPServer>.fromOpaque(context).release()
            throw HTTPServerError(description: "cannot listen on \(host):\(port) (numeric IPv4 address, free port)")
        }
        daemon.withLock { $0 = Int(bitPattern: started) }
        boundPort.withLock { $0 = Int(reception_mhd_bound_port(started)) }
    }

    /// Stops listening and waits for every connection thread; open event streams must have been closed first.
    package func stop() {
        let address = daemon.withLock { value -> Int in defer { value = 0 }; return value }
        guard let running = OpaquePointer(bitPattern: address) else { return }
        MHD_stop_daemon(running)
        boundPort.withLock { $0 = 0 }
        Unmanaged.passUnretained(self).release()
    }
}

/// What libmicrohttpd keeps in `con_cls` for one request between access-handler calls.
private final class PendingRequest {
    let limit: Int
    var body: [UInt8] = []
    var tooLarge = false

    init(limit: Int) { self.limit = limit }
}

/// Collects name/value pairs from `MHD_get_connection_values`.
private final class ValueCollector {
    var values: [String: String] = [:]
    let lowercaseNames: Bool

    init(lowercaseNames: Bool) { self.lowercaseNames = lowercaseNames }
}

private func receptionCollectValue(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
    let name = String(cString: key)
    collector.values[collector.lowercaseNames ? name.lowercased() : name] = value.map { String(cString: $0) } ?? ""
    return .YES
}

private func connectionValues(_ connection: OpaquePointer?, kind: MHD_ValueKind, lowercase: Bool) -> [String: String] {
    let collector = ValueCollector(lowercaseNames: lowercase)
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values(
            connection, kind, receptionCollectValue, Unmanaged.passUnretained(collector).toOpaque())
    }
    return collector.values
}

/// The access handler (a plain function: libmicrohttpd calls it on its own threads). First call: set up the body
/// buffer. Middle calls: collect the body. Last call: route and queue the answer (keeps the connection alive).
private func receptionAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let conCls else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let methodText = method.map { String(cString: $0) } ?? "GET"
    let path = url.map { String(cString: $0) } ?? "/"
    guard let stored = conCls.pointee else {
        let pending = PendingRequest(limit: server.bodyLimit(methodText, path))
        conCls.pointee = Unmanaged.passRetained(pending).toOpaque()
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(stored).takeUnretainedValue()
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        if !pending.tooLarge, pending.body.count + count <= pending.limit, let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                pending.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        } else {
            // Keep draining so the answer can still be sent on this connection, but keep nothing.
            pending.tooLarge = true
            pending.body = []
        }
        uploadDataSize.pointee = 0
        return .YES
    }
    let request = HTTPRequest(
        method: methodText, path: path,
        query: connectionValues(connection, kind: .GET_ARGUMENT_KIND, lowercase: false),
        headers: connectionValues(connection, kind: .HEADER_KIND, lowercase: true),
        body: pending.body, bodyTooLarge: pending.tooLarge)
    pending.body = []
    return queue(server.handler(request), on: connection, server: server)
}

private func queue(_ response: HTTPResponse, on connection: OpaquePointer?, server: HTTPServer) -> MHD_Result {
    let mhdResponse: OpaquePointer?
    switch response.body {
    case .drop:
        return .NO
    case .bytes(let bytes):
        mhdResponse = bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .stream(let stream):
        let box = StreamBox(stream: stream, server: server)
        let context = Unmanaged.passRetained(box).toOpaque()
        mhdResponse = MHD_create_response_from_callback(
            reception_mhd_size_unknown(), 1024, receptionStreamReader, context, receptionStreamFreed)
        if mhdResponse == nil { Unmanaged<StreamBox>.fromOpaque(context).release() }
    }
    guard let mhdResponse else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    for (name, value) in response.headers { _ = MHD_add_response_header(mhdResponse, name, value) }
    return MHD_queue_response(connection, UInt32(clamping: response.status), mhdResponse)
}

/// What a streamed response's callbacks get as `cls`.
private final class StreamBox {
    let stream: EventStream
    let server: HTTPServer

    init(stream: EventStream, server: HTTPServer) {
        self.stream = stream
        self.server = server
    }
}

private func receptionStreamReader(
    _ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ maximum: Int
) -> Int {
    guard let cls, let buffer, maximum > 0 else { return reception_mhd_end_of_stream() }
    let box = Unmanaged<StreamBox>.fromOpaque(cls).takeUnretainedValue()
    guard let chunk = box.stream.nextChunk(maximum: maximum) else { return reception_mhd_end_of_stream() }
    chunk.withUnsafeBytes { bytes in
        if let base = bytes.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: bytes.count) }
    }
    return chunk.count
}

private func receptionStreamFreed(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    let box = Unmanaged<StreamBox>.fromOpaque(cls).takeRetainedValue()
    box.stream.close()
    box.server.streamEnded(box.stream)
}

private func receptionRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ termination: MHD_RequestTerminationCode
) {
    guard let conCls, let stored = conCls.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(stored).release()
    conCls.pointee = nil
}
