import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
import Transport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport over real loopback sockets, against an independent HTTP server (Python's http.server).
@Suite("URLSessionTransportTests", .serialized)
struct URLSessionTransportTests {
    static let server = LoopbackServer()
    let transport = URLSessionTransport()

    func request(_ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:],
                 timeout: Duration = .seconds(10)) throws -> HTTPRequest {
        HTTPRequest(method: method, url: try Self.server.url(path), headers: headers, body: body.map { Data($0.utf8) },
                    timeout: timeout)
    }

    func echo(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test func headersAndBodyGoOutExactly() async throws {
        let response = try await transport.send(request(
            "PATCH", "/echo/v1/devices/me?after=41", body: #"{"a":1}"#,
            headers: ["X-App-Id": "app_x", "X-Reception-Revision": "2", "Content-Type": "application/json",
                      "Authorization": "Bearer at"]))
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        let echo = try echo(response)
        #expect(echo["method"] as? String == "PATCH")
        #expect(echo["query"] as? String == "after=41")
        #expect(echo["body"] as? String == #"{"a":1}"#)
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["transfer-encoding"] == "chunked" && headers["content-length"] == nil,
                "API bodies are streamed so a resend can rewind them")
        #expect(headers["x-app-id"] == "app_x" && headers["x-reception-revision"] == "2")
        #expect(headers["authorization"] == "Bearer at" && headers["content-type"] == "application/json")
    }

    // Spec 3.5: a DELETE with a JSON body.
    @Test func aDeleteCarriesItsBody() async throws {
        let response = try await transport.send(request("DELETE", "/echo/v1/devices/me", body: #"{"sessionSecret":"s"}"#))
        #expect(try echo(response)["body"] as? String == #"{"sessionSecret":"s"}"#)
    }

    @Test func errorStatusesAreResponsesWithHeaders() async throws {
        let response = try await transport.send(request("GET", "/status/429"))
        #expect(response.status == 429)
        #expect(response.header("Retry-After") == "7")
        #expect(String(decoding: response.body, as: UTF8.self).contains("scripted"))
    }

    @Test func aStoragePutHasAFixedLengthAndReportsProgressToTheEnd() async throws {
        let fractions = Fractions()
        let body = String(repeating: "x", count: 300_000)
        let response = try await transport.send(
            request("PUT", "/echo/put", body: body, headers: ["If-Match": "*"]), uploadProgress: { fractions.add($0) })
        #expect(fractions.last == 1.0)
        let echo = try echo(response)
        let headers = try #require(echo["headers"] as? [String: String])
        #expect(headers["content-length"] == "300000" && headers["transfer-encoding"] == nil)
        #expect(headers["if-match"] == "*")
        #expect((echo["body"] as? String)?.count == 300_000)
    }

    @Test func aRefusedConnectionIsConnectionFailed() async throws {
        let closed = HTTPRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/v1/x")!, timeout: .seconds(5))
        do {
            _ = try await transport.send(closed)
            Issue.record("a refused connection answered")
        } catch {
            #expect(error.code == "connection_failed" && error.status == 0 && error.transportCode != nil)
            #expect(error.isTransient)
        }
    }

    @Test func aConnectionClosedWithoutAnAnswerIsConnectionFailed() async throws {
        // Warm a keep-alive connection first: a reused connection that dies makes libcurl retry the request.
        _ = try await transport.send(request("POST", "/echo/warm", body: "{}"))
        let dropped = try request("POST", "/drop", body: #"{"clientId":"C1"}"#, timeout: .seconds(20))
        let started = ContinuousClock.now
        do {
            _ = try await transport.send(dropped)
            Issue.record("a dropped connection answered")
        } catch {
            #expect(error.code == "connection_failed" && error.isTransient)
        }
        print("dropped connection reported after \(ContinuousClock.now - started)")
    }

    @Test func aStoragePutOnADroppedConnectionFails() async throws {
        _ = try await transport.send(request("PUT", "/echo/warm", body: "{}"), uploadProgress: { _ in })
        let dropped = try request("PUT", "/drop", body: String(repeating: "x", count: 5000), timeout: .seconds(20))
        let started = ContinuousClock.now
        do {
            _ = try await transport.send(dropped, uploadProgress: { _ in })
            Issue.record("a dropped connection answered")
        } catch {
            #expect(error.code == "connection_failed")
        }
        print("dropped PUT reported after \(ContinuousClock.now - started)")
    }

    @Test func aTimeoutIsConnectionFailed() async throws {
        let slow = try request("GET", "/slow", timeout: .seconds(1))
        do {
            _ = try await transport.send(slow)
            Issue.record("the slow request answered within its timeout")
        } catch {
            #expect(error.code == "connection_failed")
        }
    }

    @Test func cancellingTheCallerIsCancelled() async throws {
        let slow = try request("GET", "/slow/cancelled")
        let task = Task { try await transport.send(slow) }
        // Cancelled once the server holds the request, so it is the request on the wire that is given up.
        #expect(try await seen("/slow/cancelled"), "the request never reached the server")
        task.cancel()
        await #expect(throws: ReceptionError.cancelled) { try await task.value }
    }

    /// Waits (polling, up to 10 s) until the server received a request for `path`.
    func seen(_ path: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let count = try echo(try await transport.send(request("GET", "/seen?" + path)))["count"] as? Int
            if count ?? 0 > 0 { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func theEventStreamArrivesIncrementally() async throws {
        var splitter = LineSplitter()
        var lines: [Substring] = []
        var status = 0
        let open = try request("GET", "/stream", headers: ["Accept": "text/event-stream"])
        for try await event in transport.stream(open) {
            switch event {
            case .head(let code, _): status = code
            case .bytes(let data): lines += splitter.lines(in: data)
            }
        }
        #expect(status == 200)
        #expect(lines.compactMap(StreamSignal.init(line:)) == [.ping, .typing, .changed, .reconnect])
    }

    @Test func aSilentStreamEndsWithTheIdleTimeout() async throws {
        var sawHead = false
        let silent = try request("GET", "/silent-stream", timeout: .seconds(1))
        do {
            for try await event in transport.stream(silent) {
                if case .head = event { sawHead = true }
            }
            Issue.record("a silent stream ended normally")
        } catch let error as ReceptionError {
            #expect(error.code == "connection_failed")
        }
        #expect(sawHead)
    }
}

final class Fractions: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Double] = []
    func add(_ value: Double) { lock.withLock { values.append(value) } }
    var last: Double? { lock.withLock { values.last } }
}

/// The Python server, started once per test process.
final class LoopbackServer: Sendable {
    private let port: Int?
    private let process: Subprocess?
    /// Held open while this server lives: its end is the server's signal to exit.
    private let input: Pipe

    init() {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/loopback_server.py")
        let pipe = Pipe()
        // The server exits when its standard input closes, that is when the test process ends; it must not hold
        // the test runner's output open either.
        let stdin = Pipe()
        // Every end closes on exec, so children that other tests start do not inherit them.
        for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting, stdin.fileHandleForReading,
                       stdin.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        var port: Int?
        let process = try? Subprocess(
            "python3", [script.path], standardInput: .descriptor(stdin.fileHandleForReading.fileDescriptor),
            standardOutput: .descriptor(pipe.fileHandleForWriting.fileDescriptor), standardError: .null)
        if process != nil {
            // Only the child writes its port now, so the read below ends if it dies before printing.
            try? pipe.fileHandleForWriting.close()
            var line = Data()
            while let byte = try? pipe.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
                line.append(first)
            }
            port = Int(String(decoding: line, as: UTF8.self))
        }
        self.port = port
        self.process = process
        input = stdin
    }

    deinit { process?.terminate() }

    func url(_ path: String) throws -> URL {
        let port = try #require(port, "the loopback server did not start")
        return try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
    }
}
