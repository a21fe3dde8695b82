import ReceptionKit
import SwiftUI

/// The app's own content, with a Help button that presents the SDK's chat sheet.
struct HomeView: View {
    @Environment(AccountModel.self) private var account

    var body: some View {
        NavigationStack {
            List {
                if !Reception.shared.isConfigured {
                    Section {
                        Label("Not configured: set the emulator's App ID (see the README).",
                              systemImage: "exclamationmark.triangle")
                            .foregroundStyle(.secondary)
                    }
                }
                Section {
                    Text(greeting)
                        .font(.headline)
                    Text("Questions about your order? Our team answers in the app.")
                        .foregroundStyle(.secondary)
                }
                Section {
                    HelpButton()
                }
            }
            .navigationTitle("Reception Example")
        }
    }

    private var greeting: String {
        if let name = account.user?.name, !name.isEmpty { return "Hello, \(name)" }
        return "Hello"
    }
}

/// Opens the SDK sheet (`openChat()`), with the unread count beside its title. It is a different entry point than
/// the Support tab: the sheet is presented over the current screen.
struct HelpButton: View {
    var body: some View {
        Button {
            Reception.shared.openChat()
        } label: {
            HStack {
                Label("Help", systemImage: "questionmark.bubble")
                Spacer()
                if Reception.shared.unreadCount > 0 {
                    Text(Reception.shared.unreadCount, format: .number)
                        .monospacedDigit()
                        .foregroundStyle(.secondary)
                }
            }
        }
        .accessibilityLabel("Help")
        .accessibilityValue(Text("\(Reception.shared.unreadCount) unread messages"))
    }
}
