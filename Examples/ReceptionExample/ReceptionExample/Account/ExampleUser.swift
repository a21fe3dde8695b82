import Foundation

/// The app's own signed-in user, as a real app's account layer knows it.
struct ExampleUser: Codable, Equatable {
    /// The stable user ID of your account system.
    var id: String
    var name: String?
    var email: String?
    /// Whether the app signs this user in with an identity token from its backend (the token server here).
    var isVerified: Bool
    /// The subscription plan, shown to the support team as a custom field.
    var plan: Plan = .free

    enum Plan: String, Codable, CaseIterable, Identifiable {
        case free, pro
        var id: Self { self }
    }

    /// The complete custom-field dictionary support sees: every call to `setMetadata` replaces all of it.
    var supportMetadata: [String: String] {
        ["plan": plan.rawValue, "signed_in_with": isVerified ? "token" : "labels"]
    }
}
