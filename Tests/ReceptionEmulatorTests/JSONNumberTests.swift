import Foundation
import ReceptionEmulator
import Testing

/// The emulator's JSON reader on hostile numbers and nesting: exact integer detection on the literal, numbers beyond
/// Double kept apart, saturated exponents, bounded depth; and the same inputs over HTTP answer 400 without stopping
/// the emulator.
@Suite("JSONNumberTests")
struct JSONNumberTests {
    @Test(arguments: NumberLiteral.all)
    func literalsReadAsTheirExactValue(literal: NumberLiteral) throws {
        let value = try JSONValue.parse("[\(literal.text)]").arrayValue?.first
        switch (literal.whole, literal.double) {
        case (let whole?, _):
            #expect(value == .int(whole), "\(literal)")
        case (nil, let double?):
            #expect(value == .double(double), "\(literal)")
            #expect(value?.integerValue == nil, "\(literal)")
        case (nil, nil):
            #expect(value == .outOfRangeNumber(literal.text), "\(literal)")
            #expect(value?.integerValue == nil, "\(literal)")
        }
    }

    @Test func numbersBeyondDoubleAreWrittenBackAsTheyCame() throws {
        let value = try JSONValue.parse(#"{"a":1e309,"b":-1E+99999999999,"c":-0,"d":1e-400}"#)
        #expect(value.serialized() == #"{"a":1e309,"b":-1E+99999999999,"c":0,"d":0}"#)
        #expect(value.containsOutOfRangeNumber)
        #expect(!(try JSONValue.parse(#"{"a":[1e308,{"b":-1e308}]}"#)).containsOutOfRangeNumber)
    }

    @Test(arguments: ["-", "1.", ".5", "01", "1e", "1e+", "--1", "+1", "1.e3", "0x10", "NaN", "Infinity", "-Infinity"])
    func malformedNumbersAreNotJSON(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse("[\(text)]") }
    }

    /// Millions of digits in a mantissa, a fraction or an exponent read in linear time and never overflow a
    /// counter; the test bounds nothing but correctness (speed is the fuzzer's `-timeout`).
    @Test func millionsOfDigitsAreReadWithoutOverflow() throws {
        let digits = String(repeating: "9", count: 2_000_000)
        #expect(try JSONValue.parse("[1e\(digits)]").arrayValue?.first == .outOfRangeNumber("1e\(digits)"))
        #expect(try JSONValue.parse("[1e-\(digits)]").arrayValue?.first == .double(0))
        #expect(try JSONValue.parse("[\(digits)]").arrayValue?.first == .outOfRangeNumber(digits))
        let zeros = String(repeating: "0", count: 2_000_000)
        #expect(try JSONValue.parse("[1\(zeros)e-2000000]").arrayValue?.first == .int(1))
        #expect(try JSONValue.parse("[0.\(zeros)1]").arrayValue?.first?.integerValue == nil)
    }

    @Test func nestingIsBoundedAtSixtyFourLevels() throws {
        let allowed = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONValue.parse(allowed) }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
        // 100,000 levels fail at level 65 instead of recursing 100,000 frames deep.
        #expect(throws: JSONParseError.self) { try JSONValue.parse(String(repeating: "[", count: 100_000)) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(String(repeating: #"{"a":"#, count: 100_000)) }
    }

    /// Over HTTP: 100,000-deep bodies (the admin API takes 8 MiB) are 400 `invalid_json`, a number of a million
    /// digits in an integer field is 400 `invalid_request`, and the emulator answers the next request.
    @Test func hostileBodiesOverHTTPAre400AndServingContinues() async throws {
        let context = try await SweepContext.make()
        for body in [String(repeating: "[", count: 100_000), String(repeating: #"{"a":"#, count: 100_000) + "1"] {
            let reply = try await context.admin("POST", "faults", body: body)
            #expect(reply.status == 400)
            #expect(reply.errorCode == "invalid_json")
            try await context.expectStillServing(after: "a 100,000-deep body")
        }
        let huge = try await context.admin(
            "POST", "faults",
            body: #"{"path":"/x","kind":"delay","delayMs":1"# + String(repeating: "0", count: 1_000_000) + "}")
        #expect(huge.status == 400)
        #expect(huge.errorCode == "invalid_request")
        let exponent = try await context.api(
            "POST", "conversation/read",
            body: #"{"conversationId":"\#(context.conversationId)","throughSeq":1e"#
                + String(repeating: "9", count: 60_000) + "}")
        #expect(exponent.status == 400)
        #expect(exponent.errorCode == "invalid_request")
        try await context.expectStillServing(after: "a number of a million digits")
    }
}
