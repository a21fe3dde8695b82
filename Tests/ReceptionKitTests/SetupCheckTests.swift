import Foundation
import ReceptionCore
import ReceptionKit
import Testing

/// Spec 7.23's setup check against the emulator: a pass, and the failure reasons that can be produced here.
@Suite("SetupCheckTests", .serialized)
@MainActor
struct SetupCheckTests {
    @Test func aWorkingIntegrationPassesAndTheServiceHasTheMessage() async throws {
        let service = try Service()
        let app = App(service)
        // The whole suite runs at once on two cores: a real-clock 60 s can pass before this test gets its turn.
        app.setupCheckBudget = .seconds(600)
        await app.launch()
        #expect(await app.reception.runSetupCheck(appId: service.appID) == .passed)
        let device = try #require(try await service.devices().first?["id"] as? String)
        #expect(try await service.messages(device: device) == ["Hello from setup"])
        #expect(await app.reception.runSetupCheck(appId: service.appID) != .passed, "it runs at most once")
    }

    @Test func anotherAppIDIsAMismatch() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        #expect(await app.reception.runSetupCheck(appId: "app_ZZZZZZZZZZZZZZZZZZZZZZ") == .failed(reason: "app_id_mismatch"))
        #expect(try await service.devices().isEmpty, "a failed check sends nothing")
    }

    @Test func aRefusedSendIsNotDelivered() async throws {
        let service = try Service()
        try await service.admin("PATCH", "app", ["onlyVerifiedUsers": true])
        let app = App(service)
        await app.launch()
        #expect(await app.reception.runSetupCheck(appId: service.appID) == .failed(reason: "not_delivered"))
    }
}
