// A host writes `import ReceptionKit` and nothing else — seed 000's samples catch `ReceptionError` that way. The
// vocabulary (errors, events, the protocols a host implements to replace a part) and the chat model's types
// (`ChatModel`, `ChatMessage`, `ComposerState`, …) come with it, and on iOS the chat's SwiftUI screen,
// `ReceptionChatView` (ReceptionUI is empty on platforms without SwiftUI and UIKit).
@_exported import Conversation
@_exported import ReceptionCore
@_exported import ReceptionUI
