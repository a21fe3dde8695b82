#if canImport(SwiftUI) && canImport(UIKit)
    import SwiftUI

    /// The notices above the field, most important first: the length explanation, a wait, "Could not load this
    /// photo.", … Read out together.
    struct ComposerNotices: View {
        let notices: [String]

        @inline(never) @_optimize(size) var body: some View {
            VStack(alignment: .leading, spacing: 2) {
                ForEach(Array(notices.enumerated()), id: \.offset) { _, notice in
                    Text(verbatim: notice)
                }
            }
            .chatFont(.footnote, secondary: true)
            .multilineTextAlignment(.leading)
            .frame(maxWidth: .infinity, alignment: .leading)
            .padding(.horizontal, 8)
            .accessibilityElement(children: .combine)
        }
    }
#endif
