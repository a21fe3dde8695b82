import ReceptionKit
import SwiftUI

/// The Account tab: sign-in when signed out; otherwise who support sees, the plan, notifications, support data and
/// sign-out.
struct AccountView: View {
    @Environment(AccountModel.self) private var account

    var body: some View {
        NavigationStack {
            if let user = account.user {
                SignedInAccount(user: user)
            } else {
                SignInView()
            }
        }
    }
}

private struct SignedInAccount: View {
    @Environment(AccountModel.self) private var account
    let user: ExampleUser

    var body: some View {
        Form {
            Section("Signed in") {
                LabeledContent("User ID", value: user.id)
                LabeledContent("Name", value: user.name ?? "—")
                LabeledContent("Email", value: user.email ?? "—")
                LabeledContent("Support sees", value: supportIdentity)
                if account.isFetchingToken {
                    ProgressView("Fetching the identity token…")
                }
                if let error = account.tokenError {
                    Text(error)
                        .foregroundStyle(.red)
                        .accessibilityLabel("Verification failed. " + error)
                }
            }
            Section {
                Picker("Plan", selection: Binding(get: { user.plan }, set: { account.setPlan($0) })) {
                    ForEach(ExampleUser.Plan.allCases) { plan in
                        Text(plan.rawValue.capitalized).tag(plan)
                    }
                }
            } footer: {
                Text("Sent to support as custom fields with setMetadata.")
            }
            Section {
                NotificationsRow()
                NavigationLink("Support data") {
                    DeleteSupportDataView()
                }
            }
            Section {
                Button("Sign Out", role: .destructive) {
                    account.signOut()
                }
            }
        }
        .navigationTitle("Account")
    }

    private var supportIdentity: String {
        switch Reception.shared.identityState {
        case .anonymous: "Guest"
        case .labelled: "Unverified"
        case .verified: "Verified"
        }
    }
}
