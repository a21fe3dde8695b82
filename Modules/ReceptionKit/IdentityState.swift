/// Who support sees, as the host can show it (beyond the reference SDK; seed 003 exposes the same as `authState`
/// and `currentUserId`).
public indirect enum IdentityState: Sendable, Hashable {
    /// No user ID was given: support sees an anonymous device.
    case anonymous
    /// `identify(userId:)` labelled the device with an unverified user ID.
    case labelled(userId: String)
    /// The service verified an identity token for this user ID.
    case verified(userId: String)

    /// The user ID support sees, verified or not.
    @inline(never) @_optimize(size) public var userId: String? {
        switch self {
        case .anonymous: nil
        case .labelled(let id), .verified(let id): id
        }
    }

    /// Hashes the case only; `==` compares the values too, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        switch self {
        case .anonymous: hasher.combine(0)
        case .labelled: hasher.combine(1)
        case .verified: hasher.combine(2)
        }
    }
}
