import Observation
import ReceptionKit

/// Deletes this device's support conversations and images (seed 000, "Delete support data"). The session is kept
/// when the deletion fails, so the person can retry; it is never replaced by `logout()`.
@MainActor @Observable
final class SupportDeletionModel {
    private(set) var isDeleting = false
    private(set) var completed = false
    private(set) var errorMessage: String?

    /// Returns whether the deletion completed (the SDK then reset itself as a logout does).
    @discardableResult
    func delete() async -> Bool {
        guard !isDeleting, !completed else { return completed }
        isDeleting = true
        errorMessage = nil
        defer { isDeleting = false }
        do {
            try await Reception.shared.deleteData()
            completed = true
        } catch {
            // Every error deleteData() throws is a ReceptionError (seed 000, "Handle ReceptionError").
            errorMessage = Self.message(for: (error as? ReceptionError)?.code)
        }
        return completed
    }

    private static func message(for code: String?) -> String {
        switch code {
        case "delete_failed": "Some support images could not be deleted. Please retry."
        case "connection_failed": "Could not reach support. Check your connection and retry."
        default: "Support deletion could not finish. Please retry."
        }
    }
}
