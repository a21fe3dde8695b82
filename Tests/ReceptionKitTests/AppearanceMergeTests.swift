import Foundation
@testable import ReceptionKit
import Testing

/// Spec 7.20: the published appearance laid over the host's — remote wins where present and valid.
@Suite("AppearanceMergeTests")
struct AppearanceMergeTests {
    static let root = URL(string: "http://127.0.0.1:9/")!
    static let context = AppearanceMergeContext(
        appLanguage: "de-AT", uiLanguage: "de", imagesBase: root.appendingPathComponent("v1/appearance/images"))

    func merge(_ json: String, over local: ChatAppearance = ChatAppearance(), context: AppearanceMergeContext = context)
        throws -> ChatAppearance {
        let remote = try #require(RemoteAppearance(revision: 3, data: Data(json.utf8)), "not an appearance: \(json)")
        return local.merged(with: remote, context: context)
    }

    static let red = AppearanceColor(red: 0xFF, green: 0, blue: 0)
    static let hostLook: ChatAppearance = {
        var look = ChatAppearance(
            colors: .init(accent: ThemedColor(red), onAccent: ThemedColor(red), background: ThemedColor(red),
                          incoming: ThemedColor(red), incomingText: ThemedColor(red)),
            texts: .init(title: "Help", welcomeTitle: "Hi", welcomeText: "Ask us"), colorScheme: .dark,
            showsCloseButton: false, closeIcon: .arrowDown, closeImage: .asset(name: "close"),
            hiddenElements: [.offerAccessory], fontDesign: .serif, customFontName: "Avenir", fadesOlderMessages: true,
            welcomeIcon: .init(symbol: "star", size: 40, cornerRadius: 12, offset: .init(x: 10, y: -5)))
        look.reviewCard.iconSize = 12
        return look
    }()

    /// The appearance keeps its values in one shared box (for size on iOS): a copy still changes alone.
    @Test func aCopyChangesAloneAndEqualityReadsEveryValue() {
        let original = Self.hostLook
        var copy = original
        #expect(copy == original)
        #expect(copy.hashValue == original.hashValue)
        copy.offerCard.icon = "cart"
        copy.hiddenElements.insert(.title)
        copy.welcomeIcon.size = 500
        #expect(original.offerCard.icon == "gift.fill")
        #expect(!original.hiddenElements.contains(.title))
        #expect(original.welcomeIcon.size == 40)
        #expect(copy.welcomeIcon.size == 160, "a nested value's clamp still runs through the box")
        #expect(copy != original)
        var back = copy
        back.offerCard.icon = "gift.fill"
        back.hiddenElements.remove(.title)
        back.welcomeIcon.size = 40
        #expect(back == original, "equal values in different boxes are equal")
        #expect(back.hashValue == original.hashValue)
        var other = original
        other.texts.welcomeText = "Write to us"
        #expect(other != original, "a change hashed or not is seen by ==")
    }

    @Test func absentRemoteKeysKeepTheHostsValues() throws {
        let merged = try merge("{}", over: Self.hostLook)
        #expect(merged == Self.hostLook)
        // Keys of the wrong type or with unknown values are absent too.
        let wrongTypes = try merge(#"""
            {"colorScheme": "sepia", "showsCloseButton": 1, "closeIcon": "cross", "fontDesign": "comic",
             "fadesOlderMessages": "yes", "colors": {"accent": {"light": "red", "dark": "#12345"}},
             "text": {"title": "Hilfe"}, "welcomeIcon": {"size": "big"}, "closeImage": "not-a-uuid",
             "visibility": {"title": "no"}, "hidden": "title", "unknownKey": {"a": 1}}
            """#, over: Self.hostLook)
        #expect(wrongTypes == Self.hostLook)
    }

    @Test func coloursReplaceTheirModeAndAMissingVariantKeepsTheLocalOne() throws {
        let merged = try merge(#"""
            {"colors": {"accent": {"light": "#00ff00"}, "background": {"light": "#0000FF", "dark": "#000010"},
                        "incoming": {"light": "#GG0000", "dark": "#ABCDEF"}}}
            """#, over: Self.hostLook)
        #expect(merged.colors.accent == ThemedColor(light: AppearanceColor(red: 0, green: 0xFF, blue: 0), dark: Self.red))
        #expect(merged.colors.background.light.hex == "#0000FF")
        #expect(merged.colors.background.dark.hex == "#000010")
        #expect(merged.colors.incoming == ThemedColor(light: Self.red, dark: AppearanceColor(hex: "#abcdef")!))
        #expect(merged.colors.onAccent == Self.hostLook.colors.onAccent)
    }

    @Test(arguments: ["#FFF", "FFFFFFF", "#FFFFFF ", " #FFFFFF", "#FFFFFFF", "#ffffg0", "", "#１２３４５６"])
    func onlySevenCharacterHexColoursAreColours(_ text: String) {
        #expect(AppearanceColor(hex: text) == nil)
    }

    @Test func textsMatchTheAppLanguageThenTheUILanguageWithoutCase() throws {
        let long = String(repeating: "x", count: 81)
        let merged = try merge(#"""
            {"text": {"title": {"DE-at": "Hilfe AT", "de": "Hilfe"},
                      "welcomeTitle": {"de": "Hallo", "en": "Hello"},
                      "welcomeText": {"de-AT": "   ", "de": "\#(String(repeating: "y", count: 1000))"}}}
            """#, over: Self.hostLook)
        #expect(merged.texts.title == "Hilfe AT")
        #expect(merged.texts.welcomeTitle == "Hallo")
        #expect(merged.texts.welcomeText?.count == 1000, "a blank app-language text falls through to the UI language")
        let tooLong = try merge(#"{"text": {"title": {"de": "\#(long)"}, "welcomeTitle": {"fr": "Bonjour"}}}"#,
                                over: Self.hostLook)
        #expect(tooLong.texts.title == "Help", "over 80 characters is ignored")
        #expect(tooLong.texts.welcomeTitle == "Hi", "no entry for this language keeps the host's")
        // Emoji count as characters, so a title of 80 flags fits.
        let flags = String(repeating: "🇩🇪", count: 80)
        #expect(try merge(#"{"text": {"title": {"de": "\#(flags)"}}}"#).texts.title == flags)
    }

    @Test func aValidRemoteCloseSymbolRemovesALocalCloseImageAnUnknownOneDoesNot() throws {
        let valid = try merge(#"{"closeIcon": "chevron.down", "showsCloseButton": true}"#, over: Self.hostLook)
        #expect(valid.closeIcon == .chevronDown)
        #expect(valid.closeImage == nil)
        #expect(valid.showsCloseButton)
        let unknown = try merge(#"{"closeIcon": "chevron.up"}"#, over: Self.hostLook)
        #expect(unknown.closeIcon == .arrowDown)
        #expect(unknown.closeImage == .asset(name: "close"))
    }

    @Test func uploadedImagesAreUUIDsServedByTheServiceInLowerCase() throws {
        let merged = try merge(#"{"closeImage": "6F9619FF-8B86-D011-B42D-00C04FC964FF"}"#, over: Self.hostLook)
        #expect(merged.closeImage == .remote(URL(string: "http://127.0.0.1:9/v1/appearance/images/6f9619ff-8b86-d011-b42d-00c04fc964ff")!))
        for bad in ["../../admin", "6F9619FF8B86D011B42D00C04FC964FF", "", "6F9619FF-8B86-D011-B42D-00C04FC964FF/x"] {
            #expect(try merge(#"{"closeImage": "\#(bad)"}"#, over: Self.hostLook).closeImage == .asset(name: "close"))
        }
    }

    @Test func aValidRemoteFontDesignClearsALocalCustomFont() throws {
        let merged = try merge(#"{"fontDesign": "rounded"}"#, over: Self.hostLook)
        #expect(merged.fontDesign == .rounded)
        #expect(merged.customFontName == nil)
        let invalid = try merge(#"{"fontDesign": "Rounded"}"#, over: Self.hostLook)
        #expect(invalid.customFontName == "Avenir")
        #expect(invalid.fontDesign == .serif)
    }

    @Test func theWelcomeIconOverridesWithItsLimits() throws {
        let merged = try merge(#"""
            {"welcomeIcon": {"symbol": "heart.fill", "size": 400, "color": {"dark": "#112233"}}}
            """#, over: Self.hostLook)
        #expect(merged.welcomeIcon.symbol == "heart.fill")
        #expect(merged.welcomeIcon.size == 160, "size is clamped to 160")
        #expect(merged.welcomeIcon.cornerRadius == 12, "the corner radius overrides independently")
        #expect(merged.welcomeIcon.offset == .init(x: 10, y: -5))
        // A missing variant of an icon colour falls back to the accent colour in that mode.
        #expect(merged.welcomeIcon.color == ThemedColor(light: Self.red, dark: AppearanceColor(hex: "#112233")!))
        let small = try merge(#"{"welcomeIcon": {"size": 1, "cornerRadius": 500, "offset": {"x": -999, "y": 121}}}"#)
        #expect(small.welcomeIcon.size == 16)
        #expect(small.welcomeIcon.cornerRadius == 80)
        #expect(small.welcomeIcon.offset == .init(x: -120, y: 120))
        #expect(ChatAppearance().welcomeIcon.cornerRadius == 0, "the corner radius defaults to 0")
    }

    @Test func anExplicitZeroOffsetReCentres() throws {
        let merged = try merge(#"{"welcomeIcon": {"offset": {"x": 0, "y": 0}}}"#, over: Self.hostLook)
        #expect(merged.welcomeIcon.offset == .zero)
        let onlyY = try merge(#"{"welcomeIcon": {"offset": {"y": 0}}}"#, over: Self.hostLook)
        #expect(onlyY.welcomeIcon.offset == .init(x: 10, y: 0))
    }

    @Test func anImageBeatsASymbol() throws {
        let merged = try merge(#"""
            {"welcomeIcon": {"symbol": "heart", "image": "0b7e3a52-4a0e-4c5c-9a4c-0d0b8d1c2e3f"}}
            """#, over: Self.hostLook)
        #expect(merged.welcomeIcon.image == .remote(Self.root.appendingPathComponent("v1/appearance/images/0b7e3a52-4a0e-4c5c-9a4c-0d0b8d1c2e3f")))
        #expect(merged.welcomeIcon.symbol == "star", "the symbol is not taken when an image is")
        // A remote symbol replaces a local image.
        var local = Self.hostLook
        local.welcomeIcon.image = .asset(name: "logo")
        #expect(try merge(#"{"welcomeIcon": {"symbol": "heart"}}"#, over: local).welcomeIcon.image == nil)
    }

    @Test func aSymbolThePlatformCannotDrawIsIgnored() throws {
        var context = Self.context
        context.canDraw = { $0 == "known.symbol" }
        #expect(try merge(#"{"welcomeIcon": {"symbol": "unknown"}}"#, over: Self.hostLook, context: context).welcomeIcon.symbol == "star")
        #expect(try merge(#"{"welcomeIcon": {"symbol": "known.symbol"}}"#, over: Self.hostLook, context: context).welcomeIcon.symbol == "known.symbol")
        #expect(try merge(#"{"cards": {"review": {"icon": "Not A Symbol!"}}}"#).reviewCard.icon == "star.fill")
    }

    @Test func hiddenThenNoneSymbolsThenVisibilityDecide() throws {
        let hidden = try merge(#"{"hidden": ["title", "welcomeText", "nonsense"]}"#, over: Self.hostLook)
        #expect(hidden.hiddenElements == [.title, .welcomeText, .offerAccessory], "legacy hidden adds to the host's")
        let overridden = try merge(#"""
            {"hidden": ["title", "welcomeText"], "visibility": {"title": true, "offerAccessory": true, "welcomeIcon": false}}
            """#, over: Self.hostLook)
        #expect(overridden.hiddenElements == [.welcomeText, .welcomeIcon], "visibility overrides hidden and local")
        let none = try merge(#"{"welcomeIcon": {"symbol": "none"}, "cards": {"review": {"icon": "none"}, "offer": {"accessory": "none"}}}"#)
        #expect(!none.shows(.welcomeIcon))
        #expect(!none.shows(.reviewIcon))
        #expect(!none.shows(.offerAccessory))
        #expect(none.shows(.offerIcon))
        #expect(none.welcomeIcon.symbol == ChatAppearance().welcomeIcon.symbol, "none hides, it is not a symbol")
        let shownAnyway = try merge(#"{"welcomeIcon": {"symbol": "none"}, "cards": {"review": {"icon": "none"}}, "visibility": {"welcomeIcon": true, "reviewIcon": true}}"#)
        #expect(shownAnyway.shows(.welcomeIcon))
        #expect(shownAnyway.shows(.reviewIcon))
    }

    @Test func cardsTakeTheirSymbolsColoursAndClampedIconSize() throws {
        let merged = try merge(#"""
            {"cards": {"review": {"icon": "hand.thumbsup", "iconSize": 2, "button": {"light": "#101010"}},
                       "offer": {"iconImage": "0b7e3a52-4a0e-4c5c-9a4c-0d0b8d1c2e3f", "iconSize": 99,
                                 "buttonText": {"dark": "#202020"}, "accessory": "chevron.right"}}}
            """#, over: Self.hostLook)
        #expect(merged.reviewCard.icon == "hand.thumbsup")
        #expect(merged.reviewCard.iconSize == 8)
        #expect(merged.reviewCard.button == ThemedColor(light: AppearanceColor(hex: "#101010")!, dark: Self.red),
                "a missing variant falls back to the accent colour")
        #expect(merged.offerCard.iconSize == 28)
        #expect(merged.offerCard.iconImage != nil)
        #expect(merged.offerCard.accessory == "chevron.right")
        #expect(merged.offerCard.buttonText?.dark.hex == "#202020")
        #expect(merged.offerCard.buttonText?.light == Self.red, "the light variant is the host's on-accent colour")
    }

    @Test func teamPhotosAndNamesAreOnlyEverTurnedOnByTheDashboard() throws {
        #expect(!ChatAppearance().showsTeamNames)
        let on = try merge(#"{"showsTeamPhotos": true, "showsTeamNames": true}"#)
        #expect(on.showsTeamPhotos && on.showsTeamNames)
        let absent = try merge(#"{"colorScheme": "light"}"#, over: on)
        #expect(!absent.showsTeamPhotos && !absent.showsTeamNames, "absent means off")
        #expect(absent.colorScheme == .light)
    }

    @Test func olderOutgoingBubblesFadeBySixHundredthsUpToAQuarter() {
        var look = ChatAppearance()
        #expect(look.fade(newerTextMessages: 3) == 0)
        look.fadesOlderMessages = true
        #expect(look.fade(newerTextMessages: 0) == 0)
        #expect(abs(look.fade(newerTextMessages: 2) - 0.12) < 1e-9)
        #expect(look.fade(newerTextMessages: 4) == 0.24)
        #expect(look.fade(newerTextMessages: 50) == 0.24)
    }

    @Test func theRemainingKeysOverrideOneByOne() throws {
        var plain = ChatAppearance()
        plain.closeImage = .asset(name: "host-close")
        let merged = try merge(#"""
            {"fadesOlderMessages": true, "welcomeIcon": {"cornerRadius": 24},
             "closeIcon": "xmark", "closeImage": "0B7E3A52-4A0E-4C5C-9A4C-0D0B8D1C2E3F",
             "cards": {"review": {"accessoryImage": "0b7e3a52-4a0e-4c5c-9a4c-0d0b8d1c2e3f", "accessory": "chevron.right"}},
             "text": {"welcomeTitle": {"de": "\#(String(repeating: "t", count: 161))"},
                      "welcomeText": {"de": "\#(String(repeating: "w", count: 1001))"}}}
            """#, over: plain)
        #expect(merged.fadesOlderMessages)
        #expect(merged.welcomeIcon.cornerRadius == 24)
        #expect(merged.welcomeIcon.size == ChatAppearance().welcomeIcon.size, "the corner radius alone leaves the size")
        let image = AppearanceImage.remote(Self.root.appendingPathComponent("v1/appearance/images/0b7e3a52-4a0e-4c5c-9a4c-0d0b8d1c2e3f"))
        #expect(merged.closeImage == image, "a valid close image wins over the close symbol")
        #expect(merged.reviewCard.accessoryImage == image)
        #expect(merged.reviewCard.accessory == nil, "the image beats the accessory symbol")
        #expect(merged.texts.welcomeTitle == nil, "over 160 characters")
        #expect(merged.texts.welcomeText == nil, "over 1,000 characters")
    }

    @Test func theHostsOwnNumbersAreClampedToo() {
        var icon = ChatAppearance.WelcomeIcon(size: .nan, cornerRadius: -.infinity, offset: .init(x: .infinity, y: .nan))
        #expect(icon.size == 16 && icon.cornerRadius == 0 && icon.offset == .init(x: 120, y: -120))
        icon.size = 1e300
        #expect(icon.size == 160)
        var card = ChatAppearance.Card(iconSize: -3)
        #expect(card.iconSize == 8)
        card.iconSize = .infinity
        #expect(card.iconSize == 28)
    }

    @Test func anEnvelopeThatIsNotAnObjectOrHasANegativeRevisionIsNoAppearance() {
        #expect(RemoteAppearance(revision: 1, data: Data("[]".utf8)) == nil)
        #expect(RemoteAppearance(revision: 1, data: Data("{".utf8)) == nil)
        #expect(RemoteAppearance(revision: -1, data: Data("{}".utf8)) == nil)
        #expect(RemoteAppearance(revision: 0, data: Data("{}".utf8))?.revision == 0)
    }

    /// Two published appearances are equal when their JSON is, whatever the order of its keys; a value of another
    /// kind (`true` against `1`), another length or another nested value is a change.
    @Test func appearancesAreEqualExactlyWhenTheirJSONIs() throws {
        func appearance(_ json: String, revision: Int = 3) throws -> RemoteAppearance {
            try #require(RemoteAppearance(revision: revision, data: Data(json.utf8)))
        }
        let base = #"{"a": true, "b": [1, "x", null], "c": {"d": {"e": 2.5}}}"#
        #expect(try appearance(base) == appearance(#"{"c": {"d": {"e": 2.5}}, "b": [1, "x", null], "a": true}"#))
        for changed in [
            #"{"a": 1, "b": [1, "x", null], "c": {"d": {"e": 2.5}}}"#,
            #"{"a": true, "b": [1, "x"], "c": {"d": {"e": 2.5}}}"#,
            #"{"a": true, "b": [1, "y", null], "c": {"d": {"e": 2.5}}}"#,
            #"{"a": true, "b": [1, "x", null], "c": {"d": {"e": 2.6}}}"#,
            #"{"a": true, "b": [1, "x", null], "c": {"d": {"f": 2.5}}}"#,
            #"{"a": true, "b": [1, "x", null], "c": {"d": {"e": 2.5}}, "g": null}"#,
        ] {
            #expect(try appearance(base) != appearance(changed), "\(changed)")
        }
        #expect(try appearance(base) != appearance(base, revision: 4))
    }
}
