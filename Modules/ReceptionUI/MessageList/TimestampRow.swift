#if canImport(SwiftUI) && canImport(UIKit)
    import SwiftUI

    /// The time above a group that starts more than 5 minutes after the message before it (spec 7.24), worded by
    /// the presentation in the chat language.
    struct TimestampRow: View {
        let text: String

        @_optimize(size) var body: some View {
            Text(verbatim: text)
                .chatFont(.caption, secondary: true)
                .frame(maxWidth: .infinity)
                .padding(EdgeInsets(top: 10, leading: 0, bottom: 2, trailing: 0))
                .accessibilityAddTraits(.isHeader)
        }
    }
#endif
