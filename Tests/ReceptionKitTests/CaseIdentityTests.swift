import Foundation
import Identity
import PushRouting
import Testing
import Unread
@testable import ReceptionKit

/// `CaseIdentity` (ReceptionCore): raw-value enums compared and hashed by their case. Every conforming type in the
/// SDK's sources is checked here: two cases are equal exactly when their raw values are, equal cases hash alike, the
/// stored index is the declaration's, and the enum is stored in at most one byte.
struct CaseIdentityTests {
    /// Every enum the sources declare `CaseIdentity`, with its cases.
    static let checked: [(name: String, check: @Sendable () -> [String])] = [
        ("ConnectionBanner", { verify([ConnectionBanner.hidden, .offline, .connecting, .connected, .paused]) }),
        ("ColorScheme", { verify(ChatAppearance.ColorScheme.allCases) }),
        ("CloseIcon", { verify(ChatAppearance.CloseIcon.allCases) }),
        ("FontDesign", { verify(ChatAppearance.FontDesign.allCases) }),
        ("Element", { verify(ChatAppearance.Element.allCases) }),
        ("DeliveryStatus", { verify(DeliveryStatus.allDeclared) }),
        ("ComposerAvailability", { verify(ComposerAvailability.allDeclared) }),
        ("RetryScope", { verify(RetryScope.allCases) }),
        ("NotificationAuthorization", { verify(NotificationAuthorization.allCases) }),
        ("UnreadTrigger", { verify(UnreadTrigger.allCases) }),
        ("Refusal", { verify(IdentityTokenInspector.Refusal.allCases) }),
        ("LayoutDirection", { verify([LayoutDirection.leftToRight, .rightToLeft]) }),
        ("ChatTextKey", { verify(ChatTextKey.allCases) }),
        ("HaltReason", { verify([HaltReason.appUnavailable, .blocked]) }),
        ("PushEnvironment", { verify(PushEnvironment.allCases) }),
        ("LogLevel", { verify(LogLevel.allCases) }),
        ("AppLifecycleState", { verify([AppLifecycleState.active, .inactive, .background]) }),
        ("State", { verify([StagedToken.State.unsent, .sent, .accepted]) }),
        ("PushEnvironmentChoice", { verify(PushEnvironmentChoice.allCases) }),
    ]

    /// The problems with `cases` (all of one enum, in declaration order); empty when none.
    static func verify<T: CaseIdentity>(_ cases: [T]) -> [String] where T.RawValue: Equatable {
        var problems: [String] = []
        if MemoryLayout<T>.size > 1 { problems.append("\(T.self) takes \(MemoryLayout<T>.size) bytes") }
        for (i, a) in cases.enumerated() {
            if a.caseIndex != i { problems.append("\(a.rawValue) has index \(a.caseIndex), declared \(i)") }
            // The same case made again from its raw value: equal, and hashed alike.
            guard let again = T(rawValue: a.rawValue) else {
                problems.append("\(a.rawValue) is not read back")
                continue
            }
            var first = Hasher(), second = Hasher()
            a.hash(into: &first)
            again.hash(into: &second)
            if again != a || first.finalize() != second.finalize() {
                problems.append("\(a.rawValue) made again differs or hashes another way")
            }
            for b in cases where (a == b) != (a.rawValue == b.rawValue) {
                problems.append("\(a.rawValue) == \(b.rawValue) is \(a == b)")
            }
        }
        if Set(cases).count != cases.count { problems.append("\(T.self): a set loses cases") }
        return problems
    }

    @Test("every CaseIdentity enum compares and hashes by case exactly as by raw value")
    func everyConformingEnumAgreesWithItsRawValues() {
        for (name, check) in Self.checked {
            #expect(check() == [], "\(name)")
        }
    }

    @Test("the list above holds every enum the sources declare CaseIdentity, and no struct conforms")
    func theListCoversTheSources() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Modules")
        let declaration = try NSRegularExpression(pattern: #"\b(enum|struct|class|extension)\s+(\w+)[^{\n]*\bCaseIdentity\b"#)
        var declared: Set<String> = []
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let kind = Range(match.range(at: 1), in: text), let name = Range(match.range(at: 2), in: text)
                else { continue }
                #expect(text[kind] == "enum", "\(text[name]) in \(file.lastPathComponent) is not an enum")
                declared.insert(String(text[name]))
            }
        }
        #expect(declared == Set(Self.checked.map(\.name)))
    }
}

private extension DeliveryStatus {
    /// Every case, in declaration order (the enum is not `CaseIterable`).
    static let allDeclared: [DeliveryStatus] = [.sending, .sent, .notDelivered, .received]
}

private extension ComposerAvailability {
    /// Every case, in declaration order (the enum is not `CaseIterable`).
    static let allDeclared: [ComposerAvailability] = [.open, .sendingDisabled, .signInRequired, .appUnavailable]
}
