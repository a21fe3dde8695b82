import Foundation
import ReceptionEmulator
import ReceptionTesting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program running on the slave side of a pseudo-terminal, as a person's terminal would run it: its standard
/// input, output and error are the terminal, so `isatty` is true and it draws its full-screen view.
final class PseudoTerminal: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let master: Int32
    private let process: Subprocess
    private let output = EmulatorLock("")

    init(executable: URL, arguments: [String]) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else {
            throw Failure(description: "no pseudo-terminal available")
        }
        self.master = master
        do {
            process = try Subprocess(
                executable.path, arguments, standardInput: .descriptor(slave), standardOutput: .descriptor(slave),
                standardError: .descriptor(slave))
        } catch {
            close(slave)
            close(master)
            throw error
        }
        // Only the child keeps the slave side open now, so reading the master ends (EIO) when the child is gone.
        close(slave)
        let thread = Thread { [self] in readUntilClosed() }
        thread.start()
    }

    private func readUntilClosed() {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            let text = String(decoding: buffer[0..<count], as: UTF8.self)
            output.withLock { $0 += text }
        }
    }

    /// Everything the program wrote so far, escape sequences included.
    var rawOutput: String { output.withLock { $0 } }

    /// The screen as last drawn: the text after the last "clear screen", without escape sequences.
    var screen: String {
        let raw = rawOutput
        let frame = raw.components(separatedBy: "\u{1B}[H\u{1B}[2J").last ?? raw
        return frame.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\r", with: "")
    }

    /// For failure messages: whether the program runs and how much it wrote.
    var diagnosis: String {
        "running: \(process.isRunning), status: \(process.terminationStatus.map(String.init) ?? "none"), "
            + "output: \(rawOutput.debugDescription)"
    }

    /// Types a line, as a person pressing Return.
    func type(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits (polling every 50 ms) until the screen contains `text`; the last screen on timeout. The bound is
    /// generous because the suite's debug-build image tests can starve the app's process for minutes on two cores.
    func waitForScreen(containing text: String, seconds: Double = 300) async -> (found: Bool, screen: String) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let screen = self.screen
            if screen.contains(text) { return (true, screen) }
            if !process.isRunning { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        let screen = self.screen
        return (screen.contains(text), screen)
    }

    /// Waits for the program to exit; its status, or `nil` if it is still running after `seconds`.
    func waitForExit(seconds: Double = 10) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        return process.terminationStatus
    }

    /// Ends the program if it still runs and releases the terminal.
    func stop() {
        process.terminate(SIGKILL)
        process.waitUntilExit()
        close(master)
    }
}
