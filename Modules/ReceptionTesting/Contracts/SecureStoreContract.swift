import Foundation
import ReceptionCore

/// What a `SecureStoring` implementation is tested through: how to open it over one storage, and how to make the
/// failures the contract talks about.
public struct SecureStoreFixture: Sendable, CustomStringConvertible {
    /// The implementation's name, for test output.
    public let name: String
    /// A new instance over the same storage each call (a relaunch); in-memory stores may return the same object.
    public let open: @Sendable () -> any SecureStoring
    /// Damages one stored item so reads of it cannot be answered (a corrupt file, a locked keychain item).
    public let damage: @Sendable (SecureStoreKey) -> Void
    /// An instance over the same storage whose writes and deletions fail (a full disk), or `nil` when the
    /// implementation cannot simulate that.
    public let openFailingWrites: (@Sendable () -> any SecureStoring)?

    /// Makes a fixture.
    public init(
        name: String, open: @escaping @Sendable () -> any SecureStoring,
        damage: @escaping @Sendable (SecureStoreKey) -> Void,
        openFailingWrites: (@Sendable () -> any SecureStoring)?
    ) {
        self.name = name
        self.open = open
        self.damage = damage
        self.openFailingWrites = openFailingWrites
    }

    public var description: String { name }
}

/// The `SecureStoring` contract (spec 7.17's three-state reads; Docs/SecureStore.md), one check per rule.
public enum SecureStoreContract {
    static let key = SecureStoreKey.session(scope: "app_contractAAAAAAAAAAAAAAAAAA-gen1")
    static let other = SecureStoreKey(namespace: "app_contractAAAAAAAAAAAAAAAAAA-gen1", account: "other")
    static let elsewhere = SecureStoreKey.session(scope: "app_contractAAAAAAAAAAAAAAAAAA-gen2")

    /// Every check, for `@Test(arguments:)`.
    public static let checks: [ContractCheck<SecureStoreFixture>] = [
        ContractCheck("an item never written reads as missing") { fixture in
            let read = fixture.open().read(key)
            try require(read == .missing, "expected .missing, got \(read)")
        },
        ContractCheck("a written item reads back byte for byte, also after reopening") { fixture in
            let value = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            try fixture.open().write(value, for: key)
            let read = fixture.open().read(key)
            try require(read == .value(value), "expected the written bytes, got \(read)")
        },
        ContractCheck("an empty value is a value, not a missing item") { fixture in
            try fixture.open().write(Data(), for: key)
            let read = fixture.open().read(key)
            try require(read == .value(Data()), "expected an empty value, got \(read)")
        },
        ContractCheck("a second write replaces the first") { fixture in
            let store = fixture.open()
            try store.write(Data("first".utf8), for: key)
            try store.write(Data("second, longer".utf8), for: key)
            let read = fixture.open().read(key)
            try require(read == .value(Data("second, longer".utf8)), "expected the second value, got \(read)")
        },
        ContractCheck("items of other accounts and namespaces are independent") { fixture in
            let store = fixture.open()
            try store.write(Data("a".utf8), for: key)
            try store.write(Data("b".utf8), for: other)
            try store.write(Data("c".utf8), for: elsewhere)
            try require(store.read(key) == .value(Data("a".utf8)), "key overwritten by another item")
            try require(store.read(other) == .value(Data("b".utf8)), "other account lost")
            try require(store.read(elsewhere) == .value(Data("c".utf8)), "other namespace lost")
        },
        ContractCheck("deleting an item removes it, and deleting a missing item succeeds") { fixture in
            let store = fixture.open()
            try store.write(Data("a".utf8), for: key)
            try store.delete(key)
            try require(fixture.open().read(key) == .missing, "deleted item still readable")
            try store.delete(key)
            try store.delete(SecureStoreKey(namespace: "never-created", account: "x"))
        },
        ContractCheck("deleteAll removes one namespace and keeps the others") { fixture in
            let store = fixture.open()
            try store.write(Data("a".utf8), for: key)
            try store.write(Data("b".utf8), for: other)
            try store.write(Data("c".utf8), for: elsewhere)
            try store.deleteAll(namespace: key.namespace)
            try require(store.read(key) == .missing && store.read(other) == .missing, "namespace not cleared")
            try require(store.read(elsewhere) == .value(Data("c".utf8)), "another namespace was cleared")
            try store.deleteAll(namespace: "never-created")
        },
        ContractCheck("a damaged item reads as unavailable, never as missing") { fixture in
            let store = fixture.open()
            try store.write(Data("secret".utf8), for: key)
            fixture.damage(key)
            let read = fixture.open().read(key)
            guard case .unavailable = read else { throw ContractFailure("expected .unavailable, got \(read)") }
            do {
                _ = try read.value()
                throw ContractFailure("value() of an unavailable read did not throw")
            } catch let error as ReceptionError {
                try require(error.code == "secure_storage_unavailable" && error.status == 0, "wrong error \(error)")
            }
        },
        ContractCheck("a damaged item can be replaced by a new write") { fixture in
            let store = fixture.open()
            try store.write(Data("old".utf8), for: key)
            fixture.damage(key)
            try fixture.open().write(Data("new".utf8), for: key)
            try require(fixture.open().read(key) == .value(Data("new".utf8)), "damaged item not replaced")
        },
        ContractCheck("a failed write throws secure_storage_unavailable and keeps the previous value") { fixture in
            guard let openFailing = fixture.openFailingWrites else { return }
            try fixture.open().write(Data("kept".utf8), for: key)
            let failing = openFailing()
            do {
                try failing.write(Data("lost".utf8), for: key)
                throw ContractFailure("a failing write did not throw")
            } catch let error as ReceptionError {
                try require(error == ReceptionError.secureStorageUnavailable, "wrong error \(error)")
            }
            let read = fixture.open().read(key)
            try require(read == .value(Data("kept".utf8)), "previous value not kept: \(read)")
        },
        ContractCheck("concurrent writers leave one complete value") { fixture in
            let store = fixture.open()
            let values = (0..<16).map { i in Data(repeating: UInt8(i), count: 64 + i) }
            await withTaskGroup(of: Void.self) { group in
                for value in values { group.addTask { try? store.write(value, for: key) } }
            }
            let read = fixture.open().read(key)
            guard case .value(let data) = read else { throw ContractFailure("expected a value, got \(read)") }
            try require(values.contains(data), "the stored value is a mix of writers")
        },
    ]
}
