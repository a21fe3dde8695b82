import SwiftUI

/// Confirmation, progress, failure and retry of deleting this device's support data (seed 000). The app account
/// is unchanged; once the deletion completed, the account's identity is staged again for the next chat.
struct DeleteSupportDataView: View {
    @Environment(AccountModel.self) private var account
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
                        Task { await delete() }
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
                Task { await delete() }
            }
            Button("Cancel", role: .cancel) { }
        } message: {
            Text("This removes this registration's support conversations and images. It cannot be undone.")
                + Text(" Other devices and your app account are unchanged.")
        }
        .interactiveDismissDisabled(model.isDeleting)
    }

    private func delete() async {
        if await model.delete() {
            await account.supportDataDeleted()
        }
    }
}
