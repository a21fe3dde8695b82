#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// Where a chat screen is shown.
    package enum ChatPlacement: Sendable, Hashable {
        /// In the host's own container (a `NavigationStack`, a tab, a sheet of its own): the host dismisses it.
        case embedded
        /// In the SDK sheet that `openChat()` presents: it carries a close control.
        case sheet
    }

    /// The support chat: the transcript with statuses, photos and cards, the typing indicator, the connection
    /// banner and the composer, in the chat language and the app's appearance (seed 001).
    ///
    /// `import ReceptionKit` gives `ReceptionChatView()`, bound to `Reception.shared`:
    ///
    /// ```swift
    /// NavigationStack { ReceptionChatView() }
    ///     .tabItem { Label("Support", systemImage: "bubble.left.and.bubble.right") }
    ///     .badge(Reception.shared.unreadCount)
    /// ```
    ///
    /// While it is on screen the chat is open; leaving it, or the app going to the background, pauses the chat as
    /// `closeChat()` does. `Reception.shared.openChat()` presents the same view in the SDK sheet instead.
    @MainActor
    public struct ReceptionChatView: View {
        let host: any ChatScreenHost
        let placement: ChatPlacement

        /// A chat screen for `host` (the facade's `Reception`), placed as `placement` says.
        @_optimize(size) package init(host: any ChatScreenHost, placement: ChatPlacement) {
            self.host = host
            self.placement = placement
        }

        @_optimize(size) public var body: some View {
            let appearance = host.chatAppearance
            placed(appearance)
                .environment(\.chatAppearance, appearance)
                // The chat language's reading direction covers the sheet's navigation bar and close button too.
                .environment(\.layoutDirection, layoutDirection)
                .modifier(ChatColorScheme(scheme: appearance.colorScheme, placement: placement))
        }

        /// The chat where `placement` puts it: the host's container, or a navigation stack in the SDK's sheet.
        @ViewBuilder
        @inline(never) @_optimize(size) private func placed(_ appearance: ChatAppearance) -> some View {
            switch placement {
            case .embedded:
                content(appearance)
                    .onAppear { [host] in host.chatScreenAppeared() }
                    .onDisappear { [host] in host.chatScreenDisappeared() }
            case .sheet:
                NavigationStack { sheetContent(appearance) }
            }
        }

        /// The chat in the SDK's sheet, with its close control when the appearance shows one.
        @inline(never) @_optimize(size) private func sheetContent(_ appearance: ChatAppearance) -> some View {
            content(appearance).toolbar { closeItem(appearance) }
        }

        /// The close control of the sheet's navigation bar.
        @ToolbarContentBuilder
        @inline(never) @_optimize(size) private func closeItem(_ appearance: ChatAppearance) -> some ToolbarContent {
            if appearance.showsCloseButton {
                ToolbarItem(placement: .topBarTrailing) {
                    CloseButton(label: closeLabel) { [host] in host.closeChat() }
                }
            }
        }

        /// The chat, or before the SDK has one (not configured yet) its welcome icon.
        @inline(never) @_optimize(size) private func content(_ appearance: ChatAppearance) -> some View {
            chatOrWelcome(appearance)
                .font(appearance.font(.body))
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private func chatOrWelcome(_ appearance: ChatAppearance) -> some View {
            if let model = host.chat {
                // A new session's model (after logout or a reset) starts a fresh screen: no viewer, scroll
                // position or decoded photo carries over from the previous person's chat.
                ChatScreen(model: model, host: host, appearance: appearance)
                    .id(ObjectIdentifier(model))
            } else if let emptyState = ChatModel.unconfiguredPresentation(appearance: appearance).emptyState {
                WelcomeView(state: emptyState)
                    .frame(maxWidth: .infinity, maxHeight: .infinity)
                    .background { appearance.colors.backgroundColor.ignoresSafeArea() }
            }
        }

        /// Which way the chat language reads (left to right until the SDK has a chat).
        @_optimize(size) private var layoutDirection: SwiftUI.LayoutDirection {
            host.chat?.texts.layoutDirection == .rightToLeft ? .rightToLeft : .leftToRight
        }

        /// "Close" in the chat language (English until the SDK has a chat).
        @_optimize(size) private var closeLabel: String {
            (host.chat?.texts ?? .english).text(.close)
        }
    }
#endif
