/// Spec 7.19: the languages the chat's built-in texts exist in, shared by the module that resolves a tag to one of
/// them (`Identity`) and the one that holds the texts (`Conversation`), so neither has to read the String Catalog to
/// know which languages there are.
public enum UILanguages {
    /// The 48 built-in languages, English first.
    public static let all: [String] = [
        "en", "de", "fr", "fr-CA", "es", "es-419", "it", "pt-BR", "pt-PT", "ca", "ro", "nl", "sv", "da", "nb", "fi",
        "pl", "cs", "sk", "hu", "sl", "hr", "el", "uk", "ru", "tr", "ja", "ko", "zh-Hans", "zh-Hant", "zh-HK", "th",
        "vi", "id", "ms", "hi", "bn", "gu", "kn", "ml", "mr", "or", "pa", "ta", "te", "ur", "ar", "he",
    ]

    /// The built-in languages laid out right to left.
    public static let rightToLeft: Set<String> = ["ar", "he", "ur"]

    /// The built-in language spelled `tag` in any letter case, or `nil` (standard-library lower-casing, so the
    /// answer never depends on the host's locale data).
    @inline(never) @_optimize(size) public static func builtIn(_ tag: String) -> String? {
        let lowered = tag.lowercased()
        return all.first { $0.lowercased() == lowered }
    }
}
