import Digest
import Foundation
import ReceptionCore

/// Where the service is and which app is talking to it (spec 1.1, 1.4).
public struct ServiceEndpoint: Sendable, Hashable {
    /// The hosted service.
    public static let hostedRoot = URL(string: "https://reception.sh")

    /// The validated App ID.
    public let appID: String
    /// The root URL: scheme, host, port and normalised path prefix.
    public let root: URL
    /// `scheme://host[:port]/prefix/v1/`, built once: every request appends its path to it.
    private let apiBase: String

    /// An endpoint for `appID` at `root`. Throws `invalid_configuration` for an App ID that is not
    /// `app_` + 22 ASCII letters or digits, or a root whose scheme is not http or https.
    @inline(never) @_optimize(size) public init(appID: String, root: URL) throws(ReceptionError) {
        guard Self.isValidAppID(appID) else { throw ReceptionError(code: ReceptionError.Code.invalidConfiguration) }
        guard let scheme = root.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let components = URLComponents(url: root, resolvingAgainstBaseURL: false), components.host != nil
        else { throw ReceptionError(code: ReceptionError.Code.invalidConfiguration) }
        self.appID = appID
        self.root = root
        var base = components
        base.percentEncodedPath = ""
        base.percentEncodedQuery = nil
        base.fragment = nil
        // The root's non-empty path segments, each followed by "/" (`TextPieces`, not `split`: Docs/Footprint.md).
        var prefix = ""
        for segment in TextPieces.split(Substring(components.percentEncodedPath), at: "/") where !segment.isEmpty {
            prefix += segment + "/"
        }
        self.apiBase = (base.string ?? root.absoluteString) + "/" + prefix + "v1/"
    }

    /// Spec 1.4: exactly `^app_[A-Za-z0-9]{22}$`, no surrounding whitespace.
    @inline(never) @_optimize(size) public static func isValidAppID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 26, bytes.starts(with: Array("app_".utf8)) else { return false }
        return bytes.dropFirst(4).allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// Spec 1.4: a value that looks like the identity secret, which must never be shipped in an app.
    @_optimize(size) public static func looksLikeIdentitySecret(_ text: String) -> Bool { text.hasPrefix("ids_") }

    /// `<root path segments>/v1/<path>` with `query` appended verbatim (already percent-encoded).
    @inline(never) @_optimize(size) public func url(path: String, query: String? = nil) throws(ReceptionError) -> URL {
        // The path's non-empty segments joined by "/".
        var text = apiBase
        var first = true
        for segment in TextPieces.split(Substring(path), at: "/") where !segment.isEmpty {
            if !first { text += "/" }
            text += segment
            first = false
        }
        if let query { text += "?" + query }
        guard let url = URL(string: text) else { throw ReceptionError(code: ReceptionError.Code.invalidURL) }
        return url
    }

    /// Spec 3.15: an attachment ID as one path segment: letters and digits of any script and `-_.~` stay, every
    /// other byte is percent-encoded.
    @inline(never) @_optimize(size) public static func pathSegment(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal
                || value == 0x2D || value == 0x5F || value == 0x2E || value == 0x7E  // - _ . ~
            {
                out.unicodeScalars.append(scalar)
            } else {
                // Each UTF-8 byte as %XX, without `String(format:)`'s variadic machinery.
                Unicode.UTF8.encode(scalar) { byte in Hex.percentEncode(byte, to: &out) }
            }
        }
        return out
    }

    /// Hashes the App ID only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(appID) }
}
