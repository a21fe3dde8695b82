#if canImport(SwiftUI) && canImport(UIKit)
    import ReceptionCore

    /// Opens a confirmed photo in the full-screen viewer; the transcript puts it in the environment and presents
    /// the viewer, so a photo tile does not own a presentation of its own.
    struct OpenPhotoAction: Sendable {
        let open: @MainActor @Sendable (Attachment) -> Void

        /// Opens `attachment`.
        @MainActor
        @_optimize(size) func callAsFunction(_ attachment: Attachment) { open(attachment) }
    }

    /// The photo the viewer shows.
    struct ViewedPhoto: Identifiable {
        let attachment: Attachment
        @_optimize(size) var id: String { attachment.id }
    }
#endif
