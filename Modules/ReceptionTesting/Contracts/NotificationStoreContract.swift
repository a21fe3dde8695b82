import ReceptionCore

/// A notification store under test and a way to put delivered notifications into it.
public struct NotificationStoreFixture: Sendable, CustomStringConvertible {
    /// The implementation's name.
    public let name: String
    /// The store.
    public let store: any NotificationStore
    /// Delivers a notification with this identifier, with or without a top-level `reception` key.
    public let deliver: @Sendable (_ identifier: String, _ hasReceptionKey: Bool) async throws -> Void

    /// Makes a fixture.
    public init(
        name: String, store: any NotificationStore,
        deliver: @escaping @Sendable (_ identifier: String, _ hasReceptionKey: Bool) async throws -> Void
    ) {
        self.name = name
        self.store = store
        self.deliver = deliver
    }

    public var description: String { name }
}

/// The `NotificationStore` contract (spec 7.11 notification cleanup).
public enum NotificationStoreContract {
    /// Every check; each expects a fresh, empty store.
    public static let checks: [ContractCheck<NotificationStoreFixture>] = [
        ContractCheck("delivered notifications are listed with their reception mark") { fixture in
            try await fixture.deliver("support", true)
            try await fixture.deliver("other", false)
            let listed = Set(await fixture.store.deliveredNotifications())
            try require(listed == [
                DeliveredNotification(identifier: "support", hasReceptionKey: true),
                DeliveredNotification(identifier: "other", hasReceptionKey: false),
            ], "listed \(listed)")
        },
        ContractCheck("removal takes exactly the named identifiers and ignores unknown ones") { fixture in
            try await fixture.deliver("a", true)
            try await fixture.deliver("b", true)
            try await fixture.deliver("c", false)
            await fixture.store.removeDeliveredNotifications(withIdentifiers: ["a", "c", "unknown"])
            let left = await fixture.store.deliveredNotifications().map(\.identifier)
            try require(left == ["b"], "left \(left)")
        },
        ContractCheck("support cleanup removes marked notifications only") { fixture in
            try await fixture.deliver("support-1", true)
            try await fixture.deliver("orders", false)
            try await fixture.deliver("support-2", true)
            let removed = await fixture.store.removeDeliveredSupportNotifications()
            let left = await fixture.store.deliveredNotifications().map(\.identifier)
            try require(Set(removed) == ["support-1", "support-2"], "removed \(removed)")
            try require(left == ["orders"], "left \(left)")
        },
        ContractCheck("cleanup of an empty centre asks for nothing and lists nothing") { fixture in
            let removed = await fixture.store.removeDeliveredSupportNotifications()
            try require(removed.isEmpty, "removed \(removed)")
            try require(await fixture.store.deliveredNotifications().isEmpty, "not empty")
        },
    ]
}
