import Foundation
import ReceptionKit

/// Where the example app finds Reception: a local emulator by default (Docs/Emulator.md).
///
/// Each value can be replaced without editing code through the run scheme's environment variables (Product > Scheme >
/// Edit Scheme > Run > Arguments), named as `make chat` names them: `RECEPTION_APP_ID`, `RECEPTION_SERVICE` and
/// `RECEPTION_TOKEN_SERVER`.
struct ExampleSettings {
    /// The App ID the emulator prints at its first start (`app_` and 22 letters and digits). Until it is set,
    /// `Reception.configure` refuses it and the Home tab says so.
    var appId = "app_PASTE_THE_EMULATORS_APP_ID"
    /// The emulator's root: `swift run reception-emulator --port 8080 --data /tmp/emulator`.
    var serviceRoot = "http://127.0.0.1:8080"
    /// The stand-in for your backend that signs identity tokens: `scripts/token-server --port 8081`.
    var tokenServer = "http://127.0.0.1:8081"

    /// The defaults, with what the run scheme's environment replaces.
    static var current: ExampleSettings {
        var settings = ExampleSettings()
        let environment = ProcessInfo.processInfo.environment
        if let appId = environment["RECEPTION_APP_ID"], !appId.isEmpty { settings.appId = appId }
        if let root = environment["RECEPTION_SERVICE"], !root.isEmpty { settings.serviceRoot = root }
        if let tokens = environment["RECEPTION_TOKEN_SERVER"], !tokens.isEmpty { settings.tokenServer = tokens }
        return settings
    }

    /// The standard SDK pointed at `serviceRoot`. Debug builds accept any root; release builds only the hosted
    /// service and this machine, so a shipped app cannot be pointed elsewhere.
    var receptionConfiguration: ReceptionConfiguration {
        var configuration = ReceptionConfiguration()
        if let root = URL(string: serviceRoot) {
            configuration.serviceRoot = root
        }
        return configuration
    }

    /// The token server's root, or `nil` when the setting is not a URL (verified sign-in then reports it).
    var tokenServerURL: URL? { URL(string: tokenServer) }
}
