#if canImport(Security)
import Foundation
import ReceptionCore
import Security

/// A `SecureStoring` over the Keychain: generic passwords of service `com.reception.sdk`, account
/// `<namespace>.<account>`, readable after the first unlock and never leaving this device (spec 7.17), so a
/// restored backup does not carry a session secret to another phone.
public struct KeychainSecureStore: SecureStoring {
    /// The Keychain service every item uses.
    public let service: String
    private let logger: ReceptionLogger

    /// A store over the Keychain service `service`.
    @_optimize(size)
    public init(service: String = "com.reception.sdk", logger: ReceptionLogger = ReceptionLogger(category: "SecureStore")) {
        self.service = service
        self.logger = logger
    }

    @_optimize(size) private func baseQuery(_ account: String) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
    }

    @_optimize(size) private func accountName(_ key: SecureStoreKey) -> String { "\(key.namespace).\(key.account)" }

    @_optimize(size) public func read(_ key: SecureStoreKey) -> SecureStoreRead {
        var query = baseQuery(accountName(key))
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            guard let data = result as? Data else {
                logger.write(.error, "keychain item \(key.account) has no data")
                return .unavailable(reason: "item without data")
            }
            return .value(data)
        case errSecItemNotFound:
            return .missing
        default:
            // Locked before first unlock (errSecInteractionNotAllowed) and every other failure: never "missing".
            logger.write(.error, "keychain read of \(key.account) failed (OSStatus \(status))")
            return .unavailable(reason: "OSStatus \(status)")
        }
    }

    @_optimize(size) public func write(_ value: Data, for key: SecureStoreKey) throws(ReceptionError) {
        let query = baseQuery(accountName(key))
        let attributes: [String: Any] = [
            kSecValueData as String: value,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            var add = query
            for (name, value) in attributes { add[name] = value }  // a loop, not a merge closure (Docs/Footprint.md)
            status = SecItemAdd(add as CFDictionary, nil)
        }
        guard status == errSecSuccess else {
            logger.write(.error, "keychain write of \(key.account) failed (OSStatus \(status))")
            throw ReceptionError.secureStorageUnavailable
        }
    }

    @_optimize(size) public func delete(_ key: SecureStoreKey) throws(ReceptionError) {
        let status = SecItemDelete(baseQuery(accountName(key)) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            logger.write(.error, "keychain delete of \(key.account) failed (OSStatus \(status))")
            throw ReceptionError.secureStorageUnavailable
        }
    }

    @_optimize(size) public func deleteAll(namespace: String) throws(ReceptionError) {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecReturnAttributes as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return }
        guard status == errSecSuccess, let items = result as? [[String: Any]] else {
            logger.write(.error, "keychain listing failed (OSStatus \(status))")
            throw ReceptionError.secureStorageUnavailable
        }
        query.removeValue(forKey: kSecReturnAttributes as String)
        query.removeValue(forKey: kSecMatchLimit as String)
        let prefix = namespace + "."
        for item in items {
            guard let account = item[kSecAttrAccount as String] as? String, account.hasPrefix(prefix) else { continue }
            try delete(SecureStoreKey(namespace: namespace, account: String(account.dropFirst(prefix.count))))
        }
    }
}
#endif
