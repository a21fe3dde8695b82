import Foundation

/// Finds what a message's plain text may open (issue 50, seed 001 "Messages render as plain text"): web links
/// (`http://`, `https://`, `www.`), e-mail addresses and phone numbers. Nothing else becomes tappable, and the text
/// itself is never rewritten: no Markdown, no HTML. The rules, so that a chat screen and the terminal app agree:
///
/// - A link starts at a word boundary and ends at white space, a control or bidirectional mark, or a character no
///   address holds (`<`, `>`, `"`, CJK brackets and full stops). Trailing punctuation (`.`, `,`, `!`, `?`, `…`,
///   `»`, `”`, the Arabic comma, …) is left out, and a closing bracket only when the link did not open it, so
///   "(see https://en.wikipedia.org/wiki/Swift_(programming_language))" keeps its own brackets.
/// - An e-mail address has a local part of at most 64 characters and a domain of two labels or more whose last
///   one is at least two letters.
/// - A phone number has 7 to 15 ASCII digits in groups separated by one space, `-` or `.`, with an optional
///   leading `+` and one group in parentheses; without `+` it needs two groups. Dates (2026-12-05, 05.12.2026,
///   2026 12 05), version numbers, decimals, amounts grouped in thousands (1 500 000) and addresses of four dotted
///   groups are not phone numbers.
///
/// The scan is linear in the text's length (every candidate is bounded), so a 4,000-character message costs
/// microseconds.
package enum LinkDetector {
    /// One detected link: where it is, in Unicode scalar offsets of the text, and what it opens.
    struct Match: Sendable {
        var range: Range<Int>
        var url: URL
    }

    /// The schemes a message link may open: everything else stays text.
    package static let openableSchemes: Set<String> = ["http", "https", "mailto", "tel"]

    /// The text cut into runs, each plain or a link, in order; their texts joined are `text`.
    @inline(never) @_optimize(size) static func runs(in text: String) -> [MessageRow.TextRun] {
        let scalars = Array(text.unicodeScalars)
        var runs: [MessageRow.TextRun] = []
        var position = 0
        @inline(never) @_optimize(size) func piece(_ range: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            return String(view)
        }
        for match in matches(in: scalars) {
            if match.range.lowerBound > position {
                runs.append(MessageRow.TextRun(text: piece(position..<match.range.lowerBound), link: nil))
            }
            runs.append(MessageRow.TextRun(text: piece(match.range), link: match.url))
            position = match.range.upperBound
        }
        if position < scalars.count || runs.isEmpty {
            runs.append(MessageRow.TextRun(text: piece(position..<scalars.count), link: nil))
        }
        return runs
    }

    /// The links of `text`, in order, never overlapping.
    @_optimize(size) static func matches(in text: String) -> [Match] { matches(in: Array(text.unicodeScalars)) }

    @inline(never) @_optimize(size) static func matches(in scalars: [Unicode.Scalar]) -> [Match] {
        var examined = 0
        return matches(in: scalars, examined: &examined)
    }

    /// How many scalars the web-link scans look at for `text` (the tests' measure that the scan stays linear).
    @inline(never) @_optimize(size) static func scalarsExamined(in text: String) -> Int {
        var examined = 0
        _ = matches(in: Array(text.unicodeScalars), examined: &examined)
        return examined
    }

    @inline(never)
    @_optimize(size) private static func matches(in scalars: [Unicode.Scalar], examined: inout Int) -> [Match] {
        var found: [Match] = []
        var index = 0
        var floor = 0  // nothing before this belongs to a new match
        while index < scalars.count {
            let atBoundary = index == 0 || !isWordScalar(scalars[index - 1])
            let match: Match?
            if atBoundary, let web = webLink(scalars, at: index, examined: &examined) {
                match = web
            } else if scalars[index] == "@", let mail = emailAddress(scalars, at: index, floor: floor) {
                match = mail
            } else if atBoundary, let phone = phoneNumber(scalars, at: index) {
                match = phone
            } else {
                match = nil
            }
            if let match {
                found.append(match)
                index = match.range.upperBound
                floor = index
            } else {
                index += 1
            }
        }
        return found
    }

    // MARK: Web links

    private static let webPrefixes: [(text: [Unicode.Scalar], addsScheme: Bool)] = [
        (Array("https://".unicodeScalars), false), (Array("http://".unicodeScalars), false),
        (Array("www.".unicodeScalars), true),
    ]

    @inline(never) @_optimize(size)
    private static func webLink(_ scalars: [Unicode.Scalar], at start: Int, examined: inout Int) -> Match? {
        guard let prefix = webPrefixes.first(where: { hasPrefix(scalars, at: start, $0.text) }) else { return nil }
        // The host first: at least one letter or digit, and for `www.` a dot-separated name after it. A refused
        // candidate costs only its host, so a text of refused prefixes ("www./www./…") stays linear.
        let hostStart = start + prefix.text.count
        var hostEnd = hostStart
        while hostEnd < scalars.count, isURLScalar(scalars[hostEnd]), !hostDelimiters.contains(scalars[hostEnd]) {
            hostEnd += 1
        }
        examined += hostEnd - hostStart + 1
        let host = scalars[hostStart..<trimmedEnd(scalars, start: hostStart, end: hostEnd)]
        guard host.contains(where: { $0.properties.isAlphabetic || ("0"..."9").contains($0) }) else { return nil }
        if prefix.addsScheme, !host.contains(".") { return nil }
        var end = hostEnd
        while end < scalars.count, isURLScalar(scalars[end]) { end += 1 }
        examined += end - hostEnd
        end = trimmedEnd(scalars, start: start, end: end)
        var address = prefix.addsScheme ? "https://" : ""
        for (offset, scalar) in scalars[start..<end].enumerated() {
            // The scheme in lower case ("HTTPS://" opens as https).
            let inScheme = !prefix.addsScheme && offset < prefix.text.count
            appendEncoded(inScheme ? lowercased(scalar) : scalar, to: &address)
        }
        guard let url = URL(string: address) else { return nil }
        return Match(range: start..<end, url: url)
    }

    private static let hostDelimiters = ScalarSet("/?#:")
    /// Characters no address holds: ASCII ones URLs exclude, and CJK brackets, full stops and commas.
    private static let notInURLs = ScalarSet(
        "<>\"`{}|\\^\u{3002}\u{3001}\u{300C}\u{300D}\u{300E}\u{300F}\u{3010}\u{3011}\u{FF08}\u{FF09}\u{FF0C}\u{FF0E}")
    private static let sentenceEnders = ScalarSet(".,:;!?'\"*_")
    private static let addressPunctuation = ScalarSet("/#%&@")

    /// Whether `scalar` may be part of a web address as people write them (letters of any script included).
    @inline(never) @_optimize(size) private static func isURLScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return false
        default:
            break
        }
        return !notInURLs.contains(scalar)
    }

    /// `end` moved back past trailing punctuation that ends the sentence rather than the link; a closing bracket
    /// stays when the link opened one.
    @inline(never)
    @_optimize(size) private static func trimmedEnd(_ scalars: [Unicode.Scalar], start: Int, end: Int) -> Int {
        var end = end
        // Brackets opened minus closed within the link, per kind (round, square, curly), kept up to date as the end
        // moves back.
        var balance = [0, 0, 0]
        for scalar in scalars[start..<end] {
            if let kind = bracketKind(closing: scalar) { balance[kind] -= 1 }
            if let kind = bracketKind(opening: scalar) { balance[kind] += 1 }
        }
        while end > start {
            let last = scalars[end - 1]
            if let kind = bracketKind(closing: last) {
                if balance[kind] >= 0 { break }
                balance[kind] += 1
                end -= 1
                continue
            }
            guard isTrailingPunctuation(last) else { break }
            end -= 1
        }
        return end
    }

    /// 0, 1 or 2 for `(`, `[` or `{`; `nil` for anything else.
    @inline(never) @_optimize(size) private static func bracketKind(opening scalar: Unicode.Scalar) -> Int? {
        switch scalar {
        case "(": 0
        case "[": 1
        case "{": 2
        default: nil
        }
    }

    /// 0, 1 or 2 for `)`, `]` or `}`; `nil` for anything else.
    @inline(never) @_optimize(size) private static func bracketKind(closing scalar: Unicode.Scalar) -> Int? {
        switch scalar {
        case ")": 0
        case "]": 1
        case "}": 2
        default: nil
        }
    }

    @inline(never) @_optimize(size) private static func isTrailingPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        if sentenceEnders.contains(scalar) { return true }
        switch scalar.properties.generalCategory {
        case .otherPunctuation, .finalPunctuation, .initialPunctuation, .closePunctuation, .openPunctuation:
            // `/`, `#`, `%`, `&` and `@` are other punctuation too, and end many addresses.
            return !addressPunctuation.contains(scalar)
        default:
            return false
        }
    }

    // MARK: E-mail addresses

    @inline(never) @_optimize(size)
    private static func emailAddress(_ scalars: [Unicode.Scalar], at atSign: Int, floor: Int) -> Match? {
        var start = atSign
        while start > floor, atSign - start < 64, isLocalPartScalar(scalars[start - 1]) { start -= 1 }
        // A local part longer than 64 characters is no address.
        if start > floor, isLocalPartScalar(scalars[start - 1]) { return nil }
        // Nor does one start with a dot or a hyphen ("ל-support@…" is "support@…").
        while start < atSign, scalars[start] == "." || scalars[start] == "-" { start += 1 }
        guard start < atSign, scalars[atSign - 1] != "." else { return nil }
        guard let end = domainEnd(scalars, from: atSign + 1) else { return nil }
        var address = "mailto:"
        for scalar in scalars[start..<end] { appendEncoded(scalar, to: &address) }
        guard let url = URL(string: address) else { return nil }
        return Match(range: start..<end, url: url)
    }

    @inline(never) @_optimize(size) private static func isLocalPartScalar(_ scalar: Unicode.Scalar) -> Bool {
        // ASCII only: a letter of another script before an address is the word it is written after.
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            || "._%+-".unicodeScalars.contains(scalar)
    }

    /// The end of a domain name starting at `start`: two labels or more, the last of at least two letters, at most
    /// 253 characters; `nil` when there is none.
    @inline(never)
    @_optimize(size) private static func domainEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        var labels: [Range<Int>] = []
        var labelStart = start
        while index < scalars.count, index - start <= 253 {
            let scalar = scalars[index]
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" {
                index += 1
            } else if scalar == ".", index > labelStart, index + 1 < scalars.count,
                      scalars[index + 1].properties.isAlphabetic || ("0"..."9").contains(scalars[index + 1])
            {
                labels.append(labelStart..<index)
                index += 1
                labelStart = index
            } else {
                break
            }
        }
        guard index - start <= 253, index > labelStart else { return nil }
        labels.append(labelStart..<index)
        guard labels.count >= 2, let last = labels.last, last.count >= 2,
              scalars[last].allSatisfy({ $0.properties.isAlphabetic }),
              labels.allSatisfy({ scalars[$0.lowerBound] != "-" && scalars[$0.upperBound - 1] != "-" })
        else { return nil }
        return index
    }

    // MARK: Phone numbers

    @inline(never)
    @_optimize(size) private static func phoneNumber(_ scalars: [Unicode.Scalar], at start: Int) -> Match? {
        let first = scalars[start]
        guard first == "+" || first == "(" || isDigit(first) else { return nil }
        // Not the tail of an identifier, an amount or a path ("#1234567", "v2.1", "/1234567").
        if start > 0, "#+-./$€£%".unicodeScalars.contains(scalars[start - 1]) { return nil }
        var index = start
        let international = first == "+"
        if international { index += 1 }
        var groups: [Int] = []
        var separators: [Unicode.Scalar] = []
        var sawParentheses = false
        var end = index
        while index < scalars.count, groups.count < 8 {
            var cursor = index
            let opens = scalars[cursor] == "("
            if opens {
                guard !sawParentheses else { break }
                cursor += 1
            }
            let digitsStart = cursor
            while cursor < scalars.count, isDigit(scalars[cursor]), cursor - digitsStart < 15 { cursor += 1 }
            guard cursor > digitsStart else { break }
            if opens {
                guard cursor < scalars.count, scalars[cursor] == ")" else { break }
                cursor += 1
                sawParentheses = true
            }
            groups.append(cursor - digitsStart)
            end = cursor
            guard cursor < scalars.count else { break }
            // "(555)123-4567": a group may follow a closing parenthesis directly.
            if opens, isDigit(scalars[cursor]) {
                separators.append(" ")
                index = cursor
                continue
            }
            // Otherwise one separator, then the next group.
            guard cursor + 1 < scalars.count, " -.\u{00A0}".unicodeScalars.contains(scalars[cursor]),
                  isDigit(scalars[cursor + 1]) || scalars[cursor + 1] == "("
            else { break }
            separators.append(scalars[cursor])
            index = cursor + 1
        }
        let digits = groups.reduce(0, +)
        guard (7...15).contains(digits), international || groups.count >= 2 else { return nil }
        // Followed by a letter, a digit or a decimal part: an identifier or an amount, not a number to call.
        if end < scalars.count, isWordScalar(scalars[end]) || scalars[end] == "%" { return nil }
        if end + 1 < scalars.count, ".,:".unicodeScalars.contains(scalars[end]), isDigit(scalars[end + 1]) {
            return nil
        }
        if !international, !sawParentheses, looksLikeDateOrVersion(groups: groups, separators: separators) {
            return nil
        }
        var address = "tel:" + (international ? "+" : "")
        for scalar in scalars[start..<end] where isDigit(scalar) { address.unicodeScalars.append(scalar) }
        guard let url = URL(string: address) else { return nil }
        return Match(range: start..<end, url: url)
    }

    /// Dates (2026-12-05, 05.12.2026; 12/05/2026 never gets here), dotted versions, decimals and addresses.
    @inline(never)
    @_optimize(size) private static func looksLikeDateOrVersion(groups: [Int], separators: [Unicode.Scalar]) -> Bool {
        // "1 500 000", "12 345 678": an amount or an ID grouped in thousands.
        let spaced = separators.allSatisfy { $0 == " " || $0 == "\u{00A0}" }
        if spaced, (1...3).contains(groups[0]), groups.dropFirst().allSatisfy({ $0 == 3 }) { return true }
        if groups.count == 3, separators.allSatisfy({ $0 == "-" || $0 == "." || $0 == " " || $0 == "\u{00A0}" }) {
            if groups == [4, 2, 2] || groups[2] == 4 && groups[0] <= 2 && groups[1] <= 2 { return true }
        }
        // "555.123.4567" is a number to call; "1234567.89" is an amount.
        if separators.contains("."), groups.count < 3 { return true }
        if separators.contains("."), groups.contains(where: { $0 < 2 }) || groups.count == 4 && groups.allSatisfy({ $0 <= 3 })
        {
            return true
        }
        return false
    }

    // MARK: Scalars

    @_optimize(size) private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    @inline(never) @_optimize(size) private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "_"
    }

    @inline(never) @_optimize(size)
    private static func hasPrefix(_ scalars: [Unicode.Scalar], at start: Int, _ prefix: [Unicode.Scalar]) -> Bool {
        guard start + prefix.count <= scalars.count else { return false }
        for (offset, expected) in prefix.enumerated() where lowercased(scalars[start + offset]) != expected {
            return false
        }
        return true
    }

    @inline(never) @_optimize(size) private static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
    }

    /// The characters a URL may hold as they are; every other one is written as UTF-8 percent escapes.
    private static let urlSafe = ScalarSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")

    @inline(never)
    @_optimize(size) private static func appendEncoded(_ scalar: Unicode.Scalar, to address: inout String) {
        if urlSafe.contains(scalar) {
            address.unicodeScalars.append(scalar)
            return
        }
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        for byte in String(scalar).utf8 {
            address.unicodeScalars.append("%")
            address.unicodeScalars.append(hex[Int(byte >> 4)])
            address.unicodeScalars.append(hex[Int(byte & 0xF)])
        }
    }
}

/// A fixed set of Unicode scalars: a bit per ASCII scalar, and the few others in a list. The detector's character
/// classes are this instead of `Set<Unicode.Scalar>`, whose hashing, insertion and resizing the SDK compiled for them
/// alone (Docs/Footprint.md); a lookup is a shift and a mask for the ASCII ones.
struct ScalarSet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    private var others: [UInt32] = []

    /// The scalars of `members`.
    @inline(never) @_optimize(size) init(_ members: String) {
        for scalar in members.unicodeScalars {
            switch scalar.value {
            case 0..<64: low |= 1 << UInt64(scalar.value)
            case 64..<128: high |= 1 << UInt64(scalar.value - 64)
            default: others.append(scalar.value)
            }
        }
    }

    @inline(never) @_optimize(size) func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<64: return low & (1 << UInt64(scalar.value)) != 0
        case 64..<128: return high & (1 << UInt64(scalar.value - 64)) != 0
        default: return others.contains(scalar.value)
        }
    }
}
