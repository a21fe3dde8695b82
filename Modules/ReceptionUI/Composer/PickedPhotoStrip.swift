#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The photos picked for the next message, each with its remove control, then a placeholder for each one still
    /// loading.
    struct PickedPhotoStrip: View {
        let photos: [ComposerPresentation.PickedPhoto]
        let loadingCount: Int
        let model: ChatModel

        @ScaledMetric(relativeTo: .body) private var thumbnailSize: CGFloat = 64

        @_optimize(size) var body: some View {
            ScrollView(.horizontal) { strip }
                .scrollIndicators(.hidden)
        }

        // Each builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @inline(never) @_optimize(size) private var strip: some View {
            HStack(spacing: 8) { thumbnails }
                .padding(EdgeInsets(top: 6, leading: 4, bottom: 0, trailing: 4))
        }

        @ViewBuilder
        @inline(never) @_optimize(size) private var thumbnails: some View {
            ForEach(photos) { photo in PickedPhotoThumbnail(photo: photo, size: thumbnailSize, model: model) }
            ForEach(0..<max(loadingCount, 0), id: \.self) { _ in Self.loadingThumbnail(size: thumbnailSize) }
        }

        @inline(never) @_optimize(size) private static func loadingThumbnail(size: CGFloat) -> some View {
            RoundedRectangle(cornerRadius: 10, style: .continuous)
                .fill(.fill.secondary)
                .frame(width: size, height: size)
                .overlay { ProgressView() }
        }
    }

    /// One picked photo: a square thumbnail decoded at its size (not cached: a picked photo is shown only here) and
    /// the remove control on its trailing corner, which removes this photo by its identity, once.
    private struct PickedPhotoThumbnail: View {
        let photo: ComposerPresentation.PickedPhoto
        let size: CGFloat
        let model: ChatModel

        @Environment(\.photoDecoder) private var decoder
        @Environment(\.displayScale) private var displayScale
        @State private var image: UIImage?

        @inline(never) @_optimize(size) var body: some View {
            ZStack { picture }
                .frame(width: size, height: size)
                .clipShape(RoundedRectangle(cornerRadius: 10, style: .continuous))
                .accessibilityHidden(true)
                .overlay(alignment: .topTrailing) { removeButton }
                .task(id: photo.jpeg) { await load() }
        }

        // Each builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private var picture: some View {
            RoundedRectangle(cornerRadius: 10, style: .continuous).fill(.fill.secondary)
            if let image {
                Image(uiImage: image)
                    .resizable()
                    .scaledToFill()
                    .accessibilityIgnoresInvertColors()
            }
        }

        @inline(never) @_optimize(size) private var removeButton: some View {
            Button { [model, id = photo.id] in model.start(.removePhoto(id: id)) } label: { Self.removeIcon }
                .buttonStyle(.plain)
                .accessibilityLabel(photo.removeLabel)
        }

        @inline(never) @_optimize(size) private static var removeIcon: some View {
            Image(systemName: "xmark.circle.fill")
                .symbolRenderingMode(.palette)
                .foregroundStyle(.white, .black.opacity(0.6))
                .imageScale(.large)
                .minimumTapTarget()
        }

        @inline(never) @_optimize(size) private func load() async {
            // The thumbnail is square and filled: the shorter side must cover it.
            let ratio = photo.aspectRatio.isFinite && photo.aspectRatio > 0 ? photo.aspectRatio : 1
            let points = size * max(ratio, 1 / ratio)
            let pixels = PhotoKey.pixelSize(points: points, scale: displayScale)
            let decoded = await decoder.decode(photo.jpeg, maxPixelSize: pixels)
            if !Task.isCancelled { image = decoded }
        }
    }
#endif
