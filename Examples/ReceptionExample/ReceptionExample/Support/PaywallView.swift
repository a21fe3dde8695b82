import ReceptionKit
import SwiftUI

/// The app's purchase screen, opened by an offer card in the support chat (seed 001 "Paywall cards"). The SDK
/// presents it over the chat sheet (`Reception.shared.present`), so it is never refused under the sheet; dismissing
/// it returns to the chat.
struct PaywallView: View {
    let paywallID: String

    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            VStack(spacing: 16) {
                Image(systemName: "star.circle.fill")
                    .font(.system(size: 56))
                    .foregroundStyle(.tint)
                    .accessibilityHidden(true)
                Text("Example Pro")
                    .font(.title.bold())
                Text("Everything in the example app, unlocked. This sample does not sell anything: a real app shows its StoreKit products here.")
                    .font(.body)
                    .multilineTextAlignment(.center)
                    .foregroundStyle(.secondary)
                Button("Not now") { dismiss() }
                    .buttonStyle(.borderedProminent)
            }
            .padding()
            .navigationTitle(paywallID)
            .navigationBarTitleDisplayMode(.inline)
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Close") { dismiss() }
                }
            }
        }
    }
}

extension ReceptionExampleApp {
    /// The paywalls an agent may offer from the dashboard, and where an offer card's tap goes: the app's paywall,
    /// presented over the chat by the SDK.
    @MainActor
    static func registerPaywalls() {
        Reception.shared.paywalls = [ReceptionPaywall(id: "pro", title: "Example Pro")]
        Reception.shared.onPaywall = { id in
            Reception.shared.present { PaywallView(paywallID: id) }
        }
    }
}
