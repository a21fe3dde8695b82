import Foundation
@testable import ReceptionCore
import ReceptionTesting
@testable import SecureStore
import Testing

/// One contract, every implementation that runs here: the file store on a real folder and the in-memory fake.
@Suite("SecureStoreContractTests")
struct SecureStoreContractTests {
    struct Implementation: Sendable, CustomStringConvertible {
        let description: String
        let makeFixture: @Sendable () -> SecureStoreFixture
    }

    static let implementations = [
        Implementation(description: "FileSecureStore") {
            let directory = TemporaryFolder.make()
            return SecureStoreFixture(
                name: "FileSecureStore",
                open: { FileSecureStore(directory: directory, logger: .silent) },
                damage: { key in
                    let path = directory.appendingPathComponent(FileSecureStore.encodeName(key.namespace))
                        .appendingPathComponent(FileSecureStore.encodeName(key.account))
                    try? Data("garbage, not an item".utf8).write(to: path)
                },
                openFailingWrites: {
                    FileSecureStore(directory: directory, logger: .silent, faultInjection: { _ in ENOSPC })
                })
        },
        Implementation(description: "InMemorySecureStore") {
            let store = InMemorySecureStore()
            return SecureStoreFixture(
                name: "InMemorySecureStore",
                open: { store },
                damage: { store.makeUnavailable($0) },
                openFailingWrites: {
                    let failing = FailingWrites(base: store)
                    return failing
                })
        },
    ]

    @Test(arguments: implementations, SecureStoreContract.checks)
    func contract(implementation: Implementation, check: ContractCheck<SecureStoreFixture>) async throws {
        try await check.run(implementation.makeFixture())
    }
}

/// Reads go to the shared in-memory store; writes fail, as on a full disk.
struct FailingWrites: SecureStoring {
    let base: InMemorySecureStore
    func read(_ key: SecureStoreKey) -> SecureStoreRead { base.read(key) }
    func write(_ value: Data, for key: SecureStoreKey) throws(ReceptionError) { throw .secureStorageUnavailable }
    func delete(_ key: SecureStoreKey) throws(ReceptionError) { throw .secureStorageUnavailable }
    func deleteAll(namespace: String) throws(ReceptionError) { throw .secureStorageUnavailable }
}

enum TemporaryFolder {
    /// A fresh folder under the system temporary directory (not created yet, like a first launch).
    static func make() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("reception-securestore-\(UUID().uuidString)", isDirectory: true)
    }
}
