import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
import Transport

/// Spec 3.12.
@Suite("EventStreamTests")
struct EventStreamTests {
    @Test func linesSplitAtLFOrCRLFAcrossChunks() {
        var splitter = LineSplitter()
        #expect(splitter.lines(in: Data("data: cha".utf8)).isEmpty)
        #expect(splitter.lines(in: Data("nged\r\n: ping\n\nda".utf8)) == ["data: changed", ": ping", ""])
        #expect(splitter.lines(in: Data("ta: idle\n".utf8)) == ["data: idle"])
    }

    @Test func anOverlongGarbageLineIsDroppedNotBuffered() {
        var splitter = LineSplitter()
        let garbage = Data(repeating: UInt8(ascii: "x"), count: LineSplitter.maximumLineLength + 10)
        #expect(splitter.lines(in: garbage).isEmpty)
        #expect(splitter.lines(in: Data("more\ndata: typing\n".utf8)) == ["data: typing"])
    }

    @Test(arguments: [
        ("data: changed", StreamSignal?.some(.changed)), (": ping", .ping), ("data: typing", .typing),
        ("data: idle", .idle), ("data: reconnect", .reconnect), ("data:changed", nil), ("data: changed ", nil),
        ("event: changed", nil), ("id: 4", nil), ("retry: 10", nil), ("", nil), ("data: {\"x\":1}", nil),
    ])
    func onlyExactLinesMeanSomething(line: String, signal: StreamSignal?) {
        #expect(StreamSignal(line: Substring(line)) == signal)
    }

    @Test func signalsArriveInOrderAndGarbageIsIgnored() async throws {
        let h = Harness()
        h.scriptRefresh()
        let body = ScriptedStream()
        h.transport.on("GET /v1/conversation/events", .stream(status: 200, headers: [:], body))
        let signals = try await h.client.events()
        body.send(": ping\r\n\r\nevent: x\ndata: typing\n\u{0}\u{1}garbage\ndata: changed\ndata: idle\n")
        body.send("data: reconnect\n")
        body.finish()
        var received: [StreamSignal] = []
        for try await signal in signals { received.append(signal) }
        #expect(received == [.ping, .typing, .changed, .idle, .reconnect])
        let request = try #require(h.transport.requests(to: "GET /v1/conversation/events").first)
        #expect(request.headers["Accept"] == "text/event-stream")
        #expect(request.headers["Authorization"] == "Bearer at_1")
    }

    @Test func aDroppedStreamEndsWithTheTransportError() async throws {
        let h = Harness()
        h.scriptRefresh()
        let body = ScriptedStream()
        h.transport.on("GET /v1/conversation/events", .stream(status: 200, headers: [:], body))
        let signals = try await h.client.events()
        body.send("data: changed\n")
        body.fail(.connectionFailed(transportCode: -1001))
        var received: [StreamSignal] = []
        do {
            for try await signal in signals { received.append(signal) }
            Issue.record("the stream ended normally")
        } catch let error as ReceptionError {
            #expect(error.code == "connection_failed" && error.transportCode == -1001)
        }
        #expect(received == [.changed])
    }

    @Test func noConversationIsThrownFromTheOpening() async {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("GET /v1/conversation/events", .error(404, code: "no_conversation"))
        await #expect(throws: ReceptionError(code: "no_conversation", status: 404)) { try await h.client.events() }
    }

    @Test func aRejectedTokenAtOpeningRenewsAndReopensOnce() async throws {
        let h = Harness()
        h.transport.on("POST /v1/devices/me/token", .json(200, #"{"token":"at_a"}"#), .json(200, #"{"token":"at_b"}"#))
        let body = ScriptedStream()
        h.transport.on("GET /v1/conversation/events", .error(401, code: "unauthorized"),
                       .stream(status: 200, headers: [:], body))
        _ = try await h.client.events()
        #expect(h.transport.requests(to: "GET /v1/conversation/events").map { $0.headers["Authorization"] }
                    == ["Bearer at_a", "Bearer at_b"])
    }

    @Test func aStreamLimitPausesOnlyTheStream() async throws {
        let h = Harness()
        h.scriptRefresh()
        h.transport.on("GET /v1/conversation/events", .error(429, code: "rate_limited", retryAfter: "15"))
        h.transport.on("GET /v1/conversation/unread", .json(200, unreadBody))
        await #expect(throws: ReceptionError(code: "rate_limited", status: 429)) { try await h.client.events() }
        #expect(h.cooldowns.wait(for: [.stream], now: h.clock.now)?.scope == .stream)
        await #expect(throws: ReceptionError(code: "cooldown")) { try await h.client.events() }
        _ = try await h.client.unread()
        #expect(h.transport.requests(to: "GET /v1/conversation/events").count == 1)
    }
}
