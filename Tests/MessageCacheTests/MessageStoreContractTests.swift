import ReceptionCore
import ReceptionTesting
import Testing

/// One contract, two implementations: the fake hosts test against and the SQLite store they ship with.
@Suite struct MessageStoreContractTests {
    @Test(arguments: MessageStoreContract.checks)
    func inMemoryMessageStore(_ check: ContractCheck<MessageStoreFixture>) async throws {
        try await check.run(.inMemory())
    }

    @Test(arguments: MessageStoreContract.checks)
    func sqliteMessageStore(_ check: ContractCheck<MessageStoreFixture>) async throws {
        try await check.run(.sqlite())
    }
}
