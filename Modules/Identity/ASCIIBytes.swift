extension UInt8 {
    /// `0`–`9`: the one digit test of the module's byte parsers (`SafeInteger`, `LanguageTag`).
    @_optimize(size) var isASCIIDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    /// `a`–`z` or `A`–`Z`.
    @_optimize(size)
    var isASCIILetter: Bool { (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z") }
}
