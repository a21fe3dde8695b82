#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import ReceptionCore
    import SwiftUI

    /// One photo in a bubble, decoded at the size it is drawn. A confirmed attachment is downloaded through the
    /// model and opens the viewer when tapped; if the download fails it shows "could not load" and tapping loads it
    /// again. A pending local preview is marked as not sent yet; tapping it is the bubble's (Retry when offered).
    struct PhotoTile: View {
        let photo: MessageRow.Photo
        /// The message, for the cache key of a pending preview.
        let rowID: String
        /// The tile's frame (spec 7.24, from `MessagePhotos`).
        let size: CGSize
        let model: ChatModel
        /// The photo as a control of its own (a confirmed one): its numbered name for VoiceOver and Voice Control.
        var control: MessageRow.Control?

        @Environment(\.photoDecoder) private var decoder
        @Environment(\.displayScale) private var displayScale
        @Environment(\.openPhoto) private var openPhoto
        /// Survives the confirmation of a sent photo: the tile's identity is its place in the row
        /// (`MessageRow.Photo.id`), so the pending preview stays drawn while the confirmed key loads, from the photo
        /// cache the engine filled with the uploaded bytes (no download, no spinner). Off screen it holds no image
        /// (`TilePhase.leftScreen`): the decode cache is the only owner, so its bound is the real one.
        @State private var phase = PhotoPhase.loading
        @State private var onScreen = false
        /// Bumped by a tap on a failed photo: a new load.
        @State private var attempt = 0

        /// What one load is for: a new key or attempt starts a new one.
        private struct LoadRequest: Equatable {
            var key: PhotoKey
            var attempt: Int
        }

        @inline(never) @_optimize(size) private var key: PhotoKey {
            let name = switch photo.source {
            case .confirmed(let attachment): "attachment/\(attachment.id)"
            case .pending: "pending/\(rowID)/\(photo.id)"
            }
            return PhotoKey(photo: name, points: max(size.width, size.height), scale: displayScale)
        }

        @inline(never) @_optimize(size) var body: some View {
            Group { sourced }
                .accessibilityLabel(control?.label ?? photo.accessibilityLabel)
                .accessibilityInputLabels(control?.inputLabels ?? [photo.accessibilityLabel])
                // A pending preview is no control: the row's sentence says it is not sent yet.
                .accessibilityHidden(control == nil)
                .onAppear { onScreen = true }
                .onDisappear { leftScreen() }
                .task(id: LoadRequest(key: key, attempt: attempt)) { await load() }
        }

        // Each builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private var sourced: some View {
            switch photo.source {
            case .confirmed(let attachment):
                Button { tapConfirmed(attachment) } label: { tile }
                    .buttonStyle(.plain)
            case .pending:
                tile.overlay(alignment: .bottomLeading) { PendingBadge(text: model.texts.text(.photoPending)) }
            }
        }

        @inline(never) @_optimize(size) private func leftScreen() {
            onScreen = false
            phase.leftScreen()
        }

        @_optimize(size) private var tile: TileFace {
            TileFace(phase: phase, size: size, failedText: photo.isConfirmed ? model.texts.text(.photoFailed) : nil)
        }

        @inline(never) @_optimize(size) private func tapConfirmed(_ attachment: Attachment) {
            switch phase {
            case .loaded: openPhoto(attachment)
            case .failed:
                phase = .loading
                attempt += 1
            case .loading: break
            }
        }

        @inline(never) @_optimize(size) private func load() async {
            // Before the transcript's first layout the row width is unknown: decode once it is.
            guard size.width > 1 else { return }
            // A failed photo waits for the person's tap (a new attempt), not for the next scroll past it.
            if case .failed = phase { return }
            let key = key
            if let hit = await decoder.cached(key) {
                phase.loadFinished(.loaded(hit), onScreen: onScreen)
                return
            }
            // A resize keeps the image it has while the sharper one decodes.
            if phase.image == nil { phase = .loading }
            if let loaded = await PhotoPhase.load(
                photo.source, model: model, decoder: decoder, maxPixelSize: key.maxPixelSize, cacheAs: key)
            {
                phase.loadFinished(loaded, onScreen: onScreen)
            }
        }
    }

    /// The tile's picture: the decoded image, or a placeholder while it loads or after it failed.
    private struct TileFace: View {
        let phase: PhotoPhase
        let size: CGSize
        /// The "could not load" label of a confirmed photo; nil for a pending preview.
        let failedText: String?

        @inline(never) @_optimize(size) var body: some View {
            ZStack { face }
                .frame(width: size.width, height: size.height)
                .clipShape(RoundedRectangle(cornerRadius: 14, style: .continuous))
                .contentShape(RoundedRectangle(cornerRadius: 14, style: .continuous))
        }

        // Each builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private var face: some View {
            if let image = phase.image {
                Image(uiImage: image)
                    .resizable()
                    .scaledToFill()
                    .accessibilityIgnoresInvertColors()
            } else {
                Rectangle().fill(.fill.secondary)
                if case .failed = phase {
                    if let failedText { FailedPhotoLabel(text: failedText) }
                } else {
                    ProgressView()
                }
            }
        }
    }

    /// The mark on a local preview the service has not confirmed.
    private struct PendingBadge: View {
        let text: String

        @inline(never) @_optimize(size) var body: some View {
            Label { Text(verbatim: text) } icon: { Image(systemName: "clock") }
                .chatFont(.caption2)
                .lineLimit(1)
                .padding(horizontal: 6, vertical: 3)
                .background(.ultraThinMaterial, in: Capsule())
                .padding(6)
                .accessibilityHidden(true)
        }
    }

    /// What a confirmed photo that could not be downloaded shows; the tile is its Retry.
    private struct FailedPhotoLabel: View {
        let text: String

        @inline(never) @_optimize(size) var body: some View {
            VStack(spacing: 4) { Self.content(text) }
                .foregroundStyle(.secondary)
                .padding(8)
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private static func content(_ text: String) -> some View {
            Image(systemName: "arrow.clockwise.circle")
                .imageScale(.large)
            Text(verbatim: text)
                .chatFont(.caption)
                .multilineTextAlignment(.center)
        }
    }
#endif
