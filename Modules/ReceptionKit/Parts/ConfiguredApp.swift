import Identity
import PushRouting
import ReceptionCore
import Transport
import Unread

/// What one accepted `configure(appId:)` established, owned as a whole: the configuration and App ID and the service
/// endpoint, recorded by `configure` itself, and the parts built once the launch's storage is prepared (`parts`,
/// `nil` until then; `LaunchState`). Only `configure` replaces it and only the launch's finish sets its parts;
/// everything else reads it through the facade. A class: it is never copied, and as a struct holding the whole
/// configuration its copy, move and destroy functions cost the app 7 kB (Docs/Footprint.md).
final class ConfiguredApp {
    /// The parts the host passed (or the defaults).
    let configuration: ReceptionConfiguration
    /// The accepted App ID.
    let appID: String
    /// Where requests go, built from the App ID and the service root.
    let endpoint: ServiceEndpoint
    /// What the launch built from the data folder; `nil` while it is being prepared.
    var parts: ConfiguredParts?

    @_optimize(size) init(configuration: ReceptionConfiguration, appID: String, endpoint: ServiceEndpoint) {
        self.configuration = configuration
        self.appID = appID
        self.endpoint = endpoint
    }
}

/// The parts of a configuration that live as long as it does (sessions come and go under them), built when the
/// launch's storage is ready. A class: it is made once and only read, and as a struct it carried its own copy, move
/// and destroy functions (Docs/Footprint.md, "Size on iOS").
final class ConfiguredParts {
    /// The data folder's plain preferences (`preferences.json`).
    let preferences: FilePreferences
    /// The session scopes of each App ID in those preferences (spec 7.1 step 5, logout rotation).
    let namespaces: StorageNamespaces
    /// Who the user is, staged until a session can send it (spec 7.17).
    let stager: IdentityStager
    /// The unread count's polling, badge and notification cleanup (spec 7.11).
    let unreadMonitor: UnreadMonitor
    /// Push token staging and payload routing (spec 7.16).
    let pushRouter: PushRouter

    @_optimize(size) init(
        preferences: FilePreferences, namespaces: StorageNamespaces, stager: IdentityStager,
        unreadMonitor: UnreadMonitor, pushRouter: PushRouter
    ) {
        self.preferences = preferences
        self.namespaces = namespaces
        self.stager = stager
        self.unreadMonitor = unreadMonitor
        self.pushRouter = pushRouter
    }
}
