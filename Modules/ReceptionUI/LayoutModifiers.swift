#if canImport(SwiftUI) && canImport(UIKit)
    import SwiftUI

    /// At least 44 by 44 points, the whole frame taking the tap: the size Apple's guidelines ask of a control. One
    /// modifier rather than two at each control keeps each control's view type a level shorter (Docs/Footprint.md).
    private struct MinimumTapTarget: ViewModifier {
        @inline(never) @_optimize(size) func body(content: Content) -> some View {
            content
                .frame(minWidth: 44, minHeight: 44)
                .contentShape(Rectangle())
        }
    }

    extension View {
        /// Makes the view a control of at least 44 by 44 points whose whole frame takes the tap.
        @_optimize(size) func minimumTapTarget() -> some View { modifier(MinimumTapTarget()) }

        /// Pads the leading and trailing edges by `horizontal` and the top and bottom by `vertical` points: one
        /// padding where two would nest.
        @_optimize(size) func padding(horizontal: CGFloat, vertical: CGFloat) -> some View {
            padding(EdgeInsets(top: vertical, leading: horizontal, bottom: vertical, trailing: horizontal))
        }
    }
#endif
