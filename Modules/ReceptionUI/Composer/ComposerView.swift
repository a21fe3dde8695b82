#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The bottom of the chat: the connection banner, then either the composer — its notices, the picked photos,
    /// the photo button, the growing text field and the send arrow — or the notice that replaces it (a blocked
    /// device, "Sign in to send messages.", an unavailable app). It reads the model's composer itself, so typing
    /// invalidates this view and not the transcript.
    struct ComposerView: View {
        let banner: ChatPresentation.Banner?
        let model: ChatModel

        @Environment(\.accessibilityReduceMotion) private var reduceMotion

        @inline(never) @_optimize(size) var body: some View {
            let composer = model.composerPresentation
            return VStack(spacing: 0) { bannerAndComposer(composer) }
                .animation(reduceMotion ? nil : .easeInOut(duration: 0.2), value: banner)
                .background(.bar)
        }

        // Each builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private func bannerAndComposer(_ composer: ComposerPresentation) -> some View {
            if let banner {
                ConnectionBannerView(banner: banner)
                    .transition(reduceMotion ? .opacity : .move(edge: .bottom).combined(with: .opacity))
            }
            if let replacement = composer.replacement {
                ComposerReplacement(text: replacement)
            } else {
                editor(composer)
            }
        }

        @inline(never) @_optimize(size) private func editor(_ composer: ComposerPresentation) -> some View {
            VStack(alignment: .leading, spacing: 8) { editorParts(composer) }
                .padding(horizontal: 8, vertical: 6)
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private func editorParts(_ composer: ComposerPresentation) -> some View {
            if !composer.notices.isEmpty {
                ComposerNotices(notices: composer.notices)
            }
            if !composer.photos.isEmpty || composer.loadingPhotoCount > 0 {
                PickedPhotoStrip(photos: composer.photos, loadingCount: composer.loadingPhotoCount, model: model)
            }
            HStack(alignment: .bottom, spacing: 4) { controls(composer) }
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private func controls(_ composer: ComposerPresentation) -> some View {
            PhotoPickerButton(
                selectionLimit: composer.photoSelectionLimit, isEnabled: composer.canAddPhotos,
                label: composer.addPhotoLabel, model: model)
            MessageField(
                text: composer.text, placeholder: composer.placeholder, isOverLimit: composer.isOverLimit, model: model)
            SendButton(isEnabled: composer.canSend, label: composer.sendLabel, model: model)
        }
    }

    /// Shown instead of the composer while the person cannot send.
    private struct ComposerReplacement: View {
        let text: String

        @inline(never) @_optimize(size) var body: some View {
            Text(verbatim: text)
                .chatFont(.footnote, secondary: true)
                .multilineTextAlignment(.center)
                .frame(maxWidth: .infinity, minHeight: 44)
                .padding(horizontal: 16, vertical: 10)
        }
    }
#endif
