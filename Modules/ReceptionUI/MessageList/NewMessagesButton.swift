#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// "3 new messages" over the bottom of the transcript while the reader is scrolled up and team replies arrived
    /// (`TranscriptFollowing` decides when and what it says): a capsule in the accent colour, at least 44 points
    /// tall, read by VoiceOver with its hint. Tapping it scrolls down to the newest message.
    struct NewMessagesButton: View {
        let control: TranscriptFollowing.NewMessagesControl
        let action: () -> Void

        @Environment(\.chatAppearance) private var appearance

        @_optimize(size) var body: some View {
            Button(action: action) { Self.label(control.title) }
                .buttonStyle(.plain)
                .foregroundStyle(appearance.colors.accentColor)
                .accessibilityLabel(control.title)
                .accessibilityHint(control.accessibilityHint)
        }

        // Each builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @inline(never) @_optimize(size) private static func label(_ title: String) -> some View {
            Label { Text(verbatim: title) } icon: { Image(systemName: "arrow.down") }
                .chatFont(.footnote, weight: .semibold)
                .padding(horizontal: 14, vertical: 8)
                .background(.regularMaterial, in: Capsule())
                .overlay { border }
                .frame(minHeight: 44)
                .contentShape(Capsule())
        }

        @inline(never) @_optimize(size) private static var border: some View {
            Capsule().strokeBorder(.separator, lineWidth: 0.5)
        }
    }
#endif
