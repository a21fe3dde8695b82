#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The button of a review or paywall card (seed 001): the presentation's title, styled with the appearance's
    /// card look (colours, icon, trailing accessory, each hideable). Tapping it is the host's: the App Store link,
    /// or the app's `onPaywall`.
    struct CardButton: View {
        let card: MessageRow.Card
        let rowID: String
        let host: any ChatScreenHost

        @Environment(\.chatAppearance) private var appearance
        /// Scales the appearance's icon size (points at the default text size) with Dynamic Type.
        @ScaledMetric(relativeTo: .body) private var iconScale: CGFloat = 1

        @_optimize(size) private var isReview: Bool { card.action == .review }
        @_optimize(size)
        private var look: ChatAppearance.Card { isReview ? appearance.reviewCard : appearance.offerCard }
        @_optimize(size) private var showsIcon: Bool { appearance.shows(isReview ? .reviewIcon : .offerIcon) }
        @_optimize(size)
        private var showsAccessory: Bool { appearance.shows(isReview ? .reviewAccessory : .offerAccessory) }

        @_optimize(size) var body: some View {
            let look = look
            let iconSize = look.iconSize * iconScale
            return Button { [host, rowID] in host.tapCard(messageID: rowID) } label: { label(look, iconSize: iconSize) }
                .buttonStyle(.plain)
                // Spec 4.2: an offer that is no longer available shows its button disabled, dimmed.
                .disabled(!card.isEnabled)
                .opacity(card.isEnabled ? 1 : 0.5)
                .accessibilityLabel(card.buttonTitle)
                // Issue 50: "Tap View offer" with Voice Control; Full Keyboard Access focuses it like any button.
                .accessibilityInputLabels([card.buttonTitle])
        }

        // Each builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @inline(never) @_optimize(size)
        private func label(_ look: ChatAppearance.Card, iconSize: CGFloat) -> some View {
            HStack(spacing: 10) { labelParts(look, iconSize: iconSize) }
                .foregroundStyle(look.buttonText?.color ?? appearance.colors.onAccentColor)
                .padding(horizontal: 14, vertical: 10)
                .frame(minWidth: 44, minHeight: 44)
                .background(
                    look.button?.color ?? appearance.colors.accentColor,
                    in: RoundedRectangle(cornerRadius: 14, style: .continuous))
                .contentShape(RoundedRectangle(cornerRadius: 14, style: .continuous))
        }

        @ViewBuilder
        @inline(never) @_optimize(size)
        private func labelParts(_ look: ChatAppearance.Card, iconSize: CGFloat) -> some View {
            if showsIcon {
                CardSymbol(image: look.iconImage, symbol: look.icon, size: iconSize)
            }
            Text(verbatim: card.buttonTitle)
                .chatFont(.body, weight: .semibold)
                .multilineTextAlignment(.leading)
            if showsAccessory {
                CardSymbol(image: look.accessoryImage, symbol: look.accessory, size: iconSize)
            }
        }
    }

    /// A card's icon or accessory: its image when set, else its symbol, else nothing.
    private struct CardSymbol: View {
        let image: AppearanceImage?
        let symbol: String?
        let size: CGFloat

        @_optimize(size) var body: some View {
            if let image {
                AppearanceImageView(image: image)
                    .frame(width: size, height: size)
            } else if let symbol, !symbol.isEmpty {
                Image(systemName: symbol)
                    .resizable()
                    .scaledToFit()
                    .frame(width: size, height: size)
                    .accessibilityHidden(true)
            }
        }
    }
#endif
