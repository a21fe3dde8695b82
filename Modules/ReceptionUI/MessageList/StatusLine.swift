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

        var body: some View {
            let layout = dynamicTypeSize.isAccessibilitySize
                ? AnyLayout(VStackLayout(alignment: .trailing, spacing: 2))
                : AnyLayout(HStackLayout(spacing: 6))
            layout {
                HStack(spacing: 4) {
                    if status.isFailure {
                        failureIndicator
                    }
                    Text(verbatim: status.text)
                        .foregroundStyle(status.isFailure ? Color.red : Color.secondary)
                        .accessibilityHidden(true)
                }
                if let detail = status.detail {
                    Text(verbatim: detail)
                        .foregroundStyle(.secondary)
                        .accessibilityHidden(true)
                }
                if let action = status.action, let title = status.actionTitle {
                    Button {
                        Task { await Self.perform(action, rowID: rowID, model: model) }
                    } label: {
                        Text(verbatim: title)
                            .fontWeight(.semibold)
                            .minimumTapTarget()
                    }
                    .modifier(ChatControl(
                        isEnabled: status.isActionEnabled, label: title, tint: appearance.colors.accentColor))
                    // Issue 50: "Tap Retry" with Voice Control even while the title says "Retry in 30 seconds".
                    .accessibilityInputLabels(inputLabels ?? [title])
                }
            }
            .chatFont(.footnote)
            .padding(.horizontal, 4)
        }

        @ViewBuilder
        private var failureIndicator: some View {
            let icon = Image(systemName: "exclamationmark.circle.fill")
                .foregroundStyle(.red)
            if tapRetries {
                Button {
                    Task { await model.retry(rowID) }
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

        /// Runs the status line's control for message `rowID`.
        static func perform(_ action: MessageRow.Status.Action, rowID: String, model: ChatModel) async {
            switch action {
            case .retry: await model.retry(rowID)
            case .cancelAutomaticResend: await model.cancelAutomaticResend(rowID)
            }
        }
    }
#endif
