#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import PhotosUI
    import SwiftUI
    // `PhotosPicker` lives in PhotosUI's SwiftUI cross-import overlay. Xcode loads it from the two imports above; the
    // Linux type-check (tools/ios-typecheck) runs without cross-import overlays, so the overlay is named as well.
    #if canImport(_PhotosUI_SwiftUI)
        import _PhotosUI_SwiftUI
    #endif

    /// The photo button: the system Photos picker, images only, allowing as many as the message has room for
    /// (seed 001: five per message). Each picked item goes to the model at once, which counts it as loading (Send
    /// waits, the room shrinks) while its bytes load; the selection is then cleared so the next pick starts fresh.
    struct PhotoPickerButton: View {
        /// How many more photos may be picked (at least 1 while enabled).
        let selectionLimit: Int
        let isEnabled: Bool
        let label: String
        let model: ChatModel

        @Environment(\.chatAppearance) private var appearance
        @ScaledMetric(relativeTo: .body) private var iconSize: CGFloat = 24
        @State private var selection: [PhotosPickerItem] = []

        @inline(never) @_optimize(size) var body: some View {
            let size = ComposerPresentation.iconSize(scaled: iconSize)
            // `.compatible`: the picker hands out a format the image pipeline reads (JPEG for HEIC, RAW and the
            // like); the pipeline re-encodes every photo as a JPEG anyway (seed 001 "Image preparation").
            PhotosPicker(
                selection: $selection, maxSelectionCount: max(selectionLimit, 1), matching: .images,
                preferredItemEncoding: .compatible
            ) {
                ComposerIcon(systemName: "photo.on.rectangle.angled", size: size)
            }
            .modifier(ChatControl(isEnabled: isEnabled, label: label, tint: appearance.colors.accentColor))
            .onChange(of: selection) { _, items in picked(items) }
        }

        /// Hands the picked items to the model, each loaded on its own, and clears the selection for the next pick.
        @inline(never) @_optimize(size) private func picked(_ items: [PhotosPickerItem]) {
            guard !items.isEmpty else { return }
            selection = []
            for item in items {
                model.start(.addPhoto(loading: { try? await item.loadTransferable(type: Data.self) }))
            }
        }
    }
#endif
