import CMicroHTTPD
import Dispatch
import Foundation

/// What the server calls for every complete request, on one of its worker threads; it must not block for long
/// (a wait is an ``HTTPResponse/Body/later(seconds:then:)`` answer, which parks the connection instead).
package typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// Why a server could not start.
package struct HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// A readable reason.
    package var description: String
}

/// How the server shares out its threads and connections (Docs/Emulator.md "Connections").
package struct HTTPServerLimits: Sendable, Equatable {
    /// Worker threads of the event loop; every connection belongs to one of them.
    package var workerThreads: Int
    /// Connections open at once; one more is refused at accept time.
    package var connections: Int
    /// Seconds a connection may stay idle (no byte read or written) before it is closed. A parked event stream or
    /// delayed answer is not idle, and a stream writes a ping well within this time.
    package var idleTimeoutSeconds: Int

    /// Four workers (at least two per core), 10,000 connections (lowered to fit the open-file limit), 60 s idle.
    package static let standard = HTTPServerLimits(
        workerThreads: 4, connections: 10_000, idleTimeoutSeconds: 60)

    /// Creates limits.
    package init(workerThreads: Int, connections: Int, idleTimeoutSeconds: Int) {
        self.workerThreads = workerThreads
        self.connections = connections
        self.idleTimeoutSeconds = idleTimeoutSeconds
    }
}

/// An HTTP/1.1 server on libmicrohttpd: an event loop (epoll on Linux) over a small pool of worker threads, so idle,
/// slow or streaming clients hold a socket each but no thread.
///
/// - A request is first shown to ``admit`` with its head alone (method, path, query, headers): missing credentials
///   or a `Content-Length` over the route's limit are answered at once, before any body byte is read. A body
///   without a length that grows past its limit is no longer buffered: it is drained and answered 413 at its end,
///   and its connection is closed if it runs on 16 MiB beyond the limit.
/// - Otherwise the answer is queued on the last access-handler call, after the body was collected, which is what
///   lets libmicrohttpd keep the connection alive.
/// - An event stream with nothing to write, and an answer that must wait (`later`), suspend their connection and
///   are resumed by an event, a timer or ``stop()``.
package final class HTTPServer: Sendable {
    /// The handler every admitted request goes to.
    let handler: HTTPHandler
    /// The answer to a request from its head alone, or `nil` to read its body and hand it to ``handler``.
    let admit: @Sendable (_ head: HTTPRequest) -> HTTPResponse?
    /// The largest body accepted for a method and path.
    let bodyLimit: @Sendable (_ method: String, _ path: String) -> Int
    /// The answer to a body over its limit.
    let tooLarge: HTTPResponse
    /// Called when an event stream's connection has ended (client gone, stream over, or shutdown).
    let streamEnded: @Sendable (EventStream) -> Void
    /// The running `MHD_Daemon *` as its address (0 = stopped): an integer is Sendable, the pointer is not.
    private let daemon = EmulatorLock<Int>(0)
    private let boundPort = EmulatorLock<Int>(0)
    /// Every connection that may be suspended now or soon: stopping wakes them all first (libmicrohttpd must not
    /// be stopped with a suspended connection).
    let parked = ParkedConnections()

    /// A server that is not yet listening.
    package init(
        handler: @escaping HTTPHandler,
        admit: @escaping @Sendable (_ head: HTTPRequest) -> HTTPResponse? = { _ in nil },
        bodyLimit: @escaping @Sendable (_ method: String, _ path: String) -> Int,
        tooLarge: HTTPResponse = HTTPResponse(status: 413),
        streamEnded: @escaping @Sendable (EventStream) -> Void = { _ in }
    ) {
        self.handler = handler
        self.admit = admit
        self.bodyLimit = bodyLimit
        self.tooLarge = tooLarge
        self.streamEnded = streamEnded
    }

    /// The port being listened on (the one the system chose for port 0), or 0 when stopped.
    package var port: Int { boundPort.withLock { $0 } }

    /// Starts listening on the numeric IPv4 `host` and `port` (0 = any free port). The connection limit is kept
    /// below this process's open-file limit (raised towards what it needs first).
    package func start(host: String, port: Int, limits: HTTPServerLimits = .standard) throws(HTTPServerError) {
        guard (0...65535).contains(port) else { throw HTTPServerError(description: "port \(port) is out of range") }
        let wanted = UInt64(min(max(limits.connections, 16), 1_000_000))
        // Leave room for the database, the listening socket, the event loop and whatever the host process has open.
        let files = reception_raise_open_file_limit(wanted + 256)
        let connections = files > 512 ? min(wanted, files - 256) : max(16, files / 2)
        // Retained for as long as the daemon runs: libmicrohttpd hands this pointer back on its own threads.
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = reception_mhd_start(
            host, UInt16(port), receptionAccessHandler, context, receptionRequestCompleted, context,
            UInt32(min(max(1, limits.idleTimeoutSeconds), 86_400)), UInt32(min(max(1, limits.workerThreads), 64)),
            UInt32(clamping: connections))
        guard let started else {
            Unmanaged<HTTPServer>.fromOpaque(context).release()
            throw HTTPServerError(description: "cannot listen on \(host):\(port) (numeric IPv4 address, free port)")
        }
        parked.open()
        daemon.withLock { $0 = Int(bitPattern: started) }
        boundPort.withLock { $0 = Int(reception_mhd_bound_port(started)) }
    }

    /// Ends every event stream with `data: reconnect`, answers every waiting request with 503, and stops listening.
    package func stop() {
        let address = daemon.withLock { value -> Int in defer { value = 0 }; return value }
        guard let running = OpaquePointer(bitPattern: address) else { return }
        parked.closeAll()
        MHD_stop_daemon(running)
        boundPort.withLock { $0 = 0 }
        Unmanaged.passUnretained(self).release()
    }
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

/// The access handler (a plain function: libmicrohttpd calls it on its worker threads). First call: admit the head
/// or answer it. Middle calls: collect the body up to its limit. Last call: route and queue the answer (keeps the
/// connection alive), or queue the answer a wait produced.
private func receptionAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let conCls, let connection else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let methodText = method.map { String(cString: $0) } ?? "GET"
    let path = url.map { String(cString: $0) } ?? "/"
    let head = {
        HTTPRequest(
            method: methodText, path: path,
            query: connectionValues(connection, kind: .GET_ARGUMENT_KIND, lowercase: false),
            headers: connectionValues(connection, kind: .HEADER_KIND, lowercase: true))
    }
    guard let stored = conCls.pointee else {
        let pending = PendingRequest(limit: server.bodyLimit(methodText, path))
        conCls.pointee = Unmanaged.passRetained(pending).toOpaque()
        let request = head()
        if let early = server.admit(request) {
            pending.answered = true
            return answer(early, on: connection, pending: pending, server: server)
        }
        if let declared = request.header("content-length").flatMap({ UInt64($0) }), declared > UInt64(pending.limit) {
            pending.answered = true
            return answer(server.tooLarge, on: connection, pending: pending, server: server)
        }
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(stored).takeUnretainedValue()
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        guard !pending.answered, let uploadData else { return .YES }
        let kept = uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
            pending.append(UnsafeBufferPointer(start: $0, count: count))
        }
        // libmicrohttpd cannot answer in the middle of a body: a body without a length that outgrew its limit is
        // drained and dropped, then answered 413; one that goes on far beyond it loses its connection.
        return kept ? .YES : .NO
    }
    if let ready = pending.takeReady() { return answer(ready, on: connection, pending: pending, server: server) }
    if pending.answered { return .YES }
    if pending.overflowed { return answer(server.tooLarge, on: connection, pending: pending, server: server) }
    var request = head()
    request.body = pending.takeBody()
    return answer(server.handler(request), on: connection, pending: pending, server: server)
}

/// Queues `response` on `connection`, or parks the connection while a `later` answer waits.
private func answer(
    _ response: HTTPResponse, on connection: OpaquePointer, pending: PendingRequest, server: HTTPServer
) -> MHD_Result {
    let mhdResponse: OpaquePointer?
    switch response.body {
    case .drop:
        return .NO
    case .later(let seconds, let produce):
        guard server.parked.add(pending) else {
            return answer(HTTPResponse(status: 503), on: connection, pending: pending, server: server)
        }
        let address = Int(bitPattern: connection)
        if let early = pending.park(
            suspend: { MHD_suspend_connection(connection) },
            resume: { MHD_resume_connection(OpaquePointer(bitPattern: address)) })
        {
            server.parked.remove(pending)
            return answer(early, on: connection, pending: pending, server: server)
        }
        let delay = Int((min(max(seconds.isNaN ? 0 : seconds, 0), 3600) * 1000).rounded())
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) {
            let response = produce()
            server.parked.remove(pending)
            pending.finish(response)
        }
        return .YES
    case .bytes(let bytes):
        mhdResponse = bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .stream(let stream):
        let box = StreamBox(stream: stream, server: server, connection: Int(bitPattern: connection))
        let context = Unmanaged.passRetained(box).toOpaque()
        mhdResponse = MHD_create_response_from_callback(
            reception_mhd_size_unknown(), 1024, receptionStreamReader, context, receptionStreamFreed)
        if mhdResponse == nil {
            Unmanaged<StreamBox>.fromOpaque(context).release()
        } else {
            server.parked.add(stream)
        }
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
    /// The `MHD_Connection *` the stream writes to, as its address.
    let connection: Int

    init(stream: EventStream, server: HTTPServer, connection: Int) {
        self.stream = stream
        self.server = server
        self.connection = connection
    }
}

private func receptionStreamReader(
    _ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ maximum: Int
) -> Int {
    guard let cls, let buffer, maximum > 0 else { return reception_mhd_end_of_stream() }
    let box = Unmanaged<StreamBox>.fromOpaque(cls).takeUnretainedValue()
    let address = box.connection
    let step = box.stream.next(maximum: maximum) {
        MHD_suspend_connection(OpaquePointer(bitPattern: address))
        return { MHD_resume_connection(OpaquePointer(bitPattern: address)) }
    }
    switch step {
    case .write(let chunk):
        chunk.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: bytes.count) }
        }
        return chunk.count
    case .parked(let until):
        // The connection is suspended; the timer wakes it for its ping or its end (an event may wake it sooner).
        DispatchQueue.global().asyncAfter(deadline: until) { [weak stream = box.stream] in stream?.wakeIfDue() }
        return 0
    case .end:
        return reception_mhd_end_of_stream()
    }
}

private func receptionStreamFreed(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    let box = Unmanaged<StreamBox>.fromOpaque(cls).takeRetainedValue()
    box.stream.detach()
    box.server.parked.remove(box.stream)
    box.server.streamEnded(box.stream)
}

private func receptionRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ termination: MHD_RequestTerminationCode
) {
    guard let conCls, let stored = conCls.pointee else { return }
    let pending = Unmanaged<PendingRequest>.fromOpaque(stored).takeRetainedValue()
    pending.detach()
    if let cls { Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().parked.remove(pending) }
    conCls.pointee = nil
}
