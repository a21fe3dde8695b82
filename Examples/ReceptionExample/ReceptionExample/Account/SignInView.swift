import SwiftUI

/// The app's sign-in form. It stands for a real sign-in: whatever the person types becomes the signed-in user.
struct SignInView: View {
    @Environment(AccountModel.self) private var account
    @State private var userId = ""
    @State private var name = ""
    @State private var email = ""
    @State private var verified = true
    @State private var isSigningIn = false

    var body: some View {
        Form {
            Section {
                TextField("User ID", text: $userId)
                    .textContentType(.username)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
                TextField("Name", text: $name)
                    .textContentType(.name)
                TextField("Email", text: $email)
                    .textContentType(.emailAddress)
                    .keyboardType(.emailAddress)
                    .textInputAutocapitalization(.never)
                    .autocorrectionDisabled()
            } footer: {
                Text("Name and email are labels your team sees as Unverified.")
            }
            Section {
                Toggle("Verify with the token server", isOn: $verified)
            } footer: {
                Text("A token from your backend (scripts/token-server here) marks the user Verified.")
            }
            Section {
                Button("Sign In") {
                    Task { await signIn() }
                }
                .disabled(trimmed(userId) == nil || isSigningIn)
            }
        }
        .navigationTitle("Sign In")
    }

    private func signIn() async {
        guard let id = trimmed(userId) else { return }
        isSigningIn = true
        defer { isSigningIn = false }
        // Unknown details are passed as nil, never as placeholders.
        await account.signIn(userId: id, name: trimmed(name), email: trimmed(email), verified: verified)
    }

    private func trimmed(_ text: String) -> String? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }
}
