#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The teammate's avatar beside the last bubble of a group (spec 7.24): the photo, decoded at the avatar's
    /// size, or a circle with the name's initial while there is none. The row's label names the author, so the
    /// avatar is not read out.
    struct AvatarView: View {
        let author: MessageRow.Author
        let size: CGFloat

        @Environment(\.chatAppearance) private var appearance
        @Environment(\.photoDecoder) private var decoder
        @Environment(\.displayScale) private var displayScale
        @State private var image: UIImage?

        /// One decoded avatar per teammate photo and size, shared by all of the teammate's rows.
        @_optimize(size) private var key: PhotoKey? {
            guard let photo = author.photo, let photoKey = author.photoKey else { return nil }
            return PhotoKey(photo: "avatar/\(photoKey)/\(photo.count)", points: size, scale: displayScale)
        }

        @_optimize(size) var body: some View {
            ZStack { content }
                .frame(width: size, height: size)
                .clipShape(Circle())
                .accessibilityHidden(true)
                .task(id: key) { await load() }
        }

        // A builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private var content: some View {
            if let image {
                Image(uiImage: image)
                    .resizable()
                    .scaledToFill()
                    .accessibilityIgnoresInvertColors()
            } else {
                Circle().fill(appearance.colors.incomingColor)
                Text(verbatim: author.initial)
                    .chatFont(.caption, weight: .semibold)
                    .foregroundStyle(appearance.colors.incomingTextColor)
                    .minimumScaleFactor(0.5)
                    .lineLimit(1)
            }
        }

        @_optimize(size) private func load() async {
            guard let key, let photo = author.photo else {
                image = nil
                return
            }
            let decoded = await decoder.decode(photo, maxPixelSize: key.maxPixelSize, cacheAs: key)
            if !Task.isCancelled { image = decoded }
        }
    }
#endif
