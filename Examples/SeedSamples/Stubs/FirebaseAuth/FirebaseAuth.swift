// A stand-in for Firebase Auth (see ../README.md): only what seed 000's Firebase sample uses.
import Foundation

/// A signed-in Firebase user.
public final class User: Sendable {
    /// The user's Firebase ID.
    public let uid: String

    init(uid: String) {
        self.uid = uid
    }
}

/// The Firebase Auth entry point.
public final class Auth: Sendable {
    private static let shared = Auth()

    /// The default app's instance.
    public static func auth() -> Auth { shared }

    /// The signed-in user; a stub has none.
    public var currentUser: User? { nil }
}
