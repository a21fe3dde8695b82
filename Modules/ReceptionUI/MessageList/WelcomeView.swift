#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// What an empty chat shows: the welcome icon, title and text, each as the presentation (and the appearance's
    /// hidden elements) allow.
    struct WelcomeView: View {
        let title: String?
        let text: String?
        let showsIcon: Bool

        /// The empty state of a chat.
        @_optimize(size) init(state: ChatPresentation.EmptyState) {
            title = state.title
            text = state.text
            showsIcon = state.showsIcon
        }

        @Environment(\.chatAppearance) private var appearance

        @_optimize(size) var body: some View {
            VStack(spacing: 12) { content }
                .multilineTextAlignment(.center)
                .padding(24)
                .frame(maxWidth: .infinity)
        }

        // A builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private var content: some View {
            if showsIcon {
                WelcomeIconView(icon: appearance.welcomeIcon)
                    .padding(.bottom, 4)
            }
            if let title {
                Text(verbatim: title)
                    .chatFont(.title2, weight: .semibold)
                    .accessibilityAddTraits(.isHeader)
            }
            if let text {
                Text(verbatim: text)
                    .chatFont(.body, secondary: true)
            }
        }
    }

    /// The appearance's welcome icon: its image, else its symbol in its colour (the accent colour by default), at
    /// its size (scaled with Dynamic Type, up to half as large again), corner radius and offset.
    private struct WelcomeIconView: View {
        let icon: ChatAppearance.WelcomeIcon

        @Environment(\.chatAppearance) private var appearance
        @ScaledMetric(relativeTo: .title) private var scale: CGFloat = 1

        /// A decorative icon should not crowd out the welcome text at the largest text sizes.
        private static let maximumScale: CGFloat = 1.5

        @_optimize(size) var body: some View {
            let size = icon.size * min(scale, Self.maximumScale)
            return Group { picture }
                .frame(width: size, height: size)
                .clipShape(RoundedRectangle(cornerRadius: icon.cornerRadius, style: .continuous))
                .offset(x: icon.offset.x, y: icon.offset.y)
                .accessibilityHidden(true)
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private var picture: some View {
            if let image = icon.image {
                AppearanceImageView(image: image)
            } else if let symbol = icon.symbol, !symbol.isEmpty {
                Image(systemName: symbol)
                    .resizable()
                    .scaledToFit()
                    .foregroundStyle(icon.color?.color ?? appearance.colors.accentColor)
            }
        }
    }
#endif
