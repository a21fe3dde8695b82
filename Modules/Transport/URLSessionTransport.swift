import Foundation
import ReceptionCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default `HTTPTransporting`: `URLSession` with an ephemeral configuration (no cookies, no cache, no
/// credential storage), every request a data task whose events arrive through one delegate. Linux Foundation has
/// no `AsyncBytes`, so the event stream is read incrementally from the delegate's data callbacks.
///
/// Cancelling never calls into the session on the cancelling thread. Swift runs a task's cancellation handler while
/// it holds that task's status lock, and `URLSessionTask.cancel()` waits for the session's work queue, where a
/// finishing request may at that moment be resuming a continuation of the same task, which needs the same lock:
/// seen as a hang of the whole test suite (under gdb: `swift_task_cancel` → `URLSessionTask.cancel` →
/// `DispatchQueue.sync`, against `urlProtocolDidFinishLoading` → `resume` → the status lock). Foundation's own
/// `data(for:)` cancels that way, so it is not used either. Cancels and the session's invalidation go to one
/// serial queue of ours instead, in the order they were asked for.
public final class URLSessionTransport: HTTPTransporting {
    private let router: TaskRouter
    /// Made on the first request, not by `init`: `ReceptionConfiguration()` runs at app launch on the main actor,
    /// and creating a `URLSession` costs as much as the rest of `configure(appId:)` (Docs/Footprint.md).
    private let lazySession = Locked<URLSession?>(nil)
    /// Where `cancel()` and the final `invalidateAndCancel()` run: never a thread that holds a task's status lock,
    /// never the session's own queues.
    private let cancellations = DispatchQueue(label: "ReceptionKit.URLSessionTransport.cancellations")

    /// A transport over a fresh ephemeral session, created when the first request goes out.
    @_optimize(size) public init() {
        router = TaskRouter()
    }

    deinit {
        guard let session = lazySession.withLock({ $0 }) else { return }
        cancellations.async { session.invalidateAndCancel() }
    }

    /// The ephemeral session: no cookies, no cache, no credential storage; one delegate for every task.
    @_optimize(size) private var session: URLSession {
        lazySession.withLock { session in
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.urlCredentialStorage = nil
            // Spec 1.3: the per-request timeouts are set on each request; the resource limit must not cut a long
            // event stream.
            configuration.timeoutIntervalForResource = 7 * 24 * 3600
            let made = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
            session = made
            return made
        }
    }

    @_optimize(size) public func send(
        _ request: HTTPRequest, uploadProgress: (@Sendable (Double) -> Void)?
    ) async throws(ReceptionError) -> HTTPResponse {
        var urlRequest = Self.urlRequest(request)
        let body = urlRequest.httpBody
        #if canImport(FoundationNetworking)
        // When libcurl finds a reused keep-alive connection closed without an answer it resends the request, and
        // Linux Foundation cannot rewind an in-memory body for that: the request hangs until its timeout (measured:
        // the whole 20 s of a 20 s timeout). So an API body goes out as a stream the delegate can hand out again
        // (`needNewBodyStream`), sent chunked, which every HTTP/1.1 server accepts. A storage PUT must keep a
        // fixed length (signed storage URLs require Content-Length, and progress needs a total), so it asks the
        // server to close the connection afterwards instead: a PUT then never meets a stale pooled connection that
        // an earlier PUT left behind.
        if let body {
            if uploadProgress == nil {
                urlRequest.httpBody = nil
                urlRequest.httpBodyStream = InputStream(data: body)
            } else {
                urlRequest.setValue("close", forHTTPHeaderField: "Connection")
            }
        }
        #endif
        let task = session.dataTask(with: urlRequest)
        let result: Result<HTTPResponse, ReceptionError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                router.register(
                    task.taskIdentifier, .collect(continuation: continuation, progress: uploadProgress), body: body)
                task.resume()
                if Task.isCancelled { cancel(task) }
            }
        } onCancel: {
            cancel(task)
        }
        return try result.get()
    }

    @_optimize(size) public func stream(_ request: HTTPRequest) -> AsyncThrowingStream<HTTPStreamEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<HTTPStreamEvent, any Error>.makeStream()
        let task = session.dataTask(with: Self.urlRequest(request))
        router.register(task.taskIdentifier, .stream(continuation))
        let cancellations = cancellations
        continuation.onTermination = { _ in cancellations.async { task.cancel() } }
        task.resume()
        return stream
    }

    /// Cancels `task` later, on the cancellation queue (see the type's comment for why never here and now).
    @_optimize(size) private func cancel(_ task: URLSessionTask) {
        cancellations.async { task.cancel() }
    }

    @_optimize(size) static func urlRequest(_ request: HTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        urlRequest.timeoutInterval = max(Double(request.timeout.components.seconds), 1)
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        return urlRequest
    }

    /// Header fields with lower-cased names.
    @_optimize(size) static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return headers
    }

    /// Maps a URL-loading failure to the client codes of spec 5.4.
    @_optimize(size) static func error(_ error: any Error) -> ReceptionError {
        if let urlError = error as? URLError {
            if urlError.code == .cancelled { return .cancelled }
            return .connectionFailed(transportCode: urlError.code.rawValue)
        }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain, nsError.code == NSURLErrorCancelled { return .cancelled }
        return .connectionFailed(transportCode: nsError.code)
    }
}

/// Routes the session delegate's callbacks to the waiting request or the open stream, by task identifier.
private final class TaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    indirect enum Sink {
        case collect(continuation: CheckedContinuation<Result<HTTPResponse, ReceptionError>, Never>,
                     progress: (@Sendable (Double) -> Void)?)
        case stream(AsyncThrowingStream<HTTPStreamEvent, any Error>.Continuation)
    }

    /// One request in flight. Kept by reference in a short list: a session has a handful of tasks at a time, and
    /// a list of references compiles to a fraction of a `[Int: Entry]` dictionary's code (Docs/Footprint.md).
    /// `@unchecked Sendable`: read and changed only inside `entries`' lock.
    final class Entry: @unchecked Sendable {
        let identifier: Int
        let sink: Sink
        /// The request body, to hand out again when libcurl must resend the request.
        let requestBody: Data?
        var status = 0
        var headers: [String: String] = [:]
        var body = Data()

        @_optimize(size) init(identifier: Int, sink: Sink, requestBody: Data?) {
            self.identifier = identifier
            self.sink = sink
            self.requestBody = requestBody
        }
    }

    private let entries = Locked<[Entry]>([])

    // Never inlined: the transport's continuation closures call it, and closures are compiled at -O
    // (Docs/Footprint.md).
    @inline(never) @_optimize(size) func register(_ identifier: Int, _ sink: Sink, body: Data? = nil) {
        let entry = Entry(identifier: identifier, sink: sink, requestBody: body)
        entries.withLock { Self.replace(identifier, with: entry, in: &$0) }
    }

    /// `register` under the lock (a function of its own for the same reason).
    @inline(never)
    @_optimize(size) private static func replace(_ identifier: Int, with entry: Entry, in entries: inout [Entry]) {
        // A loop, not a `removeAll(where:)` closure (Docs/Footprint.md, "Loops for one-off closures").
        var index = entries.count
        while index > 0 {
            index -= 1
            if entries[index].identifier == identifier { entries.remove(at: index) }
        }
        entries.append(entry)
    }

    /// The entry of task `identifier`; call inside the lock.
    @inline(never) @_optimize(size) private static func entry(_ identifier: Int, in entries: [Entry]) -> Entry? {
        for entry in entries where entry.identifier == identifier { return entry }
        return nil
    }

    /// libcurl resends a request when a reused keep-alive connection turns out closed; Foundation then asks for the
    /// body again. Without this the resent request would go out with an exhausted stream.
    @_optimize(size) func urlSession(
        _ session: URLSession, task: URLSessionTask,
        needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    ) {
        let body = entries.withLock { Self.entry(task.taskIdentifier, in: $0)?.requestBody }
        completionHandler(body.map { InputStream(data: $0) })
    }

    @_optimize(size) func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        let headers = http.map(URLSessionTransport.headers(of:)) ?? [:]
        let stream: AsyncThrowingStream<HTTPStreamEvent, any Error>.Continuation? = entries.withLock { entries in
            guard let entry = Self.entry(dataTask.taskIdentifier, in: entries) else { return nil }
            entry.status = status
            entry.headers = headers
            if case .stream(let continuation) = entry.sink { return continuation }
            return nil
        }
        stream?.yield(.head(status: status, headers: headers))
        completionHandler(.allow)
    }

    @_optimize(size) func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let stream: AsyncThrowingStream<HTTPStreamEvent, any Error>.Continuation? = entries.withLock { entries in
            guard let entry = Self.entry(dataTask.taskIdentifier, in: entries) else { return nil }
            if case .stream(let continuation) = entry.sink { return continuation }
            entry.body.append(data)
            return nil
        }
        stream?.yield(.bytes(data))
    }

    @_optimize(size) func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard totalBytesExpectedToSend > 0 else { return }
        let progress: (@Sendable (Double) -> Void)? = entries.withLock { entries in
            let entry = Self.entry(task.taskIdentifier, in: entries)
            if case .collect(_, let progress) = entry?.sink { return progress }
            return nil
        }
        progress?(min(1, Double(totalBytesSent) / Double(totalBytesExpectedToSend)))
    }

    @_optimize(size)
    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let identifier = task.taskIdentifier
        let removed: Entry? = entries.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.identifier == identifier }) else { return nil }
            return entries.remove(at: index)
        }
        guard let entry = removed else { return }
        switch entry.sink {
        case .collect(let continuation, _):
            if let error {
                continuation.resume(returning: .failure(URLSessionTransport.error(error)))
            } else if entry.status == 0 {
                continuation.resume(returning: .failure(.invalidResponse(status: 0)))
            } else {
                continuation.resume(returning: .success(
                    HTTPResponse(status: entry.status, headers: entry.headers, body: entry.body)))
            }
        case .stream(let continuation):
            if let error {
                continuation.finish(throwing: URLSessionTransport.error(error))
            } else {
                continuation.finish()
            }
        }
    }
}
