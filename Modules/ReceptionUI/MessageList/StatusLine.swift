#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The status line under an own message (seed 001 "Sending status"): "Sending…", "Sent" or "Not delivered",
    /// a wait beside it, and its control — Retry, a disabled "Retry in 30 seconds", or Cancel of an automatic
    /// resend. A failure is drawn with a red exclamation mark that retries too when Retry is available. At the
    /// accessibility text sizes the parts stack instead of squeezing onto one line.
    struct StatusLine: View {
        let status: MessageRow.Status
        let rowID: String
        /// Whether the failure indicator retries when tapped.
        let tapRetries: Bool
        let model: ChatModel
        /// Voice Control's names for the control (`MessageRow.Control.inputLabels`).
        var inputLabels: [String]? = nil

        @Environment(\.chatAppearance) private var appearance
        @Environment(\.dynamicTypeSize) private var dynamicTypeSize

        @inline(never) @_optimize(size) var body: some View {
            let layout = dynamicTypeSize.isAccessibilitySize
                ? AnyLayout(VStackLayout(alignment: .trailing, spacing: 2))
                : AnyLayout(HStackLayout(spacing: 6))
            return layout { content }
                .chatFont(.footnote)
                .padding(.horizontal, 4)
        }

        // A builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private var content: some View {
            HStack(spacing: 4) { statusText }
            if let detail = status.detail {
                Text(verbatim: detail)
                    .foregroundStyle(.secondary)
                    .accessibilityHidden(true)
            }
            if let action = status.action, let title = status.actionTitle {
                actionButton(action, title: title)
            }
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private var statusText: some View {
            if status.isFailure {
                failureIndicator
            }
            Text(verbatim: status.text)
                .foregroundStyle(status.isFailure ? Color.red : Color.secondary)
                .accessibilityHidden(true)
        }

        @inline(never) @_optimize(size)
        private func actionButton(_ action: MessageRow.Status.Action, title: String) -> some View {
            Button { act(action) } label: { Self.actionLabel(title) }
                .modifier(ChatControl(
                    isEnabled: status.isActionEnabled, label: title, tint: appearance.colors.accentColor))
                // Issue 50: "Tap Retry" with Voice Control even while the title says "Retry in 30 seconds".
                .accessibilityInputLabels(inputLabels ?? [title])
        }

        @inline(never) @_optimize(size) private static func actionLabel(_ title: String) -> some View {
            Text(verbatim: title)
                .fontWeight(.semibold)
                .minimumTapTarget()
        }

        @inline(never) @_optimize(size) private func act(_ action: MessageRow.Status.Action) {
            model.start(.status(action, rowID: rowID))
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private var failureIndicator: some View {
            let icon = Image(systemName: "exclamationmark.circle.fill")
                .foregroundStyle(.red)
            if tapRetries {
                Button {
                    model.start(.retry(rowID))
                } label: {
                    icon
                        .minimumTapTarget()
                }
                .buttonStyle(.borderless)
                .accessibilityLabel(status.actionTitle ?? status.text)
                // The Retry beside it is the control assistive technologies reach; this is the same for touch.
                .accessibilityHidden(status.action != nil)
            } else {
                icon.accessibilityHidden(true)
            }
        }
    }
#endif
