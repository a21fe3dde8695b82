import Foundation

/// spec 3.16–3.17: the published appearance with `ETag`/304, and its images.
extension EmulatorState {
    /// The appearance's entity tag: changes with every publication.
    var appearanceTag: String { "\"appearance-\(settings.appearanceRevision)\"" }

    /// `GET /v1/appearance` (spec 3.16, 8.1.11): `{schemaVersion: 1, revision, appearance}` with `ETag`, or 304
    /// when `If-None-Match` names the current tag. Never `chat_reset`.
    func appearance(_ request: HTTPRequest) throws -> HTTPResponse {
        if let tags = request.header("if-none-match"),
            tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == appearanceTag })
        {
            return HTTPResponse(status: 304, headers: [("ETag", appearanceTag)])
        }
        let appearance = (try? JSONValue.parse(settings.appearance)) ?? .object([:])
        return .json(
            200,
            ["schemaVersion": 1, "revision": .int(Int64(settings.appearanceRevision)), "appearance": appearance],
            headers: [("ETag", appearanceTag), ("Cache-Control", "no-cache")])
    }

    /// `GET /v1/appearance/images/<uuid>` (spec 3.17): no Reception headers needed.
    func appearanceImage(id: String) throws -> HTTPResponse {
        try storedBytes(
            "SELECT content_type, data FROM appearance_images WHERE id = ?", [.text(id.lowercased())], what: "image",
            defaultType: "image/png")
    }
}
