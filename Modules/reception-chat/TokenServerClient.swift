import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches a verified identity token from the host's backend (seed 000: the identity secret stays on the server;
/// the app only ever sees signed tokens). The demo's backend is `scripts/token-server`.
struct TokenServerClient: Sendable {
    var root: URL

    enum Failure: Error, CustomStringConvertible {
        case badURL
        case status(Int)
        case unreadable
        case transport(String)

        var description: String {
            switch self {
            case .badURL: "the token server URL is not usable"
            case .status(let code): "the token server answered HTTP \(code)"
            case .unreadable: "the token server's answer has no token"
            case .transport(let message): "the token server is unreachable (\(message))"
            }
        }
    }

    /// `GET /token?user=NAME` → `{"token": "..."}`.
    func token(for user: String) async throws(Failure) -> String {
        guard var components = URLComponents(url: root.appendingPathComponent("token"), resolvingAgainstBaseURL: false)
        else { throw .badURL }
        components.queryItems = [URLQueryItem(name: "user", value: user)]
        guard let url = components.url else { throw .badURL }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await URLSession.shared.data(from: url)
        } catch {
            throw .transport(String(describing: error))
        }
        if let http = response as? HTTPURLResponse, http.statusCode != 200 { throw .status(http.statusCode) }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let token = object["token"] as? String, !token.isEmpty
        else { throw .unreadable }
        return token
    }
}
