import Foundation

/// A length rule counted in UTF-16 code units, the unit every ReceptionKit limit uses (spec conventions: an emoji
/// outside the BMP counts 2). One helper, so the composer, the identity setters, the cache and the emulator's
/// mirror of the rules all count the same way.
public struct UTF16Limit: Sendable, Hashable {
    /// The allowed lengths, inclusive.
    public let allowed: ClosedRange<Int>

    /// A limit of `allowed` UTF-16 units.
    @_optimize(size) public init(_ allowed: ClosedRange<Int>) { self.allowed = allowed }

    /// A limit of at most `maximum` units (empty allowed).
    @_optimize(size) public init(atMost maximum: Int) { self.allowed = 0...maximum }

    /// The largest length allowed.
    @_optimize(size) public var maximum: Int { allowed.upperBound }

    /// Whether `text` has an allowed length.
    @_optimize(size) public func admits(_ text: some StringProtocol) -> Bool { allowed.contains(text.utf16.count) }

    /// `text` when admitted, otherwise `nil` (values are dropped, never truncated: spec 7.14.1).
    @inline(never) @_optimize(size) public func admitted<S: StringProtocol>(_ text: S?) -> S? {
        guard let text, admits(text) else { return nil }
        return text
    }
}

extension StringProtocol {
    /// The length in UTF-16 code units, the unit of every ReceptionKit limit.
    @_optimize(size) public var utf16Length: Int { utf16.count }
}

/// Every numeric limit of the documents and the spec, in one place.
public enum Limits {
    /// Seed 001 / spec 7.8.1: a message's trimmed text, 4,000 UTF-16 units (longer drafts are not shortened).
    public static let messageText = UTF16Limit(atMost: 4000)
    /// Photos per message.
    public static let photosPerMessage = 5
    /// Spec 7.14.1: the unverified user ID.
    public static let externalUserId = UTF16Limit(atMost: 255)
    /// Spec 7.14.1: the display name.
    public static let name = UTF16Limit(atMost: 200)
    /// Spec 7.14.1: the email address.
    public static let email = UTF16Limit(atMost: 254)
    /// Spec 7.14.2: more entries than this and no metadata is sent at all.
    public static let metadataEntries = 20
    /// Spec 7.14.2: a metadata key.
    public static let metadataKey = UTF16Limit(1...64)
    /// Spec 7.14.2: a metadata value.
    public static let metadataValue = UTF16Limit(atMost: 512)
    /// Spec 7.14.3: an identity token.
    public static let identityToken = UTF16Limit(atMost: 4096)
    /// Spec 7.14.3: a token's `user_id` claim as a string.
    public static let verifiedUserId = UTF16Limit(1...255)
    /// Spec 7.21: a paywall ID (also `^[A-Za-z0-9_.-]+$`).
    public static let paywallId = UTF16Limit(1...64)
    /// Spec 7.21: a paywall title.
    public static let paywallTitle = UTF16Limit(1...60)
    /// Spec 7.21: registered paywalls kept.
    public static let paywalls = 20
    /// Spec 6.3 / 5.2: the longest wait a `Retry-After` can impose, one day.
    public static let maximumRetryAfterSeconds = 86_400
    /// Spec 1.6: the largest sequence number the bounded-read logic accepts (2^53 − 1).
    public static let maximumSafeSequence: Int64 = 9_007_199_254_740_991

    /// Spec 7.8.1: the text as it is sent, trimmed of leading and trailing whitespace and newlines.
    @inline(never) @_optimize(size) public static func trimmedMessageText(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Spec 7.14.2: the metadata that is sent. More than 20 entries sends none; otherwise entries whose key or value
    /// breaks its limit are dropped and the rest kept. `dropped` lists the dropped keys' count for the log (keys
    /// and values themselves are never logged).
    @inline(never) @_optimize(size)
    public static func sanitizedMetadata(_ metadata: [String: String]) -> (kept: [String: String], dropped: Int) {
        guard metadata.count <= metadataEntries else { return ([:], metadata.count) }
        // A loop, not a `filter` closure (Docs/Footprint.md, "Loops for one-off closures").
        var kept: [String: String] = [:]
        for (key, value) in metadata where metadataKey.admits(key) && metadataValue.admits(value) { kept[key] = value }
        return (kept, metadata.count - kept.count)
    }
}
