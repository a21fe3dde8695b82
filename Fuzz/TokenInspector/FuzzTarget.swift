import Digest
import Identity

/// libFuzzer entry for identity-token inspection (spec 7.14.3 step 3): any text, and the input as a token's
/// Base64URL payload so the claim scanner sees arbitrary JSON. Inspection must answer, never trap, and an accepted
/// `user_id` must be 1–255 UTF-16 units. Built and run by `scripts/fuzz` (`make fuzz`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenInspector(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let asText = String(decoding: bytes, as: UTF8.self)
    let asPayload = "eyJhbGciOiJIUzI1NiJ9." + Base64.encode(bytes, alphabet: .url) + ".c2ln"
    for token in [asText, asPayload] {
        if case .success(let userId) = IdentityTokenInspector.userId(of: token),
           !(1...255).contains(userId.utf16.count) {
            fatalError("accepted a user_id of \(userId.utf16.count) UTF-16 units")
        }
    }
    return 0
}
