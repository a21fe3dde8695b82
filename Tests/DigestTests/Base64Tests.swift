import Digest
import Testing

@Suite("Base64Tests")
struct Base64Tests {
    // RFC 4648 §10 test vectors.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Standard(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func urlAlphabetUsesDashAndUnderscoreWithoutPadding() {
        let bytes: [UInt8] = [0xfb, 0xff, 0xbf]
        #expect(Base64.encode(bytes) == "+/+/")
        #expect(Base64.encode(bytes, alphabet: .url) == "-_-_")
        #expect(Base64.encode([0xfb, 0xff], alphabet: .url) == "-_8")
        #expect(Base64.decode("-_8", alphabet: .url) == [0xfb, 0xff])
        #expect(Base64.decode("-_8=", alphabet: .url) == [0xfb, 0xff], "padding is optional for Base64URL")
    }

    @Test(arguments: ["Zg=", "Z", "Zm9v!", "Zm9vYg===", "-_8=", "Zh==", "====", "Zm=9"])
    func malformedStandardInputIsRejected(text: String) {
        #expect(Base64.decode(text) == nil)
    }

    @Test(arguments: ["+/8", "a", "ab=c", "Zh"])
    func malformedURLInputIsRejected(text: String) {
        #expect(Base64.decode(text, alphabet: .url) == nil)
    }

    @Test func roundTripsEveryLength() {
        for length in 0..<70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            for alphabet in [Base64.Alphabet.standard, .url] {
                #expect(Base64.decode(Base64.encode(bytes, alphabet: alphabet), alphabet: alphabet) == bytes)
            }
        }
    }

    @Test func hexIsLowerCaseTwoCharactersPerByte() {
        #expect(Hex.encode([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        for byte in UInt8.min...UInt8.max {
            var text = "a"
            Hex.percentEncode(byte, to: &text)
            #expect(text == "a%" + Hex.encode([byte]).uppercased(), "\(byte)")
        }
        #expect(Hex.decode("000fA0ff") == [0x00, 0x0f, 0xa0, 0xff])
        #expect(Hex.decode("") == [])
        for bad in ["0", "0g", "+1", " 00", "é0"] { #expect(Hex.decode(bad) == nil, "\(bad)") }
    }
}
