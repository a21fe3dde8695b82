#if canImport(SwiftUI) && canImport(UIKit)
    import Conversation
    import SwiftUI

    // Values every part of the chat reads from the environment instead of having them threaded through each
    // initializer: the look, the image decoder, the transcript's width and the photo viewer's opener. The root
    // (`ReceptionChatView`, `TranscriptView`) sets them.

    private struct ChatAppearanceKey: EnvironmentKey {
        static let defaultValue = ChatAppearance()
    }

    private struct PhotoDecoderKey: EnvironmentKey {
        /// Only views outside a chat screen see it; each `ChatScreen` puts its own decoder in the environment.
        static let defaultValue = PhotoDecoder()
    }

    private struct TranscriptWidthKey: EnvironmentKey {
        static let defaultValue: CGFloat = 0
    }

    private struct OpenPhotoKey: EnvironmentKey {
        static let defaultValue = OpenPhotoAction { _ in }
    }

    extension EnvironmentValues {
        /// How the chat looks (the host's appearance with the dashboard's laid over it).
        @_optimize(size) var chatAppearance: ChatAppearance {
            get { self[ChatAppearanceKey.self] }
            set { self[ChatAppearanceKey.self] = newValue }
        }

        /// Decodes photos at the size they are drawn, off the main actor, with the screen's cache.
        @_optimize(size) var photoDecoder: PhotoDecoder {
            get { self[PhotoDecoderKey.self] }
            set { self[PhotoDecoderKey.self] = newValue }
        }

        /// The width of a transcript row in points (spec 7.24 sizes photos against it); 0 before the first layout.
        @_optimize(size) var transcriptWidth: CGFloat {
            get { self[TranscriptWidthKey.self] }
            set { self[TranscriptWidthKey.self] = newValue }
        }

        /// Opens a confirmed photo in the full-screen viewer.
        @_optimize(size) var openPhoto: OpenPhotoAction {
            get { self[OpenPhotoKey.self] }
            set { self[OpenPhotoKey.self] = newValue }
        }
    }
#endif
