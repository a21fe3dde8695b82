import Foundation
import ReceptionCore
import Testing
import Transport

@Suite("ServiceEndpointTests")
struct ServiceEndpointTests {
    // Spec 1.4 and spec 9 (ConfigurationTests).
    @Test(arguments: [
        ("app_AbCdEfGhIjKlMnOpQrStUv", true),
        ("app_0123456789012345678901", true),
        ("app_AbCdEfGhIjKlMnOpQrStU", false),
        ("app_AbCdEfGhIjKlMnOpQrStUvW", false),
        ("ids_AbCdEfGhIjKlMnOpQrStUv", false),
        ("pk_AbCdEfGhIjKlMnOpQrStUvWx", false),
        ("app_AbCdEfGhIjKlMnOpQrSt-", false),
        (" app_AbCdEfGhIjKlMnOpQrStUv", false),
        ("app_AbCdEfGhIjKlMnOpQrStUv ", false),
        ("app_AbCdEfGhIjKlMnOpQrStÜv", false),
        ("", false),
    ])
    func appIDFormat(appID: String, valid: Bool) {
        #expect(ServiceEndpoint.isValidAppID(appID) == valid)
    }

    @Test func anIdentitySecretIsRecognised() {
        #expect(ServiceEndpoint.looksLikeIdentitySecret("ids_abc"))
        #expect(!ServiceEndpoint.looksLikeIdentitySecret("app_abc"))
    }

    // Spec 1.1: the root path is normalised, the query appended verbatim.
    @Test(arguments: [
        ("https://reception.sh", "https://reception.sh/v1/conversation"),
        ("https://host/prefix/", "https://host/prefix/v1/conversation"),
        ("https://host//prefix//", "https://host/prefix/v1/conversation"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v1/conversation"),
    ])
    func urlsKeepTheRootPrefix(root: String, expected: String) throws {
        let endpoint = try ServiceEndpoint(appID: "app_AbCdEfGhIjKlMnOpQrStUv", root: URL(string: root)!)
        #expect(try endpoint.url(path: "conversation").absoluteString == expected)
        #expect(try endpoint.url(path: "conversation/messages", query: "after=41").absoluteString
                    == expected + "/messages?after=41")
    }

    @Test(arguments: ["ftp://host", "file:///tmp/x", "ws://host", "mailto:a@b"])
    func otherSchemesAreInvalidConfiguration(root: String) {
        #expect(throws: ReceptionError(code: "invalid_configuration")) {
            try ServiceEndpoint(appID: "app_AbCdEfGhIjKlMnOpQrStUv", root: URL(string: root)!)
        }
    }

    @Test func aMalformedAppIDIsInvalidConfiguration() {
        #expect(throws: ReceptionError(code: "invalid_configuration")) {
            try ServiceEndpoint(appID: "ids_secret", root: URL(string: "https://reception.sh")!)
        }
    }

    // Spec 3.15: letters and digits of any script and -_.~ stay; everything else is escaped.
    @Test func attachmentIDsAreOnePathSegment() {
        #expect(ServiceEndpoint.pathSegment("att_1-2.3~x") == "att_1-2.3~x")
        #expect(ServiceEndpoint.pathSegment("a/b?c d") == "a%2Fb%3Fc%20d")
        #expect(ServiceEndpoint.pathSegment("bild-ä٣") == "bild-ä٣")
        #expect(ServiceEndpoint.pathSegment("%") == "%25")
    }
}
