import ReceptionCore

/// The app language of spec 7.19: canonical BCP 47 tags for the device payload's `language`, and the built-in
/// UI language a tag resolves to. Pure functions over ASCII, so the result never depends on the host's ICU data.
public enum LanguageTag {
    /// The tag used when nothing valid is known.
    public static let fallback = "en"

    /// Spec 7.19: a canonical tag is at most this many UTF-16 units.
    public static let maximumLength = 35

    /// Spec 7.19: the app language is the canonical form of the override if set, else of the host's first
    /// preferred localisation, else `"en"`.
    @_optimize(size) public static func appLanguage(override: String?, preferredLocalizations: [String]) -> String {
        canonical(override ?? preferredLocalizations.first ?? fallback)
    }

    /// Spec 7.19 canonicalisation: trim, `_` → `-`, validate, normalise case and legacy codes, drop extensions and
    /// private use. Invalid input becomes `"en"`. `es_mx` → `es-MX`, `zh_hans_hk` → `zh-Hans-HK`, `iw-IL` →
    /// `he-IL`, `en-US-u-ca-gregory` → `en-US`.
    @inline(never) @_optimize(size) public static func canonical(_ raw: String) -> String {
        let trimmed = raw.trimmingASCIIWhitespace().replacingUnderscores()
        guard let parsed = Parsed(trimmed) else { return fallback }
        let tag = parsed.canonicalText
        guard !tag.isEmpty, tag.utf16.count <= maximumLength else { return fallback }
        return tag
    }

    /// Spec 7.19: the 48 languages the built-in texts exist in.
    public static let supportedUILanguages: [String] = UILanguages.all

    /// Spec 7.19: the built-in texts laid out right to left.
    public static let rightToLeftUILanguages: Set<String> = UILanguages.rightToLeft

    /// Spec 7.19 UI language resolution of any tag (canonicalised first): an exact match, then the Chinese,
    /// Spanish, Portuguese, French and Norwegian rules, then the base language, then `"en"`.
    @inline(never) @_optimize(size) public static func uiLanguage(for tag: String) -> String {
        let canonicalTag = canonical(tag)
        if let exact = UILanguages.builtIn(canonicalTag) { return exact }
        guard let parsed = Parsed(canonicalTag) else { return fallback }
        let region = parsed.region?.uppercased()
        switch parsed.language {
        case "zh":
            if parsed.script == "Hans" { return "zh-Hans" }
            if region == "HK" || region == "MO" { return "zh-HK" }
            if parsed.script == "Hant" || region == "TW" { return "zh-Hant" }
            return "zh-Hans"
        case "es":
            return region == nil || region == "ES" ? "es" : "es-419"
        case "pt":
            return region == "PT" ? "pt-PT" : "pt-BR"
        case "fr":
            return region == "CA" ? "fr-CA" : "fr"
        case "no", "nn", "nb":
            return "nb"
        default:
            return supportedUILanguages.contains(parsed.language) ? parsed.language : fallback
        }
    }

    /// Whether the UI language for `tag` is laid out right to left.
    @_optimize(size)
    public static func isRightToLeft(_ tag: String) -> Bool { rightToLeftUILanguages.contains(uiLanguage(for: tag)) }

    /// Spec 7.19's legacy codes, replaced during canonicalisation.
    static let languageAliases: [String: String] = [
        "iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro", "mol": "ro",
    ]
}

extension LanguageTag {
    /// A tag split into the subtags spec 7.19 validates.
    struct Parsed {
        var language: String
        var script: String?
        var region: String?
        var variants: [String] = []

        /// `nil` when the text is not a valid tag by spec 7.19's grammar (including duplicate variants or
        /// duplicate extension singletons). Extensions and private use are checked, then dropped. Read as UTF-8
        /// bytes: a valid tag is ASCII letters and digits between hyphens, so anything else refuses it, and bytes
        /// need none of the generic `Character` code (Docs/Footprint.md).
        @inline(never) @_optimize(size) init?(_ text: String) {
            // Subtags of ASCII letters and digits, none empty.
            var subtags: [[UInt8]] = [[]]
            for byte in text.utf8 {
                if byte == UInt8(ascii: "-") {
                    subtags.append([])
                    continue
                }
                guard byte.isASCIILetter || byte.isASCIIDigit else { return nil }
                subtags[subtags.count - 1].append(byte)
            }
            for subtag in subtags where subtag.isEmpty { return nil }
            let first = subtags[0]
            switch first.count {
            case 2, 3, 5...8: break
            default: return nil
            }
            guard Self.all(first, \.isASCIILetter) else { return nil }
            language = Self.text(first, upperCased: 0)
            var index = 1
            if index < subtags.count, subtags[index].count == 4, Self.all(subtags[index], \.isASCIILetter) {
                script = Self.text(subtags[index], upperCased: 1)
                index += 1
            }
            if index < subtags.count,
               (subtags[index].count == 2 && Self.all(subtags[index], \.isASCIILetter))
                || (subtags[index].count == 3 && Self.all(subtags[index], \.isASCIIDigit)) {
                region = Self.text(subtags[index], upperCased: .max)
                index += 1
            }
            while index < subtags.count, Self.isVariant(subtags[index]) {
                let variant = Self.text(subtags[index], upperCased: 0)
                guard !variants.contains(variant) else { return nil }
                variants.append(variant)
                index += 1
            }
            guard Self.validTail(subtags, from: index) else { return nil }
            if let alias = LanguageTag.languageAliases[language] { language = alias }
        }

        /// The canonical text without extensions and private use.
        @inline(never) @_optimize(size) var canonicalText: String {
            var text = language
            if let script { text += "-" + script }
            if let region { text += "-" + region }
            for variant in variants { text += "-" + variant }
            return text
        }

        /// 5–8 alphanumerics, or a digit followed by 3 alphanumerics.
        @_optimize(size) private static func isVariant(_ subtag: [UInt8]) -> Bool {
            (5...8).contains(subtag.count) || (subtag.count == 4 && subtag[0].isASCIIDigit)
        }

        /// Extensions (a non-`x` singleton and 2–8 character subtags, each singleton once) then optional private
        /// use (`x` and 1–8 character subtags), from `subtags[start]` to the end.
        @inline(never) @_optimize(size) private static func validTail(_ subtags: [[UInt8]], from start: Int) -> Bool {
            var index = start
            var singletons: [UInt8] = []
            while index < subtags.count, subtags[index].count == 1 {
                let singleton = subtags[index][0] | 0x20  // lower case, for a letter
                index += 1
                var bodyEnd = index
                while bodyEnd < subtags.count, subtags[bodyEnd].count > 1 { bodyEnd += 1 }
                if singleton == UInt8(ascii: "x") {
                    // Private use: at least one subtag, each 1–8 characters (none is empty).
                    guard index < subtags.count else { return false }
                    for subtag in subtags[index...] where subtag.count > 8 { return false }
                    return true
                }
                guard subtags[index - 1][0].isASCIILetter, !singletons.contains(singleton), bodyEnd > index else {
                    return false
                }
                // The body's subtags have 2 or more characters; at most 8.
                for subtag in subtags[index..<bodyEnd] where subtag.count > 8 { return false }
                singletons.append(singleton)
                index = bodyEnd
            }
            return index == subtags.count
        }


        @_optimize(size) private static func all(_ subtag: [UInt8], _ test: (UInt8) -> Bool) -> Bool {
            for byte in subtag where !test(byte) { return false }
            return true
        }

        /// The subtag with its first `upperCased` letters in upper case and the rest in lower case; digits as they are.
        @inline(never) @_optimize(size) private static func text(_ subtag: [UInt8], upperCased: Int) -> String {
            var bytes: [UInt8] = []
            for (offset, byte) in subtag.enumerated() {
                guard byte.isASCIILetter else {
                    bytes.append(byte)
                    continue
                }
                bytes.append(offset < upperCased ? byte & ~0x20 : byte | 0x20)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

extension String {
    @_optimize(size) fileprivate func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }

    @_optimize(size) fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
