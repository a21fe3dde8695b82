#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The draft: a text field that grows with its text up to a few lines, then scrolls. Every edit goes to the
    /// model (which keeps what was typed while the engine catches up); an over-limit draft is outlined in red, the
    /// notice above says why.
    struct MessageField: View {
        /// The draft as the presentation has it. The binding reads the model; this input makes the field update
        /// when the draft changes without typing (cleared by Send, restored at launch).
        let text: String
        let placeholder: String
        let isOverLimit: Bool
        let model: ChatModel

        /// Lines shown before the field scrolls.
        private static let lines = 1...6

        @inline(never) @_optimize(size) var body: some View {
            TextField(
                placeholder,
                text: Binding(get: { [model] in model.composer.text }, set: { [model] in model.setDraft($0) }),
                axis: .vertical
            )
            .lineLimit(Self.lines)
            .chatFont(.body)
            .padding(horizontal: 12, vertical: 8)
            .frame(minHeight: 44)
            .background(
                RoundedRectangle(cornerRadius: 20, style: .continuous)
                    .strokeBorder(isOverLimit ? Color.red : Color(uiColor: .separator)))
            .contentShape(RoundedRectangle(cornerRadius: 20, style: .continuous))
            .accessibilityLabel(placeholder)
        }
    }
#endif
