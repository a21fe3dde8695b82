import ReceptionCore
import ReceptionTesting
import Testing

/// The recording fake passes the `NotificationStore` contract (the `UserNotificationCenterStore` adapter needs a
/// real notification centre and runs it in an Apple host app).
@Suite("NotificationStoreContractTests")
struct NotificationStoreContractTests {
    @Test("RecordingNotificationStore", arguments: NotificationStoreContract.checks)
    func recordingStore(check: ContractCheck<NotificationStoreFixture>) async throws {
        let store = RecordingNotificationStore()
        try await check.run(NotificationStoreFixture(name: "RecordingNotificationStore", store: store) { id, marked in
            store.deliver(identifier: id, hasReceptionKey: marked)
        })
    }
}
