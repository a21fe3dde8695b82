import Observation
import ReceptionKit

/// The app's account coordinator: it connects each account event to ReceptionKit on the main actor (seed 000).
///
/// | Account event | ReceptionKit |
/// |---|---|
/// | launch with a saved user, sign-in | `identify(userId:name:email:)`, `setMetadata(_:)`, then `identify(token:)` |
/// | plan changes | `setMetadata(_:)` with the complete dictionary |
/// | sign-out | `logout()` |
/// | support data deleted | identity and metadata again, for the next chat |
@MainActor @Observable
final class AccountModel {
    private(set) var user: ExampleUser?
    private(set) var isFetchingToken = false
    private(set) var tokenError: String?

    private let store: AccountStore
    private let tokens: TokenServerClient

    init(store: AccountStore = AccountStore(), tokens: TokenServerClient) {
        self.store = store
        self.tokens = tokens
        user = store.load()
    }

    /// At launch: labels and custom fields of the saved user again. The session of the same user is kept; calling
    /// `logout()` here would discard its history.
    func restoreSupportIdentity() {
        guard let user else { return }
        stageSupportIdentity(of: user)
    }

    /// A verified user's token lives in memory only, so it is fetched on every launch and after sign-in.
    func refreshVerifiedIdentity() async {
        guard let user, user.isVerified else { return }
        isFetchingToken = true
        defer { isFetchingToken = false }
        do {
            let token = try await tokens.token(for: user.id)
            // A sign-out or another sign-in while waiting must not receive this user's token.
            guard self.user?.id == user.id else { return }
            Reception.shared.identify(token: token)
            tokenError = nil
        } catch {
            tokenError = error.localizedDescription
        }
    }

    /// An expired token is replaced with a fresh one; other rejections need the server's configuration fixed.
    func observeSupportEvents() {
        Reception.shared.onEvent = { [weak self] event in
            guard case .identityRejected(let error) = event else { return }
            if error.code == "identity_token_expired" {
                Task { await self?.refreshVerifiedIdentity() }
            } else {
                self?.tokenError = "Reception rejected the identity token (\(error.code))."
            }
        }
    }

    /// Signs in after the app's own sign-in succeeded. A guest chat on this device carries over to the signed-in
    /// user, as the same person keeps using the app.
    func signIn(userId: String, name: String?, email: String?, verified: Bool) async {
        let user = ExampleUser(id: userId, name: name, email: email, isVerified: verified)
        self.user = user
        store.save(user)
        stageSupportIdentity(of: user)
        // `logout()` cleared the staged push token at the last sign-out: forward it again.
        await registerForPushIfAuthorized()
        await refreshVerifiedIdentity()
    }

    func setPlan(_ plan: ExampleUser.Plan) {
        guard var user, user.plan != plan else { return }
        user.plan = plan
        self.user = user
        store.save(user)
        Reception.shared.setMetadata(user.supportMetadata)
    }

    /// Sign-out: the support session ends with the app's, so the next person on this device starts a new chat.
    func signOut() {
        Reception.shared.logout()
        user = nil
        tokenError = nil
        store.remove()
    }

    /// After `deleteData()` completed the SDK is reset like after a logout; the person is still signed in, so the
    /// next chat carries their identity, custom fields and push token again.
    func supportDataDeleted() async {
        restoreSupportIdentity()
        await registerForPushIfAuthorized()
        await refreshVerifiedIdentity()
    }

    private func stageSupportIdentity(of user: ExampleUser) {
        Reception.shared.identify(userId: user.id, name: user.name, email: user.email)
        Reception.shared.setMetadata(user.supportMetadata)
    }
}
