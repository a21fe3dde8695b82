#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The send arrow, in the accent colour, enabled when the composer can send.
    struct SendButton: View {
        let isEnabled: Bool
        let label: String
        let model: ChatModel

        @Environment(\.chatAppearance) private var appearance
        @ScaledMetric(relativeTo: .body) private var iconSize: CGFloat = 30

        var body: some View {
            Button {
                Task { await model.send() }
            } label: {
                Image(systemName: "arrow.up.circle.fill")
                    .resizable()
                    .scaledToFit()
                    .frame(width: iconSize, height: iconSize)
                    .frame(minWidth: 44, minHeight: 44)
                    .contentShape(Rectangle())
            }
            .buttonStyle(.borderless)
            .tint(appearance.colors.accentColor)
            .disabled(!isEnabled)
            .accessibilityLabel(label)
        }
    }
#endif
