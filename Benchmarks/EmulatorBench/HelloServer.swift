import CMicroHTTPD

/// The baseline: a minimal libmicrohttpd handler answering "hello" with the same daemon flags the emulator uses,
/// and answering on the second access-handler call so connections stay alive, as the emulator does.
enum HelloServer {
    /// Starts the baseline on a free loopback port; returns the daemon and its port.
    static func start() -> (OpaquePointer, Int)? {
        guard let daemon = reception_mhd_start("127.0.0.1", 0, helloHandler, nil, nil, nil, 60, 4, 10_000) else { return nil }
        return (daemon, Int(reception_mhd_bound_port(daemon)))
    }
}

private func helloHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let conCls else { return .NO }
    if conCls.pointee == nil {
        // Any non-nil marker: the next call is the one that answers.
        conCls.pointee = UnsafeMutableRawPointer(bitPattern: 1)
        return .YES
    }
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        uploadDataSize.pointee = 0
        return .YES
    }
    let body = Array("hello".utf8)
    let response = body.withUnsafeBytes {
        MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
    }
    defer { MHD_destroy_response(response) }
    return MHD_queue_response(connection, 200, response)
}
