#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    extension ChatAppearance.ColorScheme {
        /// The scheme the chat forces; `nil` follows the system.
        @_optimize(size) var forced: ColorScheme? {
            switch self {
            case .system: nil
            case .light: .light
            case .dark: .dark
            }
        }
    }

    /// Applies the appearance's light or dark choice. Embedded, it changes only the chat's own environment (the
    /// host's screens keep theirs); in the SDK sheet it is also the sheet's preferred scheme, so its bars and
    /// keyboard follow.
    struct ChatColorScheme: ViewModifier {
        let scheme: ChatAppearance.ColorScheme
        let placement: ChatPlacement
        @Environment(\.colorScheme) private var inherited

        @_optimize(size) func body(content: Content) -> some View {
            // One structure for every scheme, so switching the appearance never rebuilds the chat (and loses its
            // scroll position); the placement never changes for a screen.
            switch placement {
            case .embedded:
                content.environment(\.colorScheme, scheme.forced ?? inherited)
            case .sheet:
                content
                    .environment(\.colorScheme, scheme.forced ?? inherited)
                    .preferredColorScheme(scheme.forced)
            }
        }
    }
#endif
