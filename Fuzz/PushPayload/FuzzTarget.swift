import Foundation
import PushRouting

/// libFuzzer entry for push payload recognition (spec 7.16): any JSON object as `userInfo`. Recognition must answer,
/// never trap, and a recognised payload must name a non-empty conversation ID. Built and run by `scripts/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPushPayload(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let object = try? JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed]) as? [String: Any]
    else { return 0 }
    let userInfo = Dictionary(uniqueKeysWithValues: object.map { (AnyHashable($0.key), $0.value) })
    let recognised = PushPayload.isSupportNotification(userInfo)
    let conversation = PushPayload.conversationId(in: userInfo)
    if recognised != (conversation?.isEmpty == false) {
        fatalError("recognition and the conversation ID disagree")
    }
    return 0
}
