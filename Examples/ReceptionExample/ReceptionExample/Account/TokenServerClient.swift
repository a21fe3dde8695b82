import Foundation

/// Fetches identity tokens from the app's backend. Here the backend is `scripts/token-server`, which answers
/// `GET /token?user=ID` with `{"token": "…"}`. A real endpoint requires the app's own sign-in and takes the user from
/// that session, never from the request; the identity secret stays on the server.
struct TokenServerClient {
    var baseURL: URL?
    var session: URLSession = .shared

    enum Failure: LocalizedError {
        case notConfigured
        case status(Int)

        var errorDescription: String? {
            switch self {
            case .notConfigured: "The token server setting is not a URL."
            case .status(let code): "The token server answered HTTP \(code)."
            }
        }
    }

    private struct Response: Decodable {
        let token: String
    }

    func token(for userId: String) async throws -> String {
        guard let baseURL else { throw Failure.notConfigured }
        let url = baseURL.appending(path: "token").appending(queryItems: [URLQueryItem(name: "user", value: userId)])
        let (data, response) = try await session.data(from: url)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw Failure.status(status) }
        return try JSONDecoder().decode(Response.self, from: data).token
    }
}
