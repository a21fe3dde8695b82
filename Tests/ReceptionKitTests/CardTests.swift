import Foundation
import ReceptionCore
import ReceptionKit
import Testing

/// Review and paywall cards (spec 7.21, seed 001): taps, events, the click receipt on the service.
@Suite("CardTests", .serialized)
@MainActor
struct CardTests {
    @Test func paywallRegistrationFollowsTheRules() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        let offered = [
            ReceptionPaywall(id: " pro ", title: " Pro "), ReceptionPaywall(id: "pro", title: "Duplicate"),
            ReceptionPaywall(id: "bad id", title: "x"), ReceptionPaywall(id: "", title: "x"),
            ReceptionPaywall(id: "ok", title: ""), ReceptionPaywall(id: String(repeating: "a", count: 65), title: "x"),
        ]
        app.reception.paywalls = offered + (0..<30).map { ReceptionPaywall(id: "p\($0)", title: "P\($0)") }
        #expect(app.reception.paywalls.count == 20, "reading gives the validated list")
        #expect(app.reception.paywalls.first == ReceptionPaywall(id: "pro", title: "Pro"))
        #expect(app.reception.availablePaywalls.first == ReceptionPaywall(id: "pro", title: "Pro"))
        #expect(app.reception.availablePaywalls.count == 20)
        #expect(!app.reception.availablePaywalls.contains { $0.id == "bad id" || $0.title == "Duplicate" })
    }

    @Test func aReviewCardOpensItsLinkEmitsTheEventAndRecordsTheClick() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        try await app.send("hi")
        let device = try #require(try await service.devices().first?["id"] as? String)
        app.reception.openChat()
        let card = try await app.receiveReviewCard()
        #expect(app.reception.tapCard(card))
        #expect(app.openedURLs.map(\.host) == ["apps.apple.com"])
        #expect(app.events.contains(.reviewOpened))
        let recorded = await until {
            let list = (try? await service.admin("GET", "devices/\(device)/messages")["messages"] as? [[String: Any]]) ?? []
            return list.contains { $0["kind"] as? String == "REVIEW" && !($0["actionClickedAt"] is NSNull) && $0["actionClickedAt"] != nil }
        }
        #expect(recorded, "the click receipt reached the service")
    }

    @Test func aPaywallCardCallsTheHandlerOnlyWhileAvailable() async throws {
        let service = try Service()
        let app = App(service)
        await app.launch()
        var presented: [String] = []
        app.reception.onPaywall = { presented.append($0) }
        app.reception.paywalls = [ReceptionPaywall(id: "pro", title: "Pro")]
        try await app.send("hi")
        let device = try #require(try await service.devices().first?["id"] as? String)
        let synced = await until {
            ((try? await service.devices().first?["paywalls"] as? [[String: String]]) ?? []) == [["id": "pro", "title": "Pro"]]
        }
        #expect(synced, "the available paywalls reached the service")
        try await service.admin("POST", "devices/\(device)/messages", ["kind": "PAYWALL", "paywallId": "pro", "text": "50% off"])
        app.reception.openChat()
        let arrived = await until {
            await app.reception.chat?.refresh()
            return app.reception.chat?.messages.contains { $0.kind == .paywall } == true
        }
        try #require(arrived)
        let card = try #require(app.reception.chat?.messages.first { $0.kind == .paywall })
        #expect(app.reception.tapCard(card))
        #expect(presented == ["pro"] && app.events.contains(.paywallOpened))
        app.reception.paywallAvailability = { _ in false }
        let gone = await until { app.reception.availablePaywalls.isEmpty }
        #expect(gone)
        #expect(!app.reception.tapCard(card), "an unavailable paywall shows No longer available")
        #expect(presented == ["pro"])
    }
}
