import Foundation

/// A JSON value that keeps booleans, numbers and strings apart (Foundation's `JSONSerialization` turns `true` into
/// the number 1 on some platforms, and the merge must not read `1` as a boolean).
enum AppearanceJSON: Codable, Sendable, Hashable {
    case bool(Bool), number(Double), string(String), array([AppearanceJSON]), object([String: AppearanceJSON]), null

    @inline(never) @_optimize(size) init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AppearanceJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AppearanceJSON].self))
        }
    }

    @inline(never) @_optimize(size) func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    /// Written out, so that no specialised `Dictionary` equality (4 kB at -O) is compiled for it.
    @inline(never) @_optimize(size) static func == (lhs: AppearanceJSON, rhs: AppearanceJSON) -> Bool {
        switch (lhs, rhs) {
        case (.bool(let left), .bool(let right)): return left == right
        case (.number(let left), .number(let right)): return left == right
        case (.string(let left), .string(let right)): return left == right
        case (.null, .null): return true
        case (.array(let left), .array(let right)):
            guard left.count == right.count else { return false }
            for index in left.indices where left[index] != right[index] { return false }
            return true
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            for (key, value) in left where right[key] != value { return false }
            return true
        default: return false
        }
    }

    // Never inlined: the merge reads some forty fields through these, and each inlined copy brought the enum's
    // case test and copy with it (Docs/Footprint.md).
    @inline(never) @_optimize(size) subscript(key: String) -> AppearanceJSON? {
        if case .object(let object) = self { object[key] } else { nil }
    }
    @inline(never) @_optimize(size) var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    @_optimize(size) var number: Double? { if case .number(let value) = self, value.isFinite { value } else { nil } }
    @inline(never) @_optimize(size) var string: String? { if case .string(let value) = self { value } else { nil } }
    @inline(never) @_optimize(size)
    var object: [String: AppearanceJSON]? { if case .object(let value) = self { value } else { nil } }
    @_optimize(size) var array: [AppearanceJSON]? { if case .array(let value) = self { value } else { nil } }
}

/// The published appearance of an app (spec 3.16): the dashboard's `appearance` object and its revision, as fetched
/// and as cached per App ID. Unknown keys are ignored, so a newer dashboard never breaks an older SDK.
public struct RemoteAppearance: Sendable, Hashable, Codable {
    /// The dashboard's revision of this appearance (never negative).
    public let revision: Int
    let appearance: AppearanceJSON

    /// The `appearance` object's JSON; `nil` when it is not a JSON object or the revision is negative.
    @inline(never) @_optimize(size) package init?(revision: Int, data: Data) {
        guard let value = try? JSONDecoder().decode(AppearanceJSON.self, from: data) else { return nil }
        self.init(revision: revision, appearance: value)
    }

    @inline(never) @_optimize(size) init?(revision: Int, appearance: AppearanceJSON) {
        guard revision >= 0, appearance.object != nil else { return nil }
        self.revision = revision
        self.appearance = appearance
    }

    @inline(never) @_optimize(size) public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        guard let value = Self(revision: try container.decode(Int.self, forKey: "revision"),
                               appearance: try container.decode(AppearanceJSON.self, forKey: "appearance")) else {
            throw DecodingError.dataCorruptedError(
                forKey: "appearance", in: container, debugDescription: "not an appearance envelope")
        }
        self = value
    }

    @inline(never) @_optimize(size) public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(revision, forKey: "revision")
        try container.encode(appearance, forKey: "appearance")
    }

    /// Hashes the revision only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(revision) }
}

/// What the merge needs to know besides the two appearances.
struct AppearanceMergeContext: Sendable {
    /// The app language (spec 7.19), matched first against the texts' language tags.
    var appLanguage: String
    /// The resolved UI language, matched second.
    var uiLanguage: String
    /// `<root>/v1/appearance/images`, where uploaded images are served (spec 3.17).
    var imagesBase: URL
    /// Whether the platform can draw a symbol name; a symbol it cannot draw is ignored.
    var canDraw: @Sendable (String) -> Bool

    @inline(never) @_optimize(size) package init(
        appLanguage: String, uiLanguage: String, imagesBase: URL,
        canDraw: @escaping @Sendable (String) -> Bool = SymbolNames.looksDrawable
    ) {
        self.appLanguage = appLanguage
        self.uiLanguage = uiLanguage
        self.imagesBase = imagesBase
        self.canDraw = canDraw
    }
}

extension ChatAppearance {
    /// Spec 7.20: `self` (the host's appearance) with the published one laid over it — remote wins where present
    /// and valid, local where absent or invalid.
    @inline(never) @_optimize(size)
    func merged(with remote: RemoteAppearance, context: AppearanceMergeContext) -> ChatAppearance {
        let json = remote.appearance
        var result = self
        // Each group is changed in a copy and stored once: every `result.colors.x = …` took the appearance's storage
        // through its `modify` accessor again (Docs/Footprint.md).
        if let json = json["colors"] {
            var colors = self.colors
            colors.accent = Self.color(json["accent"], over: colors.accent)
            colors.onAccent = Self.color(json["onAccent"], over: colors.onAccent)
            colors.background = Self.color(json["background"], over: colors.background)
            colors.incoming = Self.color(json["incoming"], over: colors.incoming)
            colors.incomingText = Self.color(json["incomingText"], over: colors.incomingText)
            result.colors = colors
        }
        if let json = json["text"] {
            // A text without a usable entry for this language keeps the host's.
            var texts = self.texts
            texts.title = Self.text(json["title"], limit: 80, context) ?? texts.title
            texts.welcomeTitle = Self.text(json["welcomeTitle"], limit: 160, context) ?? texts.welcomeTitle
            texts.welcomeText = Self.text(json["welcomeText"], limit: 1000, context) ?? texts.welcomeText
            result.texts = texts
        }
        if let scheme = json["colorScheme"]?.string.flatMap(ColorScheme.init(rawValue:)) { result.colorScheme = scheme }
        if let shows = json["showsCloseButton"]?.bool { result.showsCloseButton = shows }
        if let icon = json["closeIcon"]?.string.flatMap(CloseIcon.init(rawValue:)) {
            // A valid remote symbol also replaces a local close image.
            result.closeIcon = icon
            result.closeImage = nil
        }
        if let image = Self.image(json["closeImage"], context) { result.closeImage = image }
        if let design = json["fontDesign"]?.string.flatMap(FontDesign.init(rawValue:)) {
            // A valid remote design also replaces a local custom font.
            result.fontDesign = design
            result.customFontName = nil
        }
        if let fades = json["fadesOlderMessages"]?.bool { result.fadesOlderMessages = fades }
        // Only the dashboard turns team photos and names on; absent means off.
        result.showsTeamPhotos = json["showsTeamPhotos"]?.bool ?? false
        result.showsTeamNames = json["showsTeamNames"]?.bool ?? false

        // Visibility, weakest first: local, then legacy `hidden`, then `"none"` symbols, then explicit `visibility`.
        // Worked on as the appearance's own bit set: a `Set`'s insertions and removals would be compiled for
        // `Element` here (about 3 kB on iOS).
        var hidden = result.hiddenMask
        for name in json["hidden"]?.array ?? [] {
            if let element = name.string.flatMap(Element.init(rawValue:)) { hidden.insert(element) }
        }
        if let icon = json["welcomeIcon"]?.object {
            Self.mergeWelcomeIcon(icon, into: &result, hidden: &hidden, context)
        }
        if let cards = json["cards"] {
            let colors = result.colors
            if let review = cards["review"]?.object {
                Self.mergeCard(review, into: &result.reviewCard, icon: .reviewIcon, accessory: .reviewAccessory,
                               hidden: &hidden, colors: colors, context)
            }
            if let offer = cards["offer"]?.object {
                Self.mergeCard(offer, into: &result.offerCard, icon: .offerIcon, accessory: .offerAccessory,
                               hidden: &hidden, colors: colors, context)
            }
        }
        if let visibility = json["visibility"]?.object {
            for (name, value) in visibility {
                guard let element = Element(rawValue: name), let visible = value.bool else { continue }
                if visible { hidden.remove(element) } else { hidden.insert(element) }
            }
        }
        result.hiddenMask = hidden
        return result
    }

    /// `{light?, dark?}`: each valid variant replaces the local colour of its mode; nothing valid keeps the local one.
    @inline(never) @_optimize(size) static func color(_ json: AppearanceJSON?, over local: ThemedColor) -> ThemedColor {
        ThemedColor(
            light: json?["light"]?.string.flatMap(AppearanceColor.init(hex:)) ?? local.light,
            dark: json?["dark"]?.string.flatMap(AppearanceColor.init(hex:)) ?? local.dark)
    }

    /// An optional colour: a remote colour with a missing variant falls back to `local`, or to `fallback` when the
    /// host set none.
    @inline(never) @_optimize(size)
    static func color(_ json: AppearanceJSON?, over local: ThemedColor?, fallback: ThemedColor) -> ThemedColor? {
        guard let json, json["light"]?.string.flatMap(AppearanceColor.init(hex:)) != nil
                || json["dark"]?.string.flatMap(AppearanceColor.init(hex:)) != nil else { return local }
        return color(json, over: local ?? fallback)
    }

    /// `{languageTag: text}`: the app language's entry, else the UI language's, matched without case; blank or
    /// longer than `limit` characters counts as absent.
    @inline(never) @_optimize(size)
    static func text(_ json: AppearanceJSON?, limit: Int, _ context: AppearanceMergeContext) -> String? {
        guard let entries = json?.object else { return nil }
        for language in [context.appLanguage, context.uiLanguage] {
            let match = entries.first { $0.key.caseInsensitiveCompare(language) == .orderedSame }?.value.string
            if let match, !match.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, match.count <= limit {
                return match
            }
        }
        return nil
    }

    /// An uploaded image's ID: only a UUID, as `<root>/v1/appearance/images/<uuid in lower case>` (spec 3.17).
    @inline(never)
    @_optimize(size) static func image(_ json: AppearanceJSON?, _ context: AppearanceMergeContext) -> AppearanceImage? {
        guard let text = json?.string, let uuid = UUID(uuidString: text) else { return nil }
        return .remote(context.imagesBase.appendingPathComponent(uuid.uuidString.lowercased()))
    }

    /// A symbol name the platform can draw; `"none"` is handled by the caller.
    @inline(never)
    @_optimize(size) static func symbol(_ json: AppearanceJSON?, _ context: AppearanceMergeContext) -> String? {
        guard let name = json?.string, name != "none", context.canDraw(name) else { return nil }
        return name
    }

    /// An uploaded image beats a symbol; a drawable symbol replaces a local image; `"none"` without an image hides
    /// the element (the returned `true`), unless `visibility` says otherwise later.
    @inline(never) @_optimize(size) static func mergeIcon(
        image imageJSON: AppearanceJSON?, symbol symbolJSON: AppearanceJSON?, into image: inout AppearanceImage?,
        _ symbol: inout String?, _ context: AppearanceMergeContext
    ) -> Bool {
        if let remoteImage = Self.image(imageJSON, context) {
            image = remoteImage
        } else if let remoteSymbol = Self.symbol(symbolJSON, context) {
            symbol = remoteSymbol
            image = nil
        } else if symbolJSON?.string == "none" {
            return true
        }
        return false
    }

    @inline(never) @_optimize(size) static func mergeWelcomeIcon(
        _ icon: [String: AppearanceJSON], into result: inout ChatAppearance, hidden: inout ElementMask,
        _ context: AppearanceMergeContext
    ) {
        var welcome = result.welcomeIcon
        if mergeIcon(image: icon["image"], symbol: icon["symbol"], into: &welcome.image, &welcome.symbol, context) {
            hidden.insert(.welcomeIcon)
        }
        welcome.color = color(icon["color"], over: welcome.color, fallback: result.colors.accent)
        if let size = icon["size"]?.number { welcome.size = size }
        if let radius = icon["cornerRadius"]?.number { welcome.cornerRadius = radius }
        if let offset = icon["offset"]?.object {
            // An explicit offset replaces the local one axis by axis; `{x: 0, y: 0}` re-centres.
            welcome.offset = Offset(
                x: offset["x"]?.number ?? welcome.offset.x, y: offset["y"]?.number ?? welcome.offset.y)
        }
        result.welcomeIcon = welcome
    }

    @inline(never) @_optimize(size) static func mergeCard(
        _ json: [String: AppearanceJSON], into card: inout Card, icon: Element, accessory: Element,
        hidden: inout ElementMask, colors: Colors, _ context: AppearanceMergeContext
    ) {
        if mergeIcon(image: json["iconImage"], symbol: json["icon"], into: &card.iconImage, &card.icon, context) {
            hidden.insert(icon)
        }
        if mergeIcon(image: json["accessoryImage"], symbol: json["accessory"], into: &card.accessoryImage,
                     &card.accessory, context) {
            hidden.insert(accessory)
        }
        card.button = color(json["button"], over: card.button, fallback: colors.accent)
        card.buttonText = color(json["buttonText"], over: card.buttonText, fallback: colors.onAccent)
        if let size = json["iconSize"]?.number { card.iconSize = size }
    }
}

/// Spec 7.20: "a symbol the OS cannot draw is ignored". Where the platform can tell (UIKit), it decides; elsewhere a
/// name must look like a platform symbol name (lower-case words and digits joined by dots).
enum SymbolNames {
    @inline(never) @_optimize(size) static func looksDrawable(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 100, name.first != ".", name.last != "." else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "."
        }
    }
}
