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
    @_optimize(size) public static func canonical(_ raw: String) -> String {
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
    @_optimize(size) public static func uiLanguage(for tag: String) -> String {
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
        /// duplicate extension singletons). Extensions and private use are checked, then dropped.
        @_optimize(size) init?(_ text: String) {
            let subtags = TextPieces.split(Substring(text), at: "-").map(String.init)
            guard let first = subtags.first, subtags.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIAlnum) })
            else { return nil }
            guard first.allSatisfy(\.isASCIILetter), [2, 3, 5, 6, 7, 8].contains(first.count) else { return nil }
            language = first.lowercased()
            var rest = subtags.dropFirst()
            if let next = rest.first, next.count == 4, next.allSatisfy(\.isASCIILetter) {
                script = next.prefix(1).uppercased() + next.dropFirst().lowercased()
                rest = rest.dropFirst()
            }
            if let next = rest.first,
               (next.count == 2 && next.allSatisfy(\.isASCIILetter)) || (next.count == 3 && next.allSatisfy(\.isASCIIDigit)) {
                region = next.uppercased()
                rest = rest.dropFirst()
            }
            while let next = rest.first, Self.isVariant(next) {
                let variant = next.lowercased()
                guard !variants.contains(variant) else { return nil }
                variants.append(variant)
                rest = rest.dropFirst()
            }
            guard Self.validTail(rest) else { return nil }
            if let alias = LanguageTag.languageAliases[language] { language = alias }
        }

        /// The canonical text without extensions and private use.
        @_optimize(size) var canonicalText: String {
            ([language] + [script, region].compactMap { $0 } + variants).joined(separator: "-")
        }

        /// 5–8 alphanumerics, or a digit followed by 3 alphanumerics.
        @_optimize(size) private static func isVariant(_ subtag: String) -> Bool {
            (5...8).contains(subtag.count) || (subtag.count == 4 && subtag.first?.isASCIIDigit == true)
        }

        /// Extensions (a non-`x` singleton and 2–8 character subtags, each singleton once) then optional private
        /// use (`x` and 1–8 character subtags).
        @_optimize(size) private static func validTail(_ subtags: ArraySlice<String>) -> Bool {
            var rest = subtags
            var singletons: Set<String> = []
            while let singleton = rest.first?.lowercased(), singleton.count == 1 {
                rest = rest.dropFirst()
                let body = rest.prefix { $0.count > 1 }
                if singleton == "x" {
                    return !rest.isEmpty && rest.allSatisfy { (1...8).contains($0.count) }
                }
                guard singleton.first?.isASCIILetter == true, !singletons.contains(singleton), !body.isEmpty,
                      body.allSatisfy({ (2...8).contains($0.count) }) else { return false }
                singletons.insert(singleton)
                rest = rest.dropFirst(body.count)
            }
            return rest.isEmpty
        }
    }
}

extension Character {
    @_optimize(size) fileprivate var isASCIILetter: Bool { isASCII && isLetter }
    @_optimize(size) fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
    @_optimize(size) fileprivate var isASCIIAlnum: Bool { isASCIILetter || isASCIIDigit }
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
