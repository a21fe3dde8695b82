import Foundation
import ReceptionTesting
import Testing

/// Identity tokens made by PyJWT (an implementation independent of the emulator), run as `python3 -c` during
/// test setup, plus hand-built variants PyJWT refuses to make (a swapped algorithm header signed with HS256).
enum IdentityTokenMinter {
    private static let script = """
        import base64, hashlib, hmac, json, sys
        import jwt
        mode, secret, claims = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
        def b64(data):
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
        if mode == "HS256":
            print(jwt.encode(claims, secret, algorithm="HS256"))
        elif mode == "HS384":
            print(jwt.encode(claims, secret, algorithm="HS384"))
        elif mode == "none":
            print(jwt.encode(claims, None, algorithm="none"))
        elif mode == "RS256-header":
            head = b64(json.dumps({"alg": "RS256", "typ": "JWT"}).encode())
            body = b64(json.dumps(claims).encode())
            mac = hmac.new(secret.encode(), (head + "." + body).encode(), hashlib.sha256).digest()
            print(head + "." + body + "." + b64(mac))
        """

    /// A token for `claims` made with `mode`: `HS256`, `HS384`, `none` or `RS256-header`.
    static func mint(_ claims: [String: Any], secret: String, mode: String = "HS256") throws -> String {
        let claimsText = String(decoding: try JSONSerialization.data(withJSONObject: claims), as: UTF8.self)
        let result = try ChildProcess.run(["python3", "-c", script, mode, secret, claimsText])
        try #require(result.status == 0, "python3 with PyJWT is needed (make install): \(result.errorOutput)")
        return result.text
    }
}
