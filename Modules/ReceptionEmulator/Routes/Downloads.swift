import Digest

/// Plain downloads that the platform image loader makes without Reception headers (spec 3.17, 3.18): signed,
/// expiring links for attachment files and team photos (the signature in the query is their only authorisation),
/// and the answer carrying stored bytes.
extension EmulatorState {
    /// HMAC of `text` under the signing key, as hex (storage and download URL signatures).
    func signature(_ text: String) -> String {
        Hex.encode(HMACSHA256.authenticationCode(for: Array(text.utf8), key: Array(settings.signingKey.utf8)))
    }

    /// `<baseURL>/<route>/<id>?expires=&sig=`, valid for `lifetime` seconds from now. `purpose` is part of the
    /// signed text, so a signature made for one kind of link never opens another.
    func signedLink(route: String, purpose: String, id: String, lifetime: Double) -> String {
        // Clamped (and a non-finite sum made 0, an expired link) so the integer conversion cannot trap on any
        // configured lifetime.
        let end = now + lifetime
        let expires = end.isFinite ? Int64(min(max(end, 0), 9_000_000_000_000_000)) : 0
        return "\(baseURL)/\(route)/\(id)?expires=\(expires)&sig=\(signature("\(purpose):\(id):\(expires)"))"
    }

    /// Throws 403 `expired_link` unless `request` carries an unexpired signature made by ``signedLink`` for
    /// `purpose` and `id`.
    func checkSignedLink(_ request: HTTPRequest, purpose: String, id: String) throws(APIError) {
        guard hasValidSignature(request, purpose: purpose, id: id) else {
            throw APIError(403, "expired_link", "The link has expired or is not valid.")
        }
    }

    /// Whether `request` carries `expires` (the decimal digits ``signedLink`` wrote, nothing else) and `sig` made
    /// by ``signedLink`` for `purpose` and `id`, compared in constant time, and `expires` is still ahead.
    func hasValidSignature(_ request: HTTPRequest, purpose: String, id: String) -> Bool {
        guard let expiresText = request.query["expires"], let sig = request.query["sig"], !expiresText.isEmpty,
            expiresText.utf8.count <= 19, expiresText.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        else { return false }
        // Signed over the text as sent: `+5` or `05` are not what was signed, so they fail the comparison.
        let expected = signature("\(purpose):\(id):\(expiresText)")
        guard HMACSHA256.constantTimeEquals(Array(sig.utf8), Array(expected.utf8)) else { return false }
        return (Double(expiresText) ?? 0) > now
    }

    /// 200 with the `data` blob and `content_type` (else `defaultType`) of the first row of `sql`, or 404
    /// `not_found` "No such `what`." when there is none.
    func storedBytes(_ sql: String, _ arguments: [SQLValue], what: String, defaultType: String) throws -> HTTPResponse {
        guard let row = try db.row(sql, arguments), let data = row.blob("data") else {
            throw APIError(404, "not_found", "No such \(what).")
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", row.text("content_type") ?? defaultType)], body: .bytes(data))
    }
}
