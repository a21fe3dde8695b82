import Foundation
import ReceptionCore
import ReceptionTesting
import Testing
@testable import Conversation

/// The emulator drops connections after committing, answers 5xx and 429, and the app is killed mid-send; after
/// recovery the server holds every message exactly once, in order, and the client shows them all as Sent.
@Suite("FaultSuiteTests", .serialized)
struct FaultSuiteTests {
    @Test("no message is lost or duplicated under drops, 5xx, 429 and a relaunch mid-send")
    func faults() async throws {
        let server = try EmulatorServer(clock: ManualClock())
        let chat = try await EmulatorChat(server: server)
        await chat.engine.setVisible(true)
        var ids: [String] = []
        func send(_ text: String) async throws {
            await chat.engine.setDraft(text)
            #expect(await chat.until(rounds: 4000) { await chat.engine.snapshot.composer.canSend })
            let id = try #require(await chat.engine.send())
            ids.append(id)
            // The person waits for each message, so the order on the server is the order of sending.
            #expect(await chat.until(rounds: 4000) { await chat.message(id)?.status == .sent })
        }
        try await send("m0")
        let path = "/v1/conversation/messages"
        try await server.admin("POST", "faults", json: ["path": path, "method": "POST", "kind": "drop", "count": 1])
        try await send("m1")
        try await send("m2")
        try await server.admin("POST", "faults", json: [
            "path": path, "method": "POST", "kind": "status", "status": 503, "code": "unavailable", "count": 2,
        ])
        try await send("m3")
        try await server.admin("POST", "faults", json: [
            "path": path, "method": "POST", "kind": "status", "status": 429, "code": "rate_limited",
            "retryAfter": 5, "retryScope": "messages",
        ])
        try await send("m4")
        try await send("m5")
        // Killed while the next send is on the wire (the answer is lost with the process), then relaunched.
        try await server.admin("POST", "faults", json: ["path": path, "method": "POST", "kind": "delay", "delayMs": 400])
        await chat.engine.setDraft("m6")
        #expect(await chat.until(rounds: 4000) { await chat.engine.snapshot.composer.canSend })
        ids.append(try #require(await chat.engine.send()))
        // On the wire: the emulator holds the request (its delay fault fired); the kill comes now.
        #expect(await chat.until(advancing: false, rounds: 4000) { await server.faultsFired() }, "m6 never reached the service")
        try await chat.relaunch()
        await chat.engine.setVisible(true)
        #expect(await chat.until(rounds: 4000) { await chat.message(ids[6])?.status == .sent })
        try await send("m7")
        try await send("m8")
        try await send("m9")
        let allSent = await chat.until(rounds: 4000) {
            let messages = await chat.engine.snapshot.messages
            return ids.allSatisfy { id in messages.contains { $0.id == id && $0.status == .sent } }
        }
        #expect(allSent)
        let device = try #require(try await server.deviceIDs().first)
        let stored = try await server.serverMessages(device: device).filter { $0.sender == "USER" }
        let lost = ids.filter { id in !stored.contains { $0.clientId == id } }.count
        let duplicated = ids.map { id in max(0, stored.filter { $0.clientId == id }.count - 1) }.reduce(0, +)
        print("FaultSuite: sent \(ids.count), stored \(stored.count), lost \(lost), duplicated \(duplicated)")
        #expect(lost == 0)
        #expect(duplicated == 0)
        #expect(stored.map(\.text) == (0..<10).map { "m\($0)" })
    }
}
