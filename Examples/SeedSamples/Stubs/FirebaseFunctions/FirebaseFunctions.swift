// A stand-in for Cloud Functions for Firebase (see ../README.md): only what seed 000's Firebase sample uses.
import Foundation

/// The stubs' only failure: nothing is linked behind them.
public struct StubNotLinked: Error {}

/// A typed reference to a callable function.
public struct Callable<Request: Encodable, Response: Decodable>: Sendable {
    /// The function's name.
    public let name: String

    /// Calls the function with `data`; a stub always throws.
    public func call(_ data: Request) async throws -> Response {
        throw StubNotLinked()
    }
}

/// The Cloud Functions entry point.
public final class Functions: Sendable {
    private static let shared = Functions()

    /// The default app's instance.
    public static func functions() -> Functions { shared }

    /// A typed callable named `name`.
    public func httpsCallable<Request: Encodable, Response: Decodable>(
        _ name: String, requestAs: Request.Type = Request.self, responseAs: Response.Type = Response.self
    ) -> Callable<Request, Response> {
        Callable(name: name)
    }
}
