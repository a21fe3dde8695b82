import Digest
import Foundation
import ReceptionCore

/// An sRGB colour written as `#RRGGBB`.
public struct AppearanceColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// A colour from its components.
    @inline(never) @_optimize(size) public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Spec 7.20: exactly seven characters, `#` and six hexadecimal digits; anything else is `nil`.
    @inline(never) @_optimize(size) public init?(hex: String) {
        guard hex.utf8.count == 7, hex.utf8.first == UInt8(ascii: "#"), let bytes = Hex.decode(hex.dropFirst()),
              bytes.count == 3 else { return nil }
        self.init(red: bytes[0], green: bytes[1], blue: bytes[2])
    }

    /// `#RRGGBB` in upper case.
    @_optimize(size) public var hex: String { "#" + Hex.encode([red, green, blue]).uppercased() }

    @_optimize(size) public var description: String { hex }

    /// Hashes the red component only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(red) }
}

/// A colour for light mode and one for dark mode.
public struct ThemedColor: Sendable, Hashable {
    /// Used in light mode.
    public var light: AppearanceColor
    /// Used in dark mode.
    public var dark: AppearanceColor

    /// Different colours per mode.
    @inline(never) @_optimize(size) public init(light: AppearanceColor, dark: AppearanceColor) {
        self.light = light
        self.dark = dark
    }

    /// The same colour in both modes.
    @_optimize(size) public init(_ both: AppearanceColor) { self.init(light: both, dark: both) }

    /// Hashes the light colour only; `==` compares every field, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(light) }
}

/// An image the chat draws: one shipped in the host app, or one uploaded in the dashboard (spec 3.17).
public indirect enum AppearanceImage: Sendable, Hashable {
    /// An image in the host app's asset catalogue (or, on hosts without one, a file name the host understands).
    case asset(name: String)
    /// An image uploaded with the remote appearance, loaded without Reception headers or authentication.
    case remote(URL)

    /// Hashes the case only; `==` compares the values too, so equal values hash alike.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        switch self {
        case .asset: hasher.combine(0)
        case .remote: hasher.combine(1)
        }
    }
}

/// How the chat looks: the host's choices (`Reception.shared.appearance`), merged with the appearance published in
/// the dashboard when `usesRemoteAppearance` is on (spec 7.20; remote wins where present, local where absent).
public struct ChatAppearance: Sendable, Hashable {
    /// The palette of the chat.
    public struct Colors: Sendable, Hashable {
        /// Outgoing bubbles, the send button and links.
        public var accent: ThemedColor
        /// Text and icons on the accent colour.
        public var onAccent: ThemedColor
        /// The transcript's background.
        public var background: ThemedColor
        /// Incoming (team) bubbles.
        public var incoming: ThemedColor
        /// Text in incoming bubbles.
        public var incomingText: ThemedColor

        /// A palette.
        @inline(never) @_optimize(size) public init(
            accent: ThemedColor, onAccent: ThemedColor, background: ThemedColor, incoming: ThemedColor,
            incomingText: ThemedColor
        ) {
            self.accent = accent
            self.onAccent = onAccent
            self.background = background
            self.incoming = incoming
            self.incomingText = incomingText
        }

        /// The built-in palette.
        public static let standard = Colors(
            accent: ThemedColor(light: AppearanceColor(red: 0x00, green: 0x7A, blue: 0xFF),
                                dark: AppearanceColor(red: 0x0A, green: 0x84, blue: 0xFF)),
            onAccent: ThemedColor(AppearanceColor(red: 0xFF, green: 0xFF, blue: 0xFF)),
            background: ThemedColor(light: AppearanceColor(red: 0xFF, green: 0xFF, blue: 0xFF),
                                    dark: AppearanceColor(red: 0x00, green: 0x00, blue: 0x00)),
            incoming: ThemedColor(light: AppearanceColor(red: 0xE9, green: 0xE9, blue: 0xEB),
                                  dark: AppearanceColor(red: 0x26, green: 0x26, blue: 0x29)),
            incomingText: ThemedColor(light: AppearanceColor(red: 0x00, green: 0x00, blue: 0x00),
                                      dark: AppearanceColor(red: 0xFF, green: 0xFF, blue: 0xFF)))

        /// Hashes the accent only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(accent) }
    }

    /// Texts the chat shows; `nil` shows the built-in text in the chat language.
    public struct Texts: Sendable, Hashable {
        /// The navigation title (at most 80 characters from the dashboard).
        public var title: String?
        /// The heading of the empty chat (at most 160).
        public var welcomeTitle: String?
        /// The text under it (at most 1,000).
        public var welcomeText: String?

        /// Texts; leave one `nil` for the built-in text.
        @inline(never)
        @_optimize(size) public init(title: String? = nil, welcomeTitle: String? = nil, welcomeText: String? = nil) {
            self.title = title
            self.welcomeTitle = welcomeTitle
            self.welcomeText = welcomeText
        }

        /// Hashes the title only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(title) }
    }

    /// Light, dark, or following the system.
    public enum ColorScheme: String, Sendable, Hashable, CaseIterable, CaseIdentity {
        /// Follows the device's appearance setting.
        case system
        /// Always the light colours.
        case light
        /// Always the dark colours.
        case dark
    }

    /// The built-in close symbols.
    public enum CloseIcon: String, Sendable, Hashable, CaseIterable, CaseIdentity {
        /// A cross (SF Symbol `xmark`).
        case xmark
        /// A downward chevron (`chevron.down`), for a chat presented as a sheet.
        case chevronDown = "chevron.down"
        /// A downward arrow (`arrow.down`).
        case arrowDown = "arrow.down"
    }

    /// The system font's designs.
    public enum FontDesign: String, Sendable, Hashable, CaseIterable, CaseIdentity {
        /// The system font as it is.
        case standard = "default"
        /// The rounded design.
        case rounded
        /// The serif design.
        case serif
        /// The monospaced design.
        case monospaced
    }

    /// The parts of the chat that can be hidden.
    public enum Element: String, Sendable, Hashable, CaseIterable, CaseIdentity {
        /// The navigation title.
        case title
        /// The welcome screen's title.
        case welcomeTitle
        /// The welcome screen's text.
        case welcomeText
        /// The welcome screen's icon.
        case welcomeIcon
        /// The icon of a review card.
        case reviewIcon
        /// The trailing accessory of a review card's button.
        case reviewAccessory
        /// The icon of a paywall (offer) card.
        case offerIcon
        /// The trailing accessory of a paywall card's button.
        case offerAccessory
    }

    /// A point offset from the centred position.
    public struct Offset: Sendable, Hashable {
        /// Horizontal, points.
        public var x: Double
        /// Vertical, points.
        public var y: Double
        /// An offset.
        @inline(never) @_optimize(size) public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
        /// Centred.
        public static let zero = Offset(x: 0, y: 0)

        /// Hashes the horizontal offset only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(x) }
    }

    /// The icon above the welcome text of an empty chat. An image beats a symbol.
    public struct WelcomeIcon: Sendable, Hashable {
        /// A platform symbol name.
        public var symbol: String?
        /// An image, drawn instead of the symbol.
        public var image: AppearanceImage?
        /// The symbol's colour (`nil`: the accent colour).
        public var color: ThemedColor?
        /// Points, 16–160.
        public var size: Double { didSet { size = Self.clamp(size, 16, 160) } }
        /// Points, 0–80.
        public var cornerRadius: Double { didSet { cornerRadius = Self.clamp(cornerRadius, 0, 80) } }
        /// Each axis −120…120 points.
        public var offset: Offset {
            didSet { offset = Offset(x: Self.clamp(offset.x, -120, 120), y: Self.clamp(offset.y, -120, 120)) }
        }

        /// A welcome icon; out-of-range numbers are clamped.
        @inline(never) @_optimize(size) public init(
            symbol: String? = "bubble.left.and.bubble.right", image: AppearanceImage? = nil, color: ThemedColor? = nil,
            size: Double = 56, cornerRadius: Double = 0, offset: Offset = .zero
        ) {
            self.symbol = symbol
            self.image = image
            self.color = color
            self.size = Self.clamp(size, 16, 160)
            self.cornerRadius = Self.clamp(cornerRadius, 0, 80)
            self.offset = Offset(x: Self.clamp(offset.x, -120, 120), y: Self.clamp(offset.y, -120, 120))
        }

        @inline(never) @_optimize(size) static func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
            value.isNaN ? low : min(max(value, low), high)
        }

        /// Hashes the symbol only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(symbol) }

        /// Written rather than synthesized, compiled for size and never inlined: at `-O` the synthesized `==` takes
        /// in every field's comparison (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
        @inline(never) @_optimize(size) public static func == (lhs: WelcomeIcon, rhs: WelcomeIcon) -> Bool {
            lhs.size == rhs.size && lhs.cornerRadius == rhs.cornerRadius && lhs.offset == rhs.offset
                && lhs.symbol == rhs.symbol && lhs.color == rhs.color && lhs.image == rhs.image
        }
    }

    /// The look of a review or offer (paywall) card.
    public struct Card: Sendable, Hashable {
        /// A symbol before the text.
        public var icon: String?
        /// An image instead of the icon symbol.
        public var iconImage: AppearanceImage?
        /// A symbol at the trailing edge.
        public var accessory: String?
        /// An image instead of the accessory symbol.
        public var accessoryImage: AppearanceImage?
        /// The button's background (`nil`: the accent colour).
        public var button: ThemedColor?
        /// The button's text (`nil`: the on-accent colour).
        public var buttonText: ThemedColor?
        /// Points, 8–28.
        public var iconSize: Double { didSet { iconSize = WelcomeIcon.clamp(iconSize, 8, 28) } }

        /// A card look; the icon size is clamped.
        @inline(never) @_optimize(size) public init(
            icon: String? = nil, iconImage: AppearanceImage? = nil, accessory: String? = nil,
            accessoryImage: AppearanceImage? = nil, button: ThemedColor? = nil, buttonText: ThemedColor? = nil,
            iconSize: Double = 20
        ) {
            self.icon = icon
            self.iconImage = iconImage
            self.accessory = accessory
            self.accessoryImage = accessoryImage
            self.button = button
            self.buttonText = buttonText
            self.iconSize = WelcomeIcon.clamp(iconSize, 8, 28)
        }

        /// Hashes the icon only; `==` compares every field, so equal values hash alike.
        @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) { hasher.combine(icon) }

        /// Written rather than synthesized, compiled for size and never inlined: at `-O` the synthesized `==` takes
        /// in every field's comparison (Docs/Footprint.md). It compares every field (`WrittenEqualityTests`).
        @inline(never) @_optimize(size) public static func == (lhs: Card, rhs: Card) -> Bool {
            lhs.iconSize == rhs.iconSize && lhs.icon == rhs.icon && lhs.accessory == rhs.accessory
                && lhs.button == rhs.button && lhs.buttonText == rhs.buttonText && lhs.iconImage == rhs.iconImage
                && lhs.accessoryImage == rhs.accessoryImage
        }
    }

    /// The palette.
    @inline(never) @_optimize(size) public var colors: Colors {
        get { values.colors }
        set { unique().colors = newValue }
    }
    /// The title and welcome texts.
    @inline(never) @_optimize(size) public var texts: Texts {
        get { values.texts }
        set { unique().texts = newValue }
    }
    /// Light, dark or system.
    @inline(never) @_optimize(size) public var colorScheme: ColorScheme {
        get { values.colorScheme }
        set { unique().colorScheme = newValue }
    }
    /// Whether the SDK-presented chat shows a close button.
    @inline(never) @_optimize(size) public var showsCloseButton: Bool {
        get { values.showsCloseButton }
        set { unique().showsCloseButton = newValue }
    }
    /// The close button's symbol.
    @inline(never) @_optimize(size) public var closeIcon: CloseIcon {
        get { values.closeIcon }
        set { unique().closeIcon = newValue }
    }
    /// An image for the close button, drawn instead of `closeIcon`.
    @inline(never) @_optimize(size) public var closeImage: AppearanceImage? {
        get { values.closeImage }
        set { unique().closeImage = newValue }
    }
    /// Parts of the chat that are not shown.
    @inline(never) @_optimize(size) public var hiddenElements: Set<Element> {
        get { values.hidden.elements }
        set { unique().hidden = ElementMask(newValue) }
    }
    /// `hiddenElements` as the appearance keeps them, one bit per element: the remote appearance's merge works on
    /// these, so the set's insertions and removals are not compiled for `Element` (Docs/Footprint.md).
    @inline(never) @_optimize(size) package var hiddenMask: ElementMask {
        get { values.hidden }
        set { unique().hidden = newValue }
    }
    /// The design of the system font.
    @inline(never) @_optimize(size) public var fontDesign: FontDesign {
        get { values.fontDesign }
        set { unique().fontDesign = newValue }
    }
    /// A font of the host app (by name), used instead of the system font.
    @inline(never) @_optimize(size) public var customFontName: String? {
        get { values.customFontName }
        set { unique().customFontName = newValue }
    }
    /// Whether older outgoing bubbles lighten as newer text messages follow.
    @inline(never) @_optimize(size) public var fadesOlderMessages: Bool {
        get { values.fadesOlderMessages }
        set { unique().fadesOlderMessages = newValue }
    }
    /// The welcome icon.
    @inline(never) @_optimize(size) public var welcomeIcon: WelcomeIcon {
        get { values.welcomeIcon }
        set { unique().welcomeIcon = newValue }
    }
    /// Review cards.
    @inline(never) @_optimize(size) public var reviewCard: Card {
        get { values.reviewCard }
        set { unique().reviewCard = newValue }
    }
    /// Paywall (offer) cards.
    @inline(never) @_optimize(size) public var offerCard: Card {
        get { values.offerCard }
        set { unique().offerCard = newValue }
    }
    /// Whether agent replies show the teammate's photo. Only the dashboard can turn it on (seed 001).
    @inline(never) @_optimize(size) public package(set) var showsTeamPhotos: Bool {
        get { values.showsTeamPhotos }
        set { unique().showsTeamPhotos = newValue }
    }
    /// Whether agent replies show the teammate's first name. Only the dashboard can turn it on (seed 001).
    @inline(never) @_optimize(size) public package(set) var showsTeamNames: Bool {
        get { values.showsTeamNames }
        set { unique().showsTeamNames = newValue }
    }

    /// Every choice, held once behind a reference: the appearance travels through SwiftUI's environment into
    /// every view of the chat, and a one-reference value keeps each of those views' copy code small. The reference
    /// is a class of its own rather than a struct in a `ValueBox`: such a struct carries value witnesses (its copy,
    /// move and destruction, field by field) of some 12 kB, which a class does not have (Docs/Footprint.md).
    private var values: Values

    /// An appearance; every argument has the built-in default.
    @inline(never) @_optimize(size) public init(
        colors: Colors = .standard, texts: Texts = Texts(), colorScheme: ColorScheme = .system,
        showsCloseButton: Bool = true, closeIcon: CloseIcon = .xmark, closeImage: AppearanceImage? = nil,
        hiddenElements: Set<Element> = [], fontDesign: FontDesign = .standard, customFontName: String? = nil,
        fadesOlderMessages: Bool = false, welcomeIcon: WelcomeIcon = WelcomeIcon(),
        reviewCard: Card = Card(icon: "star.fill"), offerCard: Card = Card(icon: "gift.fill")
    ) {
        values = Values(
            colors: colors, texts: texts, colorScheme: colorScheme, showsCloseButton: showsCloseButton,
            closeIcon: closeIcon, closeImage: closeImage, hidden: ElementMask(hiddenElements), fontDesign: fontDesign,
            customFontName: customFontName, fadesOlderMessages: fadesOlderMessages, welcomeIcon: welcomeIcon,
            reviewCard: reviewCard, offerCard: offerCard, showsTeamPhotos: false, showsTeamNames: false)
    }

    /// Copy on write: a change to an appearance whose values another appearance shares copies them first.
    /// The values to write to (a setter writes through it rather than through an `update` closure, which would be
    /// compiled at the host's `-O` once per property).
    @inline(never) @_optimize(size) private mutating func unique() -> Values {
        if !isKnownUniquelyReferenced(&values) { values = values.copy() }
        return values
    }

    @inline(never) @_optimize(size) public static func == (lhs: ChatAppearance, rhs: ChatAppearance) -> Bool {
        lhs.values === rhs.values || lhs.values.equals(rhs.values)
    }

    /// Hashes the palette and the font choices: equal appearances hash alike, and the rest is left to `==`.
    @inline(never) @_optimize(size) public func hash(into hasher: inout Hasher) {
        hasher.combine(colors)
        hasher.combine(fontDesign)
        hasher.combine(customFontName)
    }

    /// `@unchecked Sendable`: its fields change only through `update`, on a reference no other appearance holds.
    private final class Values: @unchecked Sendable {
        var colors: Colors
        var texts: Texts
        var colorScheme: ColorScheme
        var showsCloseButton: Bool
        var closeIcon: CloseIcon
        var closeImage: AppearanceImage?
        var hidden: ElementMask
        var fontDesign: FontDesign
        var customFontName: String?
        var fadesOlderMessages: Bool
        var welcomeIcon: WelcomeIcon
        var reviewCard: Card
        var offerCard: Card
        var showsTeamPhotos: Bool
        var showsTeamNames: Bool

        @inline(never) @_optimize(size) init(
            colors: Colors, texts: Texts, colorScheme: ColorScheme, showsCloseButton: Bool, closeIcon: CloseIcon,
            closeImage: AppearanceImage?, hidden: ElementMask, fontDesign: FontDesign,
            customFontName: String?, fadesOlderMessages: Bool, welcomeIcon: WelcomeIcon, reviewCard: Card,
            offerCard: Card, showsTeamPhotos: Bool, showsTeamNames: Bool
        ) {
            self.colors = colors
            self.texts = texts
            self.colorScheme = colorScheme
            self.showsCloseButton = showsCloseButton
            self.closeIcon = closeIcon
            self.closeImage = closeImage
            self.hidden = hidden
            self.fontDesign = fontDesign
            self.customFontName = customFontName
            self.fadesOlderMessages = fadesOlderMessages
            self.welcomeIcon = welcomeIcon
            self.reviewCard = reviewCard
            self.offerCard = offerCard
            self.showsTeamPhotos = showsTeamPhotos
            self.showsTeamNames = showsTeamNames
        }

        @inline(never) @_optimize(size) func copy() -> Values {
            Values(
                colors: colors, texts: texts, colorScheme: colorScheme, showsCloseButton: showsCloseButton,
                closeIcon: closeIcon, closeImage: closeImage, hidden: hidden, fontDesign: fontDesign,
                customFontName: customFontName, fadesOlderMessages: fadesOlderMessages, welcomeIcon: welcomeIcon,
                reviewCard: reviewCard, offerCard: offerCard, showsTeamPhotos: showsTeamPhotos,
                showsTeamNames: showsTeamNames)
        }

        /// Every field (`ChatAppearanceTests` changes each public one and expects the appearances to differ).
        @inline(never) @_optimize(size) func equals(_ other: Values) -> Bool {
            colors == other.colors && texts == other.texts && colorScheme == other.colorScheme
                && showsCloseButton == other.showsCloseButton && closeIcon == other.closeIcon
                && closeImage == other.closeImage && hidden == other.hidden
                && fontDesign == other.fontDesign && customFontName == other.customFontName
                && fadesOlderMessages == other.fadesOlderMessages && welcomeIcon == other.welcomeIcon
                && reviewCard == other.reviewCard && offerCard == other.offerCard
                && showsTeamPhotos == other.showsTeamPhotos && showsTeamNames == other.showsTeamNames
        }
    }

    /// Whether `element` is shown.
    @_optimize(size) public func shows(_ element: Element) -> Bool { !values.hidden.contains(element) }

    /// Spec 7.20 `fadesOlderMessages`: how much an outgoing bubble lightens when `newerTextMessages` text messages
    /// follow it — 0.06 each, at most 0.24; 0 when fading is off.
    @inline(never) @_optimize(size) public func fade(newerTextMessages: Int) -> Double {
        guard fadesOlderMessages, newerTextMessages > 0 else { return 0 }
        return min(0.06 * Double(newerTextMessages), 0.24)
    }

    /// How many newer text messages change the fade: past 4 (0.06 × 4 = 0.24) it stays the same, so a new message
    /// changes the fade of the own bubbles before its last 4 text messages only.
    static let fadeSteps = 4
}

/// Elements of the chat to hide, one bit per `ChatAppearance.Element` case: how an appearance keeps its
/// `hiddenElements`, and what the remote appearance's merge works on.
package struct ElementMask: Sendable, Equatable {
    private var bits: UInt64 = 0

    @inline(never) @_optimize(size) package init(_ elements: Set<ChatAppearance.Element>) {
        for element in elements { insert(element) }
    }

    private static let order = ChatAppearance.Element.allCases

    @inline(never) @_optimize(size) private static func bit(_ element: ChatAppearance.Element) -> UInt64 {
        UInt64(1) << UInt64(order.firstIndex(of: element) ?? 0)
    }

    @_optimize(size) package func contains(_ element: ChatAppearance.Element) -> Bool { bits & Self.bit(element) != 0 }

    @_optimize(size) package mutating func insert(_ element: ChatAppearance.Element) { bits |= Self.bit(element) }

    @_optimize(size) package mutating func remove(_ element: ChatAppearance.Element) { bits &= ~Self.bit(element) }

    /// The hidden elements as the public API gives them.
    @inline(never) @_optimize(size) package var elements: Set<ChatAppearance.Element> {
        Set(Self.order.filter { bits & Self.bit($0) != 0 })
    }
}
