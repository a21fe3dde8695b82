import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the screen goes. On a terminal: the alternate screen, redrawn whole on every change (each frame starts
/// with "clear"). Otherwise: plain lines, printing only the lines that are new or changed since the last frame.
@MainActor
final class Terminal {
    static let clear = "\u{1B}[H\u{1B}[2J"
    let fullScreen: Bool
    private var lastLines: [String] = []

    init(fullScreen: Bool) {
        self.fullScreen = fullScreen
        if fullScreen {
            write("\u{1B}[?1049h")
            installRestoreOnSignal()
        }
    }

    /// Shows `lines`, unless they are what is already shown.
    func show(_ lines: [String]) {
        guard lines != lastLines else { return }
        defer { lastLines = lines }
        if fullScreen {
            write(Terminal.clear + lines.joined(separator: "\n") + "\n> ")
        } else {
            let previous = Set(lastLines)
            let fresh = lines.filter { !previous.contains($0) }
            if !fresh.isEmpty { write(fresh.joined(separator: "\n") + "\n") }
        }
    }

    /// Leaves the alternate screen, printing the last frame on the normal one so it stays in the scrollback.
    func finish() {
        guard fullScreen else { return }
        write("\u{1B}[?1049l" + lastLines.joined(separator: "\n") + "\n")
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    nonisolated static func isTerminal() -> Bool { isatty(STDOUT_FILENO) == 1 }
}

/// A signal that ends the app leaves the alternate screen first (a plain C function, not a closure in main.swift).
private func restoreScreenAndExit(_ signal: Int32) {
    let restore = "\u{1B}[?1049l"
    _ = restore.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
    _exit(128 + signal)
}

private func installRestoreOnSignal() {
    signal(SIGINT, restoreScreenAndExit)
    signal(SIGTERM, restoreScreenAndExit)
    signal(SIGHUP, restoreScreenAndExit)
}
