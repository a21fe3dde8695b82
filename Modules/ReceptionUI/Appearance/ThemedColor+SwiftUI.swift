#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI
    import UIKit

    extension AppearanceColor {
        /// The sRGB colour as UIKit draws it.
        @_optimize(size) var uiColor: UIColor {
            UIColor(red: CGFloat(red) / 255, green: CGFloat(green) / 255, blue: CGFloat(blue) / 255, alpha: 1)
        }
    }

    extension ThemedColor {
        /// A colour that resolves against the environment it is drawn in: `dark` under the dark colour scheme,
        /// `light` otherwise. The chat's colour-scheme override (`ChatColorScheme`) changes that environment, so the
        /// override reaches every themed colour without a special case.
        @inline(never) @_optimize(size) var color: Color {
            let light = light.uiColor
            let dark = dark.uiColor
            return Color(uiColor: UIColor { traits in traits.userInterfaceStyle == .dark ? dark : light })
        }
    }

    extension ChatAppearance.Colors {
        /// Own bubbles, the send arrow, links and controls.
        @_optimize(size) var accentColor: Color { accent.color }
        /// Text and icons on the accent colour.
        @_optimize(size) var onAccentColor: Color { onAccent.color }
        /// The transcript's background.
        @_optimize(size) var backgroundColor: Color { background.color }
        /// Team bubbles and the placeholder avatar.
        @_optimize(size) var incomingColor: Color { incoming.color }
        /// Text in team bubbles.
        @_optimize(size) var incomingTextColor: Color { incomingText.color }
    }
#endif
