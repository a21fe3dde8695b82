#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// One row of the transcript: its timestamp when a new group starts after a pause, the teammate's name, the
    /// avatar column, the bubble and the status line. VoiceOver reads the row first as one sentence, the
    /// presentation's label ("You: Hello. Not delivered. Retry"), with its controls as named actions; the controls
    /// themselves (Retry or Cancel, the card's button, each confirmed photo) stay elements of their own after it,
    /// so Voice Control reaches them by name and Full Keyboard Access by focus (issue 50).
    struct MessageRowView: View {
        let row: MessageRow
        let model: ChatModel
        let host: any ChatScreenHost

        @Environment(\.openPhoto) private var openPhoto
        @ScaledMetric(relativeTo: .body) private var avatarSize: CGFloat = 28

        private static let avatarSpacing: CGFloat = 8

        @_optimize(size) private var alignment: HorizontalAlignment { row.side == .own ? .trailing : .leading }

        @inline(never) @_optimize(size) var body: some View {
            VStack(spacing: 4) { timestampAndMessage }
                // Groups (spec 7.24) sit apart; bubbles of one group sit close.
                .padding(.top, row.startsGroup ? 6 : 0)
        }

        // Each builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private var timestampAndMessage: some View {
            if let timestamp = row.timestampText {
                TimestampRow(text: timestamp)
            }
            message
        }

        @inline(never) @_optimize(size) private var message: some View {
            VStack(alignment: alignment, spacing: 2) { messageParts }
                .frame(maxWidth: .infinity, alignment: Alignment(horizontal: alignment, vertical: .center))
                .background { sentence }
                .accessibilityElement(children: .contain)
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private var messageParts: some View {
            if let name = row.author?.name {
                Text(verbatim: name)
                    .accessibilityHidden(true)
                    .chatFont(.caption, secondary: true)
                    .padding(EdgeInsets(
                        top: 0, leading: (row.reservesAvatarColumn ? avatarSize + Self.avatarSpacing : 0) + 4,
                        bottom: 0, trailing: 4))
            }
            HStack(alignment: .bottom, spacing: Self.avatarSpacing) { avatarAndBubble }
            if let status = row.status {
                StatusLine(
                    status: status, rowID: row.id, tapRetries: row.tapRetries, model: model,
                    inputLabels: statusInputLabels)
                    .padding(.leading, row.reservesAvatarColumn ? avatarSize + Self.avatarSpacing : 0)
            }
        }

        /// Voice Control's names for the status line's control.
        @inline(never) @_optimize(size) private var statusInputLabels: [String]? {
            for control in row.controls {
                if case .status = control.kind { return control.inputLabels }
            }
            return nil
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private var avatarAndBubble: some View {
            if row.reservesAvatarColumn {
                avatarColumn
            }
            MessageBubble(row: row, model: model, host: host)
        }

        /// The row's sentence: one element under the whole row, read before its controls.
        @inline(never) @_optimize(size) private var sentence: some View {
            Color.clear
                .accessibilityElement(children: .ignore)
                .accessibilityLabel(row.accessibilityLabel)
                .accessibilityActions { actions }
                .accessibilitySortPriority(1)
        }

        /// Spec 7.24: the column is kept when team photos are on; the avatar shows on a group's last bubble only.
        @ViewBuilder
        @inline(never) @_optimize(size) private var avatarColumn: some View {
            if let author = row.author, author.showsAvatar {
                AvatarView(author: author, size: avatarSize)
                    .accessibilityHidden(true)
            } else {
                Color.clear.frame(width: avatarSize, height: avatarSize)
            }
        }

        /// The row's controls (`MessageRow.controls`) as VoiceOver actions: the status line's control when it can be
        /// used, the card's button (a disabled offer answers "No longer available" itself), each confirmed photo's
        /// viewer and each link.
        @ViewBuilder
        @inline(never) @_optimize(size) private var actions: some View {
            ForEach(row.controls) { control in action(control) }
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private func action(_ control: MessageRow.Control) -> some View {
            if control.isEnabled || control.kind == .card {
                Button { perform(control) } label: { Text(verbatim: control.label) }
            }
        }

        /// What the control does, the same as its button on screen.
        @inline(never) @_optimize(size) private func perform(_ control: MessageRow.Control) {
            switch control.kind {
            case .status(let action):
                model.start(.status(action, rowID: row.id))
            case .card:
                host.tapCard(messageID: row.id)
            case .photo(let id):
                if case .confirmed(let attachment) = row.photos.first(where: { $0.id == id })?.source {
                    openPhoto(attachment)
                }
            case .link(let url):
                _ = host.openMessageLink(url)
            }
        }
    }
#endif
