#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// What one message shows: its photos, its text bubble (own trailing in the accent colour, team leading in the
    /// incoming colour) and its card button. A pending message is dimmed (spec 7.8.3), an older own bubble
    /// lightens (spec 7.20), and a failed one retries when tapped (seed 001).
    struct MessageBubble: View {
        let row: MessageRow
        let model: ChatModel
        let host: any ChatScreenHost

        @Environment(\.chatAppearance) private var appearance
        @Environment(\.transcriptWidth) private var rowWidth
        @Environment(\.layoutDirection) private var chatDirection

        /// Spec 7.8.3: a message still sending after 400 ms is drawn at this opacity.
        static let pendingOpacity = 0.6
        /// Text bubbles leave room on the other side for the conversation's shape.
        static let maximumTextWidthFraction: CGFloat = 0.8

        @_optimize(size) private var isOwn: Bool { row.side == .own }

        @inline(never) @_optimize(size) var body: some View {
            VStack(alignment: isOwn ? .trailing : .leading, spacing: 4) { parts }
                .opacity(row.isPending ? Self.pendingOpacity : 1)
                .modifier(RetryOnTap(isEnabled: row.tapRetries) { [model, id = row.id] in model.start(.retry(id)) })
        }

        // Each builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private var parts: some View {
            if !row.photos.isEmpty {
                MessagePhotos(row: row, model: model)
            }
            if let text = row.text {
                textBubble(text)
            }
            if let card = row.card {
                CardButton(card: card, rowID: row.id, host: host)
            }
        }

        @inline(never) @_optimize(size) private func textBubble(_ text: String) -> some View {
            Text(Self.attributed(row.textRuns))
                .chatFont(.body)
                .foregroundStyle(isOwn ? appearance.colors.onAccentColor : appearance.colors.incomingTextColor)
                // Links take the tint, not a run's colour: on the accent-coloured own bubble they are drawn in the
                // text's colour (underlined), on team bubbles in the chat's accent.
                .tint(isOwn ? appearance.colors.onAccentColor : appearance.colors.accentColor)
                // Issue 50: the text aligns by its own script (a Hebrew message in an English chat reads from
                // the right), and its links open through the SDK (only http, https, mailto and tel).
                .multilineTextAlignment(.leading)
                .environment(\.layoutDirection, Self.layoutDirection(row.textDirection, chat: chatDirection))
                .environment(\.openURL, OpenURLAction { url in
                    host.openMessageLink(url) ? .handled : .discarded
                })
                // The row's sentence reads the text; each link is an element of its own instead (a button named by
                // its text, for VoiceOver, Voice Control and the keyboard), so nothing is read twice.
                .modifier(LinkElements(links: row.controls.filter { if case .link = $0.kind { true } else { false } },
                                       host: host))
                .fixedSize(horizontal: false, vertical: true)
                .modifier(SelectableText(isEnabled: row.isTextSelectable))
                .padding(horizontal: 12, vertical: 8)
                .background(bubbleColor, in: RoundedRectangle(cornerRadius: 18, style: .continuous))
                .frame(
                    maxWidth: rowWidth > 0 ? rowWidth * Self.maximumTextWidthFraction : nil,
                    alignment: isOwn ? .trailing : .leading)
        }

        /// The text with each detected link as a link, underlined. Plain text otherwise: no Markdown is interpreted.
        @inline(never) @_optimize(size) static func attributed(_ runs: [MessageRow.TextRun]) -> AttributedString {
            var text = AttributedString()
            for run in runs {
                var piece = AttributedString(run.text)
                if let link = run.link {
                    piece.link = link
                    piece.underlineStyle = .single
                }
                text += piece
            }
            return text
        }

        /// The layout direction for a text reading `direction`; the chat's when the text has none of its own.
        @inline(never) @_optimize(size) static func layoutDirection(
            _ direction: MessageRow.TextDirection?, chat: SwiftUI.LayoutDirection
        ) -> SwiftUI.LayoutDirection {
            switch direction {
            case .leftToRight: .leftToRight
            case .rightToLeft: .rightToLeft
            case nil: chat
            }
        }

        /// The accent colour for own bubbles, lightened by the row's fade; the incoming colour for the team's.
        @_optimize(size) private var bubbleColor: Color {
            isOwn ? appearance.colors.accentColor.opacity(1 - row.fade) : appearance.colors.incomingColor
        }
    }

    /// The bubble's text as assistive technologies see it: hidden (the row's sentence reads it) when it has no links;
    /// else replaced by one button per link, named by the link's text, which opens it through the SDK.
    private struct LinkElements: ViewModifier {
        let links: [MessageRow.Control]
        let host: any ChatScreenHost

        @inline(never) @_optimize(size) func body(content: Content) -> some View {
            if links.isEmpty {
                content.accessibilityHidden(true)
            } else {
                content.accessibilityRepresentation { [links, host] in
                    VStack {
                        ForEach(links) { link in
                            Button(link.label) { [host] in
                                if case .link(let url) = link.kind { _ = host.openMessageLink(url) }
                            }
                            .accessibilityInputLabels(link.inputLabels)
                        }
                    }
                }
            }
        }
    }

    /// Seed 001: text can be selected once the message is sent, not while it sends or after a failure.
    private struct SelectableText: ViewModifier {
        let isEnabled: Bool

        @inline(never) @_optimize(size) func body(content: Content) -> some View {
            if isEnabled {
                content.textSelection(.enabled)
            } else {
                content.textSelection(.disabled)
            }
        }
    }

    /// Seed 001: tapping a failed bubble (or its failed photo) retries it when Retry is available.
    struct RetryOnTap: ViewModifier {
        let isEnabled: Bool
        let retry: @MainActor () -> Void

        @inline(never) @_optimize(size) func body(content: Content) -> some View {
            if isEnabled {
                content
                    .contentShape(Rectangle())
                    .onTapGesture(perform: retry)
            } else {
                content
            }
        }
    }
#endif
