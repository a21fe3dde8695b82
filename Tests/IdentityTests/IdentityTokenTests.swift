import Foundation
import Identity
import ReceptionCore
import Testing

/// Spec 7.14.3 steps 2–3 and §9 `IdentityTokenTests`: which user a token names, read locally.
@Suite struct IdentityTokenTests {
    /// `user_id` claims as a JSON encoder writes them (PyJWT), and the user ID the client must read (`nil`:
    /// the token is ignored).
    static let mintedVectors: [(claim: String, expected: String?)] = [
        (#""user-42""#, "user-42"),
        (#"" spaced  id ""#, " spaced  id "),
        (#""Zoë 🙂 ユーザー""#, "Zoë 🙂 ユーザー"),
        (#""e\u0301""#, "e\u{301}"),
        ("42", "42"),
        ("0", "0"),
        ("-7", "-7"),
        ("42.0", "42"),
        ("1e3", "1000"),
        ("-0.0", "0"),
        ("9007199254740991", "9007199254740991"),
        ("-9007199254740991", "-9007199254740991"),
        ("9007199254740992", nil),
        ("-9007199254740992", nil),
        ("42.5", nil),
        ("true", nil),
        ("false", nil),
        ("null", nil),
        ("[]", nil),
        (#"["a"]"#, nil),
        ("{}", nil),
        (#"{"id":"a"}"#, nil),
        (#""""#, nil),
        ("\"" + String(repeating: "a", count: 255) + "\"", String(repeating: "a", count: 255)),
        ("\"" + String(repeating: "a", count: 256) + "\"", nil),
        ("\"" + String(repeating: "🙂", count: 127) + "\"", String(repeating: "🙂", count: 127)),
        ("\"" + String(repeating: "🙂", count: 128) + "\"", nil),
    ]

    @Test func pyJWTTokensYieldTheSpecifiedUserIds() throws {
        let claims = Self.mintedVectors.map { #"{"user_id":\#($0.claim),"exp":4102444800,"name":"N"}"# }
        let tokens = try Tokens.minted(claims)
        for (vector, token) in zip(Self.mintedVectors, tokens) {
            let read = try? IdentityTokenInspector.userId(of: token).get()
            #expect(read == vector.expected, "user_id \(vector.claim)")
            if vector.expected == nil {
                #expect(IdentityTokenInspector.userId(of: token) == .failure(.unreadableUserId))
            }
        }
    }

    @Test func subInsteadOfUserIdIsIgnored() throws {
        let token = try Tokens.minted(#"{"sub":"alice","exp":4102444800}"#)
        #expect(IdentityTokenInspector.userId(of: token) == .failure(.unreadableUserId))
    }

    /// Literals only a hand-written payload can contain: the exact number text matters (spec 7.14.3 step 3).
    @Test(arguments: [
        ("1e3", "1000"), ("1E3", "1000"), ("1e+3", "1000"), ("4.2e1", "42"), ("-0", "0"), ("0e7", "0"),
        ("420e-1", "42"), ("-9.007199254740991e15", "-9007199254740991"),
        ("1e400", nil), ("1E400", nil), ("-1e400", nil), ("1e-400", nil), ("1e-2", nil), ("9007199254740993", nil),
        ("42.0000000000000000001", nil), ("1e15", "1000000000000000"), ("1e16", nil),
        ("1e99999999999999999999", nil),
    ] as [(String, String?)])
    func numberLexemes(literal: String, expected: String?) {
        let token = Tokens.handBuilt(#"{"user_id":\#(literal)}"#)
        #expect((try? IdentityTokenInspector.userId(of: token).get()) == expected)
    }

    @Test(arguments: [
        #"{"user_id":01}"#, #"{"user_id":+1}"#, #"{"user_id":1.}"#, #"{"user_id":.5}"#, #"{"user_id":NaN}"#,
        #"{"user_id":Infinity}"#, #"{"user_id":"a",}"#, #"{"user_id":"a"} x"#, #"{"user_id":'a'}"#,
        #"{"user_id":"a\x"}"#, #"{"user_id":"\ud800"}"#, #"{"user_id":"\udc00\ud800"}"#, "{\"user_id\":\"a\tb\"}",
        #"[{"user_id":"a"}]"#, #""a""#, "7", "", "null", #"{"user_id":tru}"#,
    ])
    func payloadsThatAreNotOneJSONObjectAreIgnored(payload: String) {
        #expect(IdentityTokenInspector.userId(of: Tokens.handBuilt(payload)) == .failure(.payloadNotJSONObject))
    }

    /// A bad continuation, an overlong `/`, an encoded surrogate, a code point above U+10FFFF, a truncated
    /// sequence, a lone continuation byte.
    @Test(arguments: [[0xC3, 0x28], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]]
        as [[UInt8]])
    func invalidUTF8InTheStringIsIgnored(invalid: [UInt8]) {
        let bytes = Array(#"{"user_id":"a"#.utf8) + invalid + Array(#"b"}"#.utf8)
        #expect(IdentityTokenInspector.userId(of: Tokens.handBuilt(bytes: bytes)) == .failure(.payloadNotJSONObject))
    }

    @Test func rawMultiByteUTF8InTheStringIsRead() throws {
        let bytes = Array(#"{"user_id":"a"#.utf8) + [0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x99, 0x82] + Array(#"b"}"#.utf8)
        #expect(try IdentityTokenInspector.userId(of: Tokens.handBuilt(bytes: bytes)).get() == "aé€🙂b")
    }

    @Test func escapesAndWhitespaceAreRead() throws {
        let token = Tokens.handBuilt(" \n{ \"exp\" : 1 , \"user_id\" : \"a\\\"b\\\\c\\/d\\u00e9\\ud83d\\ude42\" }\r\n")
        #expect(try IdentityTokenInspector.userId(of: token).get() == "a\"b\\c/dé🙂")
    }

    @Test func otherClaimsMayHoldAnyJSON() throws {
        let token = Tokens.handBuilt(#"{"a":[1,{"b":[true,false,null,-1.5e-3]}],"c":{},"d":[],"user_id":"u"}"#)
        #expect(try IdentityTokenInspector.userId(of: token).get() == "u")
    }

    @Test func aRepeatedUserIdKeepsTheLastValue() throws {
        #expect(try IdentityTokenInspector.userId(of: Tokens.handBuilt(#"{"user_id":"a","user_id":"b"}"#)).get() == "b")
    }

    @Test func nestingBeyondTheDepthLimitIsRefused() {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(IdentityTokenInspector.userId(of: Tokens.handBuilt(#"{"x":\#(deep),"user_id":"u"}"#))
                == .failure(.payloadNotJSONObject))
        let shallow = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
        #expect((try? IdentityTokenInspector.userId(of: Tokens.handBuilt(#"{"x":\#(shallow),"user_id":"u"}"#)).get()) == "u")
    }

    // MARK: Structure

    @Test(arguments: [
        ("a.b", IdentityTokenInspector.Refusal.notThreeParts), ("a.b.c.d", .notThreeParts), ("", .notThreeParts),
        ("nodots", .notThreeParts), ("..", .payloadNotJSONObject), ("a..c", .payloadNotJSONObject),
        ("a.e30+.c", .payloadNotBase64URL), ("a.e30/.c", .payloadNotBase64URL), ("a.e30==.c", .payloadNotBase64URL),
        ("a.e.c", .payloadNotBase64URL), ("a.e3 0.c", .payloadNotBase64URL),
    ])
    func malformedStructure(token: String, refusal: IdentityTokenInspector.Refusal) {
        #expect(IdentityTokenInspector.userId(of: token) == .failure(refusal))
    }

    @Test func emptyHeaderAndSignaturePartsStillCount() throws {
        let token = Tokens.handBuilt(#"{"user_id":"u"}"#)
        let middle = token.split(separator: ".")[1]
        #expect(try IdentityTokenInspector.userId(of: ".\(middle).").get() == "u")
    }

    @Test func base64URLWithOrWithoutPadding() throws {
        // 16 bytes of JSON: the unpadded encoding needs two "=" to be padded.
        let json = #"{"user_id":"ab"}"#
        #expect(json.utf8.count % 3 == 1)
        let unpadded = Tokens.handBuilt(json)
        let parts = unpadded.split(separator: ".", omittingEmptySubsequences: false)
        let padded = "\(parts[0]).\(parts[1])==.\(parts[2])"
        #expect(try IdentityTokenInspector.userId(of: unpadded).get() == "ab")
        #expect(try IdentityTokenInspector.userId(of: padded).get() == "ab")
        #expect(IdentityTokenInspector.userId(of: "\(parts[0]).\(parts[1])=.\(parts[2])") == .failure(.payloadNotBase64URL))
        #expect(IdentityTokenInspector.userId(of: "\(parts[0]).\(parts[1])===.\(parts[2])") == .failure(.payloadNotBase64URL))
    }

    @Test func theLengthLimitIs4096UTF16Units() throws {
        let base = Tokens.handBuilt(#"{"user_id":"u"}"#)
        let atLimit = base + String(repeating: "A", count: 4096 - base.utf16.count)
        #expect(atLimit.utf16.count == 4096)
        #expect(try IdentityTokenInspector.userId(of: atLimit).get() == "u")
        #expect(IdentityTokenInspector.userId(of: atLimit + "A") == .failure(.tooLong))
        // An emoji in the signature counts two units.
        let emoji = base + String(repeating: "A", count: 4095 - base.utf16.count - 1) + "🙂"
        #expect(emoji.utf16.count == 4096)
        #expect(IdentityTokenInspector.userId(of: emoji + "A") == .failure(.tooLong))
    }

    @Test func theIdentitySecretIsRefused() throws {
        #expect(IdentityTokenInspector.userId(of: "ids_0123456789abcdef") == .failure(.identitySecret))
        let valid = try Tokens.forUser("alice")
        #expect(IdentityTokenInspector.userId(of: "ids_" + valid) == .failure(.identitySecret))
        #expect(try IdentityTokenInspector.userId(of: valid).get() == "alice")
    }

    @Test func stagedTokensStartUnsent() throws {
        let fixture = StagerFixture()
        #expect(fixture.stager.identify(token: try Tokens.forUser("alice")) == .staged)
        let staged = try #require(fixture.stager.stagedToken)
        #expect(staged.state == .unsent)
        #expect(staged.userId == "alice")
    }
}
