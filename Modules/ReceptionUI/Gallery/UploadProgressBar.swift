#if canImport(SwiftUI) && canImport(UIKit)
    import SwiftUI

    /// The progress of a sending message's photo upload, 0…1 (spec 7.9). The status line says "Uploading photos",
    /// and the row's accessibility label carries it, so the bar itself is not read out.
    struct UploadProgressBar: View {
        let progress: Double
        let tint: Color

        @inline(never) @_optimize(size) var body: some View {
            ProgressView(value: progress)
                .progressViewStyle(.linear)
                .tint(tint)
                .accessibilityHidden(true)
        }
    }
#endif
