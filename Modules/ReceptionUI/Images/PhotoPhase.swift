#if canImport(SwiftUI) && canImport(UIKit)
    import UIKit

    /// Where a photo view is in loading its image.
    enum PhotoPhase {
        /// Downloading or decoding.
        case loading
        /// Decoded at the drawn size.
        case loaded(UIImage)
        /// The download or the decode failed; tapping tries again where the view allows it.
        case failed

        /// The image, once loaded.
        var image: UIImage? {
            if case .loaded(let image) = self { return image }
            return nil
        }
    }
#endif
