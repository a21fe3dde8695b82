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

        @inline(never) @_optimize(size) var body: some View {
            Button { [model] in model.start(.send) } label: {
                ComposerIcon(systemName: "arrow.up.circle.fill", size: ComposerPresentation.iconSize(scaled: iconSize))
            }
            // A hardware keyboard sends with ⌘↩ (Return alone starts a new line in the field).
            .keyboardShortcut(.return, modifiers: .command)
            .modifier(ChatControl(isEnabled: isEnabled, label: label, tint: appearance.colors.accentColor))
        }
    }

    /// A composer control's symbol at `size` points, in a touch target of at least 44 × 44 points.
    struct ComposerIcon: View {
        let systemName: String
        let size: CGFloat

        @inline(never) @_optimize(size) var body: some View {
            Image(systemName: systemName)
                .resizable()
                .scaledToFit()
                .frame(width: size, height: size)
                .minimumTapTarget()
        }
    }

    /// How the chat's buttons look and read (the composer's, the status line's Retry): borderless in `tint`,
    /// disabled unless `isEnabled`, labelled.
    struct ChatControl: ViewModifier {
        let isEnabled: Bool
        let label: String
        let tint: Color

        @inline(never) @_optimize(size) func body(content: Content) -> some View {
            content
                .buttonStyle(.borderless)
                .tint(tint)
                .disabled(!isEnabled)
                .accessibilityLabel(label)
        }
    }
#endif
