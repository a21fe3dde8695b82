// A stand-in for supabase-swift (see ../README.md): only what seed 000's Supabase sample uses.
import Foundation

/// The stubs' only failure: nothing is linked behind them.
public struct StubNotLinked: Error {}

/// A signed-in Supabase user.
public struct User: Sendable {
    /// The user's ID.
    public let id: UUID
}

/// Supabase Auth.
public final class AuthClient: Sendable {
    /// The signed-in user; a stub has none.
    public var currentUser: User? { nil }
}

/// How an Edge Function is invoked.
public struct FunctionInvokeOptions: Sendable {
    public init() {}
}

/// Supabase Edge Functions.
public final class FunctionsClient: Sendable {
    /// Invokes the Edge Function `functionName` and decodes its answer; a stub always throws.
    public func invoke<Response: Decodable>(
        _ functionName: String, options: FunctionInvokeOptions = FunctionInvokeOptions()
    ) async throws -> Response {
        throw StubNotLinked()
    }
}

/// The Supabase client.
public final class SupabaseClient: Sendable {
    public let auth = AuthClient()
    public let functions = FunctionsClient()

    public init(supabaseURL: URL, supabaseKey: String) {}
}
