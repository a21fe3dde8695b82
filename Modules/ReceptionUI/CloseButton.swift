#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The SDK sheet's close control: the appearance's image, else its symbol.
    struct CloseButton: View {
        let label: String
        let action: () -> Void

        @Environment(\.chatAppearance) private var appearance
        @ScaledMetric(relativeTo: .body) private var imageSize: CGFloat = 22

        @_optimize(size) var body: some View {
            Button(action: action) { icon.minimumTapTarget() }
                .tint(appearance.colors.accentColor)
                .accessibilityLabel(label)
        }

        // A builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private var icon: some View {
            if let image = appearance.closeImage {
                AppearanceImageView(image: image)
                    .frame(width: imageSize, height: imageSize)
            } else {
                Image(systemName: appearance.closeIcon.rawValue)
                    .fontWeight(.semibold)
            }
        }
    }
#endif
