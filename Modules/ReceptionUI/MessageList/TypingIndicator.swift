#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// "Typing…" while a teammate types: dots in a team bubble, animated unless Reduce Motion is on, and the text.
    struct TypingIndicator: View {
        let text: String
        /// Lines up with team bubbles when team photos keep an avatar column (the same width as the rows').
        let reservesAvatarColumn: Bool

        @Environment(\.chatAppearance) private var appearance
        @Environment(\.accessibilityReduceMotion) private var reduceMotion
        @ScaledMetric(relativeTo: .body) private var avatarSize: CGFloat = 28

        @_optimize(size) var body: some View {
            HStack(spacing: 8) { content }
                .frame(maxWidth: .infinity, alignment: .leading)
                .accessibilityElement(children: .combine)
        }

        // A builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private var content: some View {
            if reservesAvatarColumn {
                Color.clear.frame(width: avatarSize, height: 1).accessibilityHidden(true)
            }
            Image(systemName: "ellipsis")
                .fontWeight(.bold)
                .symbolEffect(.variableColor.iterative, options: .repeating, isActive: !reduceMotion)
                .foregroundStyle(appearance.colors.incomingTextColor)
                .padding(horizontal: 14, vertical: 12)
                .background(appearance.colors.incomingColor, in: Capsule())
                .accessibilityHidden(true)
            Text(verbatim: text)
                .chatFont(.footnote, secondary: true)
        }
    }
#endif
