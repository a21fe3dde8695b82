import Foundation
import ReceptionCore

/// The SDK's log lines go to `<data>/reception-chat.log` instead of standard error, which shares the terminal with
/// the screen and would tear it.
final class LogFile: Sendable {
    private let handle: Locked<FileHandle?>

    init(path: String) {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let handle = FileHandle(forWritingAtPath: path)
        _ = try? handle?.seekToEnd()
        self.handle = Locked(handle)
    }

    func append(_ line: String) {
        handle.withLock { handle in
            try? handle?.write(contentsOf: Data((line + "\n").utf8))
        }
    }

    /// A `Reception.logHandler` writing `[Reception] level Category: message` lines to this file.
    var handler: @Sendable (LogLevel, String) -> Void {
        { [self] level, text in append("[Reception] \(level) \(text)") }
    }
}
