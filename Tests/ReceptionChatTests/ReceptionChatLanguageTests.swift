import Foundation
import ReceptionEmulator
import Testing

/// `reception-chat --language TAG` and `/language TAG` through a pseudo-terminal (issue 20): the chat's texts in the
/// chosen language, the device reporting it to the service, right to left shown right-aligned in an isolate.
@Suite("ReceptionChatLanguageTests", .serialized)
struct ReceptionChatLanguageTests {
    @Test("--language de shows the chat in German and reports de; /language ar switches at once to right to left")
    func germanThenArabic() async throws {
        let executable = ReceptionChatTerminalTests.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable.path))
        let (directory, emulator, service) = try ReceptionChatTerminalTests.startEmulator()
        defer { ReceptionChatTerminalTests.stop(emulator, directory) }
        let terminal = try PseudoTerminal(executable: executable, arguments: [
            "--service", service, "--app-id", emulator.credentials.appId,
            "--data", directory.appendingPathComponent("app").path, "--language", "de",
        ])
        defer { terminal.stop() }

        let opened = await terminal.waitForScreen(containing: "Wie können wir helfen?")
        #expect(opened.found, "the German welcome never showed; the screen shows:\n\(opened.screen)")
        #expect(opened.screen.contains("Kundensupport · anonymous · chat open"))
        #expect(opened.screen.contains("unread 0 · de"))
        #expect(opened.screen.contains("Schreib uns eine Nachricht, wir antworten hier."))

        terminal.type("Hallo aus dem Terminal")
        let sent = await terminal.waitForScreen(containing: "1  you: Hallo aus dem Terminal — Gesendet")
        #expect(sent.found, "the message never showed Gesendet; the screen shows:\n\(sent.screen)")
        let admin = AdminClient(root: service, token: emulator.credentials.adminToken)
        let devices = try await admin.get("devices")["devices"] as? [[String: Any]] ?? []
        #expect(devices.first?["language"] as? String == "de", "the device reports the override: \(devices)")

        terminal.type("/language ar")
        let arabic = await terminal.waitForScreen(containing: "(right to left)")
        #expect(arabic.found, "the switch never showed; the screen shows:\n\(arabic.screen)")
        #expect(arabic.screen.contains("\u{2067}  1  you: Hallo aus dem Terminal — تم الإرسال\u{2069}"))
        #expect(arabic.screen.contains("chat language ar, right to left"))

        terminal.type("/language en")
        #expect(await terminal.waitForScreen(containing: "— Sent").found, "\(terminal.diagnosis)")
        terminal.type("/quit")
        #expect(await terminal.waitForExit() == 0)
    }
}
