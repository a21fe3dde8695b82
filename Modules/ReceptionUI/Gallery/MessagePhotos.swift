#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    /// The photos of a bubble, one under the other, each at its own aspect ratio within spec 7.24's bounds, with the
    /// upload's progress under them while they upload (spec 7.9).
    struct MessagePhotos: View {
        let row: MessageRow
        let model: ChatModel

        @Environment(\.transcriptWidth) private var rowWidth
        @Environment(\.chatAppearance) private var appearance

        /// Spec 7.24: an image bubble is at most 70 % of the row width…
        static let maximumWidthFraction: CGFloat = 0.7
        /// …and at most 320 points tall.
        static let maximumHeight: CGFloat = 320

        @_optimize(size) var body: some View {
            VStack(alignment: row.side == .own ? .trailing : .leading, spacing: 4) { tiles }
        }

        // Each builder's closure makes one call: a closure takes no `@_optimize(size)`, a method does (issue 53).
        @ViewBuilder
        @inline(never) @_optimize(size) private var tiles: some View {
            ForEach(row.photos) { photo in tile(photo) }
            if let progress = row.uploadProgress {
                UploadProgressBar(progress: progress, tint: appearance.colors.accentColor)
                    .frame(width: Self.size(aspectRatio: 1, rowWidth: rowWidth).width)
            }
        }

        @inline(never) @_optimize(size) private func tile(_ photo: MessageRow.Photo) -> PhotoTile {
            var control: MessageRow.Control?
            for candidate in row.controls where candidate.kind == .photo(id: photo.id) {
                control = candidate
                break
            }
            return PhotoTile(
                photo: photo, rowID: row.id, size: Self.size(aspectRatio: photo.aspectRatio, rowWidth: rowWidth),
                model: model, control: control)
        }

        /// The tile for a photo of `aspectRatio` (width over height) in a row `rowWidth` wide: as wide as allowed,
        /// narrower when the height limit binds.
        @inline(never) @_optimize(size) static func size(aspectRatio: Double, rowWidth: CGFloat) -> CGSize {
            let ratio = aspectRatio.isFinite && aspectRatio > 0 ? CGFloat(aspectRatio) : 1
            let widest = max(rowWidth, 1) * maximumWidthFraction
            let width = max(1, min(widest, maximumHeight * ratio))
            return CGSize(width: width, height: width / ratio)
        }
    }
#endif
