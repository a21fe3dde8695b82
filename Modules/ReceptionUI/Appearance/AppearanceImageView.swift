#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// An image of the appearance (welcome icon, close control, card icons), fitted into the frame its caller
    /// gives: one from the host app's asset catalogue, or one uploaded in the dashboard, loaded without
    /// Reception's headers (spec 3.17). Decorative: callers label the control it sits in.
    struct AppearanceImageView: View {
        let image: AppearanceImage

        @_optimize(size) var body: some View {
            switch image {
            case .asset(let name):
                Image(name)
                    .resizable()
                    .scaledToFit()
                    .accessibilityHidden(true)
            case .remote(let url):
                AsyncImage(url: url) { phase in Self.loaded(phase) }
                    .accessibilityHidden(true)
            }
        }

        // A builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private static func loaded(_ phase: AsyncImagePhase) -> some View {
            if let image = phase.image {
                image.resizable().scaledToFit()
            } else {
                Color.clear
            }
        }
    }
#endif
