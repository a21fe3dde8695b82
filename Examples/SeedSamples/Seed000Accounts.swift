// Seed 000, "Users & accounts" (/work/shared/seeds/000_e1b4dee092ba621b.txt): every Swift sample of the document,
// pasted as an integrator would, in the document's order. Each sample's code is the seed's, unchanged; a sample that
// is a fragment sits in a small function named after its section, and what the document leaves to the host (its
// API client, its signed-in user) is SCAFFOLDING, marked as such. The server samples (JavaScript, TypeScript,
// Python, PHP, Ruby, Go) are not Swift and are left out.
import Foundation
import ReceptionKit

// MARK: - SCAFFOLDING (not from the seed)

/// SCAFFOLDING: the host's signed-in user, as `user` in "Connect your sign-in".
struct HostUser {
    var id: String
    var name: String?
    var email: String?
}

/// SCAFFOLDING: "`YourAPI` stands for your existing API client and `signedInUserId` for its current user", with a
/// fake call to the host's authenticated token endpoint (`GET /me/reception-token`).
@MainActor
final class YourAPI {
    var signedInUserId: String? = "user-1"

    func receptionToken() async throws -> String {
        try await Task.sleep(for: .milliseconds(50))  // stands for the request to the host's own backend
        return "eyJhbGciOiJIUzI1NiJ9.e30.placeholder"
    }
}

// MARK: - Connect your sign-in (#connect)

// Seed 000, "Connect your sign-in", first sample (a statement; `user` is the host's, see HostUser).
@MainActor
func seed000ConnectSignIn(user: HostUser) {
    Reception.shared.identify(userId: user.id, name: user.name, email: user.email)
}

// Seed 000, "Connect your sign-in", second sample (a statement).
@MainActor
func seed000SignOut() {
    Reception.shared.logout()
}

// Seed 000, "Connect your sign-in", third sample (a statement).
@MainActor
func seed000DeleteAccount() async throws {
    try await Reception.shared.deleteData()
}

// MARK: - Verified users: Pass the token to ReceptionKit (#pass-token)

// Seed 000, "Pass the token to ReceptionKit", first sample (complete; YourAPI is scaffolding above).
import ReceptionKit

@MainActor
func connectSupportIdentity(api: YourAPI, userId: String) async {
    do {
        let token = try await api.receptionToken() // Your authenticated endpoint.
        guard api.signedInUserId == userId else { return } // Signed out or switched meanwhile.
        Reception.shared.identify(token: token)
    } catch {
        // Try again on the next launch; the rejected token does not change existing verification.
    }
}

// Seed 000, "Pass the token to ReceptionKit", the Firebase sample. It needs the Firebase SDK, which this sample app
// does not link: ios-check compiles it against the stand-ins in Stubs/ (FirebaseAuth, FirebaseFunctions); an app
// that links Firebase compiles it unchanged.
#if canImport(FirebaseAuth) && canImport(FirebaseFunctions)
import FirebaseAuth
import FirebaseFunctions
import ReceptionKit

@MainActor
func connectSupportIdentity() async {
    struct Response: Decodable { let token: String }
    guard let uid = Auth.auth().currentUser?.uid else { return }
    let receptionToken: Callable<[String: String], Response> = Functions.functions().httpsCallable("receptionToken")
    // A sign-out or account switch while waiting must not attach the previous user's token.
    guard let response = try? await receptionToken.call([:]), Auth.auth().currentUser?.uid == uid else { return }
    Reception.shared.identify(token: response.token)
}
#endif

// Seed 000, "Pass the token to ReceptionKit", the Supabase sample. It needs the Supabase SDK, which this sample app
// does not link: ios-check compiles it against the stand-in in Stubs/ (Supabase); an app that links supabase-swift
// compiles it unchanged.
#if canImport(Supabase)
import Supabase
import ReceptionKit

@MainActor
func connectSupportIdentity(supabase: SupabaseClient) async {
    struct Response: Decodable { let token: String }
    guard let userId = supabase.auth.currentUser?.id else { return }
    // A sign-out or account switch while waiting must not attach the previous user's token.
    guard let response: Response = try? await supabase.functions.invoke("reception-token"),
          supabase.auth.currentUser?.id == userId else { return }
    Reception.shared.identify(token: response.token)
}
#endif

// MARK: - When a token is rejected (#rejected-token)

// Seed 000, "When a token is rejected" (a statement; `api` is the host's API client, see YourAPI).
@MainActor
func seed000RefreshRejectedToken(api: YourAPI) {
    Reception.shared.onEvent = { event in
        if case .identityRejected(let error) = event, error.code == "identity_token_expired",
           let userId = api.signedInUserId {
            Task { await connectSupportIdentity(api: api, userId: userId) }
        }
    }
}

// MARK: - Customer details: Reception.shared.setMetadata(_:) (#setmetadata)

// Seed 000, "Reception.shared.setMetadata(_:)", first sample: the SDK's public declaration,
//     @MainActor
//     public func setMetadata(_ metadata: [String: String])
// which is not host code. SCAFFOLDING: the host refers to the method with exactly that type.
@MainActor
func seed000SetMetadataDeclaration() {
    let setMetadata: @MainActor ([String: String]) -> Void = Reception.shared.setMetadata
    _ = setMetadata
}

// Seed 000, "Reception.shared.setMetadata(_:)", second sample (a statement).
@MainActor
func seed000SubscriptionUpdated() {
    Reception.shared.setMetadata([
        "plan": "pro",
        "provider": "App Store",
        "subscription_status": "active"
    ])
}

// MARK: - Replace or clear metadata (#clear-metadata)

// Seed 000, "Replace or clear metadata", first sample (a statement).
@MainActor
func seed000ReplaceMetadata() {
    Reception.shared.setMetadata(["plan": "free"])
}

// Seed 000, "Replace or clear metadata", second sample (a statement).
@MainActor
func seed000ClearMetadata() {
    Reception.shared.setMetadata([:])
}

// MARK: - Sign-out and account switches: Switch accounts (#switch-accounts)

// Seed 000, "Switch accounts" (complete).
import ReceptionKit

@MainActor
func switchSupportAccount(
    userId: String,
    name: String?,
    email: String?,
    metadata: [String: String]
) {
    Reception.shared.logout()
    Reception.shared.identify(userId: userId, name: name, email: email)
    Reception.shared.setMetadata(metadata)
}

// MARK: - Delete support data: Call the deletion API (#call-the-deletion-api)

// Seed 000, "Call the deletion API": the SDK's public declaration on the main-actor `Reception` type,
//     public func deleteData() async throws
// which is not host code. SCAFFOLDING: the host refers to the method with exactly that type.
@MainActor
func seed000DeleteDataDeclaration() {
    let deleteData: @MainActor () async throws -> Void = Reception.shared.deleteData
    _ = deleteData
}

// MARK: - Show confirmation, progress, and retry (#show-confirmation-progress-and-retry)

// Seed 000, "Show confirmation, progress, and retry" (complete: the model and the view).
import Observation
import ReceptionKit
import SwiftUI

@MainActor @Observable
final class SupportDeletionModel {
    private(set) var isDeleting = false
    private(set) var completed = false
    private(set) var errorMessage: String?

    func delete() async {
        guard !isDeleting, !completed else { return }
        isDeleting = true
        errorMessage = nil
        defer { isDeleting = false }

        do {
            try await Reception.shared.deleteData()
            completed = true
        } catch let error as ReceptionError {
            if error.code == "delete_failed" {
                errorMessage = "Some support images could not be deleted. Please retry."
            } else if error.code == "connection_failed" {
                errorMessage = "Could not reach support. Check your connection and retry."
            } else {
                errorMessage = "Support deletion could not finish. Please retry."
            }
        } catch {
            errorMessage = "Support deletion could not finish. Please retry."
        }
    }
}

@MainActor
struct DeleteSupportDataView: View {
    @State private var model = SupportDeletionModel()
    @State private var showsConfirmation = false

    var body: some View {
        Form {
            Section {
                Text("Delete support conversations and images for this device registration.")
                if model.completed {
                    Text("Support deletion flow completed for this device. Your app account is unchanged.")
                } else {
                    Button("Delete support data", role: .destructive) {
                        showsConfirmation = true
                    }
                    .disabled(model.isDeleting)
                }
                if model.isDeleting {
                    ProgressView("Deleting support data…")
                }
                if let errorMessage = model.errorMessage {
                    Text(errorMessage)
                        .foregroundStyle(.red)
                        .accessibilityLabel("Deletion failed. " + errorMessage)
                    Button("Retry deletion") {
                        Task { await model.delete() }
                    }
                    .disabled(model.isDeleting)
                }
            }
        }
        .navigationTitle("Support data")
        .confirmationDialog("Delete support data for this device?",
                            isPresented: $showsConfirmation,
                            titleVisibility: .visible) {
            Button("Delete support data", role: .destructive) {
                Task { await model.delete() }
            }
            Button("Cancel", role: .cancel) { }
        } message: {
            Text("This removes this registration's support conversations and images. It cannot be undone. Other devices and your app account are unchanged.")
        }
        .interactiveDismissDisabled(model.isDeleting)
    }
}

// MARK: - Declarations the prose states (SCAFFOLDING: checks of what the text promises, not samples)

// Seed 000, "Identity fields": "`userId` is required at the call site; `name` and `email` default to `nil`";
// "Handle ReceptionError": "`code` is a read-only `String` ... `status` is a read-only `Int`"; "Observe completion":
// the `.dataDeleted` event.
@MainActor
func seed000ProseDeclarations(error: ReceptionError, event: ReceptionEvent) {
    Reception.shared.identify(userId: "user-1")
    let code: String = error.code
    let status: Int = error.status
    if case .dataDeleted = event { _ = (code, status) }
}
