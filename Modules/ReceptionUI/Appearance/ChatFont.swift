#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI
    import UIKit

    extension ChatAppearance {
        /// The chat's font for a text style: the host's font (`customFontName`) scaled with Dynamic Type relative to
        /// `style`, else the system font in the appearance's design. Never a fixed size, so every text follows the
        /// person's text size.
        @_optimize(size) func font(_ style: Font.TextStyle) -> Font {
            if let name = customFontName, !name.isEmpty {
                return .custom(name, size: Self.standardPointSize(style), relativeTo: style)
            }
            return .system(style, design: fontDesign.design)
        }

        /// The size of `style` at the default text size: what `Font.custom(_:size:relativeTo:)` scales from.
        @_optimize(size) private static func standardPointSize(_ style: Font.TextStyle) -> CGFloat {
            let traits = UITraitCollection(preferredContentSizeCategory: .large)
            return UIFont.preferredFont(forTextStyle: style.uiTextStyle, compatibleWith: traits).pointSize
        }
    }

    extension ChatAppearance.FontDesign {
        /// The SwiftUI design.
        @_optimize(size) var design: Font.Design {
            switch self {
            case .standard: .default
            case .rounded: .rounded
            case .serif: .serif
            case .monospaced: .monospaced
            }
        }
    }

    extension Font.TextStyle {
        /// The matching UIKit text style.
        @_optimize(size) fileprivate var uiTextStyle: UIFont.TextStyle {
            switch self {
            case .largeTitle: .largeTitle
            case .title: .title1
            case .title2: .title2
            case .title3: .title3
            case .headline: .headline
            case .subheadline: .subheadline
            case .body: .body
            case .callout: .callout
            case .footnote: .footnote
            case .caption: .caption1
            case .caption2: .caption2
            @unknown default: .body
            }
        }
    }

    /// Sets the chat's font for a text style from the appearance in the environment, at a weight when given, and the
    /// secondary foreground style when asked: one modifier where two or three would nest (Docs/Footprint.md).
    private struct ChatFont: ViewModifier {
        let style: Font.TextStyle
        let weight: Font.Weight?
        let secondary: Bool
        @Environment(\.chatAppearance) private var appearance

        @_optimize(size) func body(content: Content) -> some View {
            let font = appearance.font(style)
            let weighted = weight.map { font.weight($0) } ?? font
            if secondary {
                content.font(weighted).foregroundStyle(.secondary)
            } else {
                content.font(weighted)
            }
        }
    }

    extension View {
        /// The chat's font (the appearance's design or custom font) for `style`, scaled with Dynamic Type, at
        /// `weight` when given; `secondary` also draws in the secondary foreground style.
        @_optimize(size)
        func chatFont(_ style: Font.TextStyle, weight: Font.Weight? = nil, secondary: Bool = false) -> some View {
            modifier(ChatFont(style: style, weight: weight, secondary: secondary))
        }
    }
#endif
