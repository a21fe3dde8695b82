#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import UIKit

    /// Where a photo view is in loading its image, and what it keeps (`TilePhase`: the image only while on
    /// screen).
    typealias PhotoPhase = TilePhase<UIImage>

    extension TilePhase where Image == UIImage {
        /// The bytes of `source` (a pending preview's own, a confirmed attachment's through `ChatModel.photo(_:)`)
        /// decoded with their longest side at `maxPixelSize`, cached as `key` when given: `.loaded`, or `.failed`
        /// when the download or the decode failed; `nil` when the calling task was cancelled meanwhile.
        @MainActor
        @inline(never) @_optimize(size) static func load(
            _ source: MessageRow.Photo.Source, model: ChatModel, decoder: PhotoDecoder, maxPixelSize: Int,
            cacheAs key: PhotoKey? = nil
        ) async -> PhotoPhase? {
            let data: Data
            switch source {
            case .pending(let jpeg):
                data = jpeg
            case .confirmed(let attachment):
                do {
                    data = try await model.photo(attachment)
                } catch {
                    return Task.isCancelled ? nil : .failed
                }
            }
            guard !Task.isCancelled else { return nil }
            let image = await decoder.decode(data, maxPixelSize: maxPixelSize, cacheAs: key)
            guard !Task.isCancelled else { return nil }
            return image.map(PhotoPhase.loaded) ?? .failed
        }
    }
#endif
