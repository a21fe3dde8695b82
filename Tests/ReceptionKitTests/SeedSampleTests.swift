// This file imports ReceptionKit alone, as a host does: it compiles only if the seeds' samples do.
import Foundation
import ReceptionKit
import Testing

/// The shapes of the product documents' code samples (seed 000 "Handle ReceptionError", seed 002 push forwarding,
/// seed 004 foreground receipt), written against `import ReceptionKit` only.
@Suite("SeedSampleTests")
@MainActor
struct SeedSampleTests {
    @Test func theSamplesCompileAndBehaveBeforeConfigure() async {
        let reception = Reception()
        // Seed 000: deletion in a do/catch on ReceptionError; before configure it does nothing and throws nothing.
        // (Through an untyped closure, as a host's account code usually holds it.)
        let delete: () async throws -> Void = { try await reception.deleteData() }
        var caught: ReceptionError?
        do {
            try await delete()
        } catch let error as ReceptionError {
            caught = error
        } catch {
            Issue.record("deleteData threw something that is not a ReceptionError")
        }
        #expect(caught == nil)
        // Seed 002 / 004: forwarding a notification, with the labels the documents use.
        let userInfo: [AnyHashable: Any] = ["reception": ["conversationId": "c1"]]
        #expect(reception.handlePushNotification(userInfo: userInfo, openChat: false))
        reception.setPushToken(Data([0x01, 0xAB]), environment: Reception.PushEnvironment.sandbox)
        // Seed 000: events arrive through onEvent, as ReceptionEvent values.
        var events: [ReceptionEvent] = []
        reception.onEvent = { events.append($0) }
        #expect(events.isEmpty)
        #expect(ReceptionError(code: "connection_failed") == ReceptionError.connectionFailed())
    }
}
