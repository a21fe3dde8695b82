import Foundation
import ReceptionCore

/// Our loader of the String Catalog `Resources/ChatTexts.xcstrings` (the JSON Apple's tools read), so the same file
/// serves Apple platforms and Linux. It is read once; a missing or damaged file leaves the built-in English texts.
final class TextCatalog: Sendable {
    /// One localisation of one key: a plain text, or plural forms by CLDR category.
    enum Entry: Sendable, Equatable {
        case plain(String)
        case plural([String: String])
    }

    /// `[language: [key: entry]]`.
    let entries: [String: [String: Entry]]
    /// The catalog's languages, English first.
    let languages: [String]

    static let shared = TextCatalog(data: TextCatalog.catalogData())

    /// The file's name inside the resource bundle.
    static let fileName = "ChatTexts.xcstrings"

    @inline(never) @_optimize(size) init(data: Data?) {
        var entries: [String: [String: Entry]] = ["en": Self.builtInEnglish]
        if let data, let parsed = Self.parse(data) {
            // The catalog's entry wins over the built-in one; a loop, not a merge closure (Docs/Footprint.md).
            for (language, texts) in parsed {
                for (key, entry) in texts { entries[language, default: [:]][key] = entry }
            }
        }
        self.entries = entries
        let others = entries.keys.filter { $0 != "en" }
        languages = ["en"] + stableOrder(count: others.count) { others[$0] < others[$1] }.map { others[$0] }
    }

    /// The text of `key` in `language`, else English, else the key itself; a plural key gives its `other` form.
    @inline(never) @_optimize(size) func text(_ key: String, language: String) -> String {
        switch entry(key, language: language) {
        case .plain(let text): text
        case .plural(let forms): forms["other"] ?? forms.values.first ?? key
        case nil: key
        }
    }

    /// The plural form of `key` for `count` in `language` (its CLDR category, else `other`), with `%lld` unfilled.
    @inline(never) @_optimize(size) func text(_ key: String, language: String, count: Int) -> String {
        switch entry(key, language: language) {
        case .plain(let text): return text
        case .plural(let forms):
            return forms[PluralRules.category(language: language, count: count)] ?? forms["other"]
                ?? forms.values.first ?? key
        case nil: return key
        }
    }

    @inline(never) @_optimize(size) private func entry(_ key: String, language: String) -> Entry? {
        if let entry = entries[language]?[key] { return entry }
        return entries["en"]?[key]
    }

    /// Reads the `strings` of a String Catalog: `localizations.<lang>.stringUnit.value`, or
    /// `localizations.<lang>.variations.plural.<category>.stringUnit.value`.
    @inline(never) @_optimize(size) static func parse(_ data: Data) -> [String: [String: Entry]]? {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let strings = root["strings"] as? [String: Any]
        else { return nil }
        var result: [String: [String: Entry]] = [:]
        for (key, value) in strings {
            guard let localizations = (value as? [String: Any])?["localizations"] as? [String: Any] else { continue }
            for (language, localization) in localizations {
                guard let localization = localization as? [String: Any] else { continue }
                if let unit = localization["stringUnit"] as? [String: Any], let text = unit["value"] as? String {
                    result[language, default: [:]][key] = .plain(text)
                } else if let plural = (localization["variations"] as? [String: Any])?["plural"] as? [String: Any] {
                    var forms: [String: String] = [:]
                    for (category, form) in plural {
                        if let text = ((form as? [String: Any])?["stringUnit"] as? [String: Any])?["value"] as? String {
                            forms[category] = text
                        }
                    }
                    if !forms.isEmpty { result[language, default: [:]][key] = .plural(forms) }
                }
            }
        }
        return result
    }

    /// The catalog's bytes from the module's resource bundle, looked up without SwiftPM's `Bundle.module` (which
    /// stops the process when the bundle is missing): beside the app or executable, then in the source tree.
    @inline(never) @_optimize(size) static func catalogData() -> Data? {
        let bundleNames = ["ReceptionKit_Conversation.bundle", "ReceptionKit_Conversation.resources"]
        var directories: [URL] = []
        if let resources = Bundle.main.resourceURL { directories.append(resources) }
        directories.append(Bundle.main.bundleURL)
        if let executable = Bundle.main.executableURL?.deletingLastPathComponent() { directories.append(executable) }
        for bundle in Bundle.allBundles + Bundle.allFrameworks {
            if let resources = bundle.resourceURL { directories.append(resources) }
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        var candidates: [URL] = []
        for directory in directories {
            for name in bundleNames {
                let bundle = directory.appendingPathComponent(name)
                candidates.append(bundle.appendingPathComponent(fileName))
                candidates.append(bundle.appendingPathComponent("Contents/Resources").appendingPathComponent(fileName))
            }
        }
        // A build from this checkout (tests, `swift run`) also finds the file where it is written.
        candidates.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources")
                .appendingPathComponent(fileName))
        for url in candidates {
            if let data = try? Data(contentsOf: url) { return data }
        }
        return nil
    }

    /// English, used for any key the file lacks (and when it cannot be read). `ChatTextsTests` checks it equals
    /// the catalog's English. One `key=text` a line, `key#category=text` for a plural form: read once into the
    /// table, which as a dictionary literal compiled into some 5 kB of code (Docs/Footprint.md).
    static let builtInEnglish: [String: Entry] = entries(lines: """
        status.sending=Sending…
        status.sent=Sent
        status.notDelivered=Not delivered
        action.retry=Retry
        action.cancel=Cancel
        composer.signInRequired=Sign in to send messages.
        composer.sendingDisabled=You can't send messages from this device.
        composer.appUnavailable=Chat is not available right now.
        composer.resendingHeldMessages=Sending earlier messages first…
        composer.photoCouldNotLoad=Could not load this photo.
        composer.storageProblem=Messages could not be saved on this device.
        composer.textTooLong=This message is too long (%1$lld of %2$lld characters). Shorten it to send.
        composer.tooManyPhotos#one=You can attach up to %lld photo.
        composer.tooManyPhotos#other=You can attach up to %lld photos.
        cooldown.messages=Message limit reached, send again %@.
        cooldown.uploads=Photos can be sent again %@, text still works.
        cooldown.requests=Too many attempts, try again %@.
        cooldown.connection=Can't connect right now, try again %@.
        time.inSeconds#one=in %lld second
        time.inSeconds#other=in %lld seconds
        time.inMinutes#one=in %lld minute
        time.inMinutes#other=in %lld minutes
        time.inHours#one=in %lld hour
        time.inHours#other=in %lld hours
        banner.offline=No connection
        banner.connecting=Connecting
        banner.connected=Connected
        banner.paused=Live updates paused
        card.rateOnAppStore=Rate on the App Store
        card.viewOffer=View offer
        card.unavailable=No longer available
        card.seeDiscount=See your discount
        chat.title=Support
        chat.welcomeTitle=How can we help?
        chat.welcomeText=Send us a message and we'll reply here.
        a11y.you=You
        a11y.team=Support
        photo.count#one=%lld photo
        photo.count#other=%lld photos
        photo.pending=Not sent yet
        photo.failed=Photo unavailable. Tap to try again.
        photo.view=View photo
        photo.viewNumbered=View photo %1$lld of %2$lld
        status.uploading=Uploading photos
        status.resendCountdown=Sending again %@
        status.retryAfter=Retry %@
        composer.placeholder=Message
        action.send=Send
        action.addPhoto=Add photo
        action.removePhoto=Remove photo
        action.close=Close
        typing.indicator=Typing…
        transcript.newMessages#one=%lld new message
        transcript.newMessages#other=%lld new messages
        a11y.newMessagesHint=Scrolls to the newest message.
        """)

    /// The entries of `key=text` and `key#category=text` lines (`builtInEnglish`).
    @inline(never) @_optimize(size) static func entries(lines: String) -> [String: Entry] {
        var result: [String: Entry] = [:]
        for line in TextPieces.split(Substring(lines), at: "\n") where !line.isEmpty {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals], text = String(line[line.index(after: equals)...])
            guard let mark = name.firstIndex(of: "#") else {
                result[String(name)] = .plain(text)
                continue
            }
            let key = String(name[..<mark]), category = String(name[name.index(after: mark)...])
            var forms: [String: String] = [:]
            if case .plural(let earlier)? = result[key] { forms = earlier }
            forms[category] = text
            result[key] = .plural(forms)
        }
        return result
    }
}

/// CLDR cardinal plural categories of the catalog's languages, for whole numbers.
enum PluralRules {
    /// The categories each language uses (the set its catalog entries must hold).
    @inline(never) @_optimize(size) static func categories(language: String) -> [String] {
        switch base(language) {
        case "ja", "ko", "zh", "th", "vi", "id", "ms": ["other"]
        case "fr", "es", "it", "pt", "ca": ["one", "many", "other"]
        case "pl", "cs", "sk", "uk", "ru": ["one", "few", "many", "other"]
        case "ro", "hr": ["one", "few", "other"]
        case "sl": ["one", "two", "few", "other"]
        case "he": ["one", "two", "other"]
        case "ar": ["zero", "one", "two", "few", "many", "other"]
        default: ["one", "other"]
        }
    }

    /// The category of `count` in `language`.
    @inline(never) @_optimize(size) static func category(language: String, count: Int) -> String {
        let n = count.magnitude
        let mod10 = n % 10, mod100 = n % 100
        let million = n != 0 && n % 1_000_000 == 0
        switch base(language) {
        case "ja", "ko", "zh", "th", "vi", "id", "ms": return "other"
        case "fr": return n <= 1 ? "one" : million ? "many" : "other"
        case "pt": return (language == "pt-PT" ? n == 1 : n <= 1) ? "one" : million ? "many" : "other"
        case "es", "it", "ca": return n == 1 ? "one" : million ? "many" : "other"
        case "hi", "bn", "gu", "kn": return n <= 1 ? "one" : "other"
        case "pa": return n <= 1 ? "one" : "other"
        case "ro": return n == 1 ? "one" : (n == 0 || (1...19).contains(mod100)) ? "few" : "other"
        case "pl":
            if n == 1 { return "one" }
            return (2...4).contains(mod10) && !(12...14).contains(mod100) ? "few" : "many"
        case "cs", "sk": return n == 1 ? "one" : (2...4).contains(n) ? "few" : "other"
        case "ru", "uk":
            if mod10 == 1 && mod100 != 11 { return "one" }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return "few" }
            return "many"
        case "hr":
            if mod10 == 1 && mod100 != 11 { return "one" }
            return (2...4).contains(mod10) && !(12...14).contains(mod100) ? "few" : "other"
        case "sl":
            switch mod100 {
            case 1: return "one"
            case 2: return "two"
            case 3, 4: return "few"
            default: return "other"
            }
        case "he": return n == 1 ? "one" : n == 2 ? "two" : "other"
        case "ar":
            if n == 0 { return "zero" }
            if n == 1 { return "one" }
            if n == 2 { return "two" }
            if (3...10).contains(mod100) { return "few" }
            return (11...99).contains(mod100) ? "many" : "other"
        default: return n == 1 ? "one" : "other"
        }
    }

    @inline(never) @_optimize(size) private static func base(_ language: String) -> String {
        String(language.prefix { $0 != "-" }).lowercased()
    }
}

/// Fills `%lld`, `%@` and their positional forms (`%1$lld`, `%2$@`) with already formatted arguments; `%%` is a
/// percent sign. A placeholder without an argument is left as written.
enum TextFormat {
    /// The value of a run of ASCII digits, `nil` past `Int.max` (`Int(_:)` would keep its generic parser in the app for
    /// this alone: Docs/Footprint.md).
    @inline(never) @_optimize(size) static func decimal(_ digits: Substring) -> Int? {
        var value = 0
        for byte in digits.utf8 {
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times.addingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
            guard !overflowA, !overflowB else { return nil }
            value = sum
        }
        return value
    }

    @inline(never) @_optimize(size) static func fill(_ template: String, _ arguments: [String]) -> String {
        var result = ""
        var next = 0
        var rest = Substring(template)
        while let percent = rest.firstIndex(of: "%") {
            result += rest[..<percent]
            var cursor = rest.index(after: percent)
            if cursor < rest.endIndex, rest[cursor] == "%" {
                result += "%"
                rest = rest[rest.index(after: cursor)...]
                continue
            }
            var position: Int?
            let digits = rest[cursor...].prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, digits.endIndex < rest.endIndex, rest[digits.endIndex] == "$" {
                position = Self.decimal(digits).map { $0 - 1 }
                cursor = rest.index(after: digits.endIndex)
            }
            let tail = rest[cursor...]
            let specifier = tail.hasPrefix("lld") ? 3 : tail.hasPrefix("ld") ? 2 : tail.hasPrefix("d") || tail.hasPrefix("@") ? 1 : 0
            guard specifier > 0 else {
                result += "%"
                rest = rest[rest.index(after: percent)...]
                continue
            }
            let index = position ?? next
            if position == nil { next += 1 }
            let end = rest.index(cursor, offsetBy: specifier)
            result += arguments.indices.contains(index) ? arguments[index] : String(rest[percent..<end])
            rest = rest[end...]
        }
        return result + rest
    }
}
