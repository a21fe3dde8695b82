import PushRouting
import Testing

@Suite("PushPayloadTests")
struct PushPayloadTests {
    /// A payload and whether it is Reception's. `[AnyHashable: Any]` is not Sendable, so cases are built by name.
    static let cases: [(String, Bool)] = [
        ("seed 002 example", true),
        ("conversationId only", true),
        ("AnyHashable-keyed marker", true),
        ("whitespace conversationId", true),
        ("empty conversationId", false),
        ("numeric conversationId", false),
        ("boolean conversationId", false),
        ("array conversationId", false),
        ("object conversationId", false),
        ("null conversationId", false),
        ("missing conversationId", false),
        ("reception is a string", false),
        ("reception is a number", false),
        ("reception is an array", false),
        ("conversationId at the top level", false),
        ("reception nested under aps", false),
        ("unrelated payload", false),
        ("empty payload", false),
        ("misspelt key", false),
    ]

    static func payload(_ name: String) -> [AnyHashable: Any] {
        switch name {
        case "seed 002 example":
            [
                "aps": ["alert": ["title": "New message from support", "body": "Your reply is ready."], "badge": 1,
                        "sound": "default", "thread-id": "example-conversation-id"],
                "reception": ["conversationId": "example-conversation-id"],
            ]
        case "conversationId only": ["reception": ["conversationId": "c1"]]
        case "AnyHashable-keyed marker": [AnyHashable("reception"): [AnyHashable("conversationId"): "c1"] as [AnyHashable: Any]]
        case "whitespace conversationId": ["reception": ["conversationId": " "]]
        case "empty conversationId": ["reception": ["conversationId": ""]]
        case "numeric conversationId": ["reception": ["conversationId": 42]]
        case "boolean conversationId": ["reception": ["conversationId": true]]
        case "array conversationId": ["reception": ["conversationId": ["c1"]]]
        case "object conversationId": ["reception": ["conversationId": ["id": "c1"]]]
        case "null conversationId": ["reception": ["conversationId": Optional<String>.none as Any]]
        case "missing conversationId": ["reception": ["threadId": "c1"]]
        case "reception is a string": ["reception": "c1"]
        case "reception is a number": ["reception": 1]
        case "reception is an array": ["reception": [["conversationId": "c1"]]]
        case "conversationId at the top level": ["conversationId": "c1"]
        case "reception nested under aps": ["aps": ["reception": ["conversationId": "c1"]]]
        case "unrelated payload": ["aps": ["alert": "Your order shipped"], "orderId": "42"]
        case "empty payload": [:]
        default: ["Reception": ["conversationId": "c1"]]
        }
    }

    @Test("recognition table", arguments: cases)
    func recognition(name: String, expected: Bool) {
        #expect(PushPayload.isSupportNotification(Self.payload(name)) == expected, "\(name)")
    }

    @Test("the recognised ID is returned verbatim")
    func conversationId() {
        #expect(PushPayload.conversationId(in: Self.payload("seed 002 example")) == "example-conversation-id")
    }
}
