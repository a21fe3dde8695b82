import Foundation

// Processes exist on macOS and Linux only (see `Subprocess`): on iOS, tvOS, watchOS and visionOS this file
// compiles to nothing, so a host's iOS test target can link ReceptionTesting (Docs/Apple.md).
#if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))

/// Runs a helper program for a test (PyJWT, hashlib, a reference decoder) and returns what it printed.
///
/// Input and output go through temporary files, not pipes. A `Subprocess` child closes what it inherits on Linux,
/// but on macOS it keeps every descriptor that is not close-on-exec, so a child started by another test while a
/// pipe is open could hold its write end and the reader would wait for an end that never comes. A file has no end
/// to wait for: the run waits for the helper to exit, then reads what it wrote.
package enum ChildProcess {
    /// What a run produced.
    package struct Result: Sendable {
        /// The exit status.
        package var status: Int32
        /// Standard output.
        package var output: Data
        /// Standard error.
        package var errorOutput: Data
        /// Standard output as text without surrounding whitespace.
        package var text: String {
            String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Runs `arguments[0]` (looked up on the PATH) with the rest as its arguments, feeding it `input`.
    package static func run(_ arguments: [String], input: Data = Data()) throws -> Result {
        guard let executable = arguments.first else { throw Subprocess.StartFailure(description: "no program named") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputURL = folder.appendingPathComponent("in")
        let outputURL = folder.appendingPathComponent("out")
        let errorURL = folder.appendingPathComponent("err")
        try input.write(to: inputURL)
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let handles = try [
            FileHandle(forReadingFrom: inputURL), FileHandle(forWritingTo: outputURL), FileHandle(forWritingTo: errorURL),
        ]
        defer { for handle in handles { try? handle.close() } }
        let child = try Subprocess(
            executable, Array(arguments.dropFirst()), standardInput: .descriptor(handles[0].fileDescriptor),
            standardOutput: .descriptor(handles[1].fileDescriptor), standardError: .descriptor(handles[2].fileDescriptor))
        let status = child.waitUntilExit()
        return Result(
            status: status, output: try Data(contentsOf: outputURL), errorOutput: try Data(contentsOf: errorURL))
    }

    /// Runs a Python 3 script with `arguments` and returns its trimmed standard output.
    package static func python(_ script: String, _ arguments: [String] = [], input: Data = Data()) throws -> String {
        try run(["python3", "-c", script] + arguments, input: input).text
    }
}

#endif
